/**
 * A running engine's idle polls take the folder as the last full scan saw it while the watcher
 * reports nothing (main/engine/scan-trust.ts). Whatever changes while it idles must still be
 * synced: by the cycle the watcher's events start, or, when the watcher loses them, by the
 * periodic full rescan. Each round waits until idle polls no longer walk the folder, makes
 * random changes, and waits until the service holds what the folder holds. SEED=n replays them.
 */
import { mkdir, rename, rm } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { watchTree } from '../../main/local/watcher.js';
import { bytesFor, localChecksums, remoteChecksums, worlds, type Device, type World } from '../helpers/engine.js';
import { Rng, testSeed } from '../helpers/rng.js';
import { cyclesWithoutScan } from '../helpers/scan-streak.js';

const world = worlds();
const seed = testSeed('engine-idle-rescan');
const WAIT = { timeout: 30_000, interval: 100 };

/** A real watcher whose events reach nobody: what an overflowing inotify queue or a network drive gives. */
const deafWatcher: typeof watchTree = (dir, options) => {
  const real = watchTree(dir, { ...options, onChanges: () => undefined });
  return { ...real, seen: () => 0 };
};

type Change = (rng: Rng, laptop: Device, tag: string) => Promise<string>;

const CHANGES: Change[] = [
  async (rng, laptop) => {
    const files = (await localChecksums(laptop.dir)).map(([path]) => path);
    const path = rng.pick(files);
    await laptop.write(path, bytesFor(`edit ${rng.next()}`, rng.int(1, 5000)));
    return `edit ${path}`;
  },
  async (rng, laptop, tag) => {
    await laptop.write(`Idle/new-${tag}.txt`, bytesFor(`new ${rng.next()}`, rng.int(1, 5000)));
    return `add Idle/new-${tag}.txt`;
  },
  async (rng, laptop, tag) => {
    await mkdir(laptop.path(`Fresh-${tag}/Deeper`), { recursive: true });
    await laptop.write(`Fresh-${tag}/Deeper/file.txt`, bytesFor(`deep ${rng.next()}`, rng.int(1, 5000)));
    return `add Fresh-${tag}/Deeper/file.txt`;
  },
  async (rng, laptop) => {
    const files = (await localChecksums(laptop.dir)).map(([path]) => path);
    const path = rng.pick(files);
    await rm(laptop.path(path));
    return `delete ${path}`;
  },
  async (rng, laptop, tag) => {
    const files = (await localChecksums(laptop.dir)).map(([path]) => path);
    const path = rng.pick(files);
    await rename(laptop.path(path), laptop.path(`${path}.renamed-${tag}`));
    return `rename ${path}`;
  },
];

async function idleChanges(w: World, laptop: Device, rng: Rng): Promise<void> {
  const streak = cyclesWithoutScan(laptop);
  await laptop.engine.start();
  for (let round = 0; round < 3; round += 1) {
    // Idle: polls come and go without walking the folder.
    await vi.waitFor(() => expect(streak()).toBeGreaterThanOrEqual(3), WAIT);
    const made: string[] = [];
    const count = rng.int(1, 4);
    for (let i = 0; i < count; i += 1) made.push(await rng.pick(CHANGES)(rng, laptop, `${round}-${i}`));
    const context = { seed, round, made };
    await vi.waitFor(async () => {
      expect({ ...context, files: await localChecksums(laptop.dir) }).toEqual({ ...context, files: await remoteChecksums(w.user.client, w.workspaceId) });
    }, WAIT);
  }
}

describe('a running engine that idles', () => {
  it('syncs what changes while it idles: the watcher starts a cycle that walks the folder', async () => {
    const w = await world({ demo: { assets: 6 } });
    // The full rescan is an hour away: within the test only the watcher can tell of the changes.
    const laptop = await w.device('laptop', { engine: { pollIntervalMs: 200, debounceMs: 50 } });
    await laptop.converge();
    await idleChanges(w, laptop, new Rng(seed, 'watched'));
  }, 120_000);

  it('syncs what changes while it idles when the watcher loses every event: the periodic full rescan finds it', async () => {
    const w = await world({ demo: { assets: 6 } });
    const laptop = await w.device('laptop', { engine: { pollIntervalMs: 200, debounceMs: 50, fullRescanIntervalMs: 1500, watchTree: deafWatcher } });
    await laptop.converge();
    await idleChanges(w, laptop, new Rng(seed, 'deaf'));
  }, 120_000);
});
