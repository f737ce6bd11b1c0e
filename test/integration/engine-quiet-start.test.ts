/**
 * A fresh process on a workspace nothing changed in replays the quiet cycle the index kept
 * (main/engine/quiet-start.ts): it tells what that cycle told and plans nothing, without loading
 * the base or placing the remote tree (said at debug level). Whatever changed while no process
 * ran, on disk, on the service, in the index (from another connection), in the ignore rules, the
 * excluded folders or the user, must be synced by the next process all the same; and the marker
 * is checked as always. QUIET_START_SEED=n replays the order and the picks of a failed run;
 * QUIET_START_CHANGE="a file edited here" runs that change alone.
 */
import { chmod, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { lstatSync } from 'node:fs';
import { sep } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openIndex } from '../../main/index/sync-index.js';
import type { LockedHere } from '../../main/engine/locked-files.js';
import { bytesFor, faults, idle, injector, localChecksums, remoteChecksums, worlds, type Device, type DeviceOptions, type World } from '../helpers/engine.js';
import { keptLogger, linesStarting, type LogLine } from '../helpers/kept-logger.js';
import type { Rng } from '../helpers/rng.js';
import { runRng } from '../helpers/run-seed.js';
import { cyclesWithoutScan } from '../helpers/scan-streak.js';
import { watchCacheAndReads } from '../helpers/cache-watch.js';
import { FsWorkerPool } from '../../main/local/fs-workers.js';

const world = worlds();
const rng = runRng('QUIET_START_SEED');
const REPLAYED = 'nothing changed since the quiet cycle the index kept';
const WAIT = { timeout: 30_000, interval: 100 };

/** Closes the device and starts a new process on its root and index, whose log is kept at debug level. */
async function restart(w: World, device: Device, options: DeviceOptions = {}): Promise<{ device: Device; lines: LogLine[] }> {
  await device.close();
  const kept = keptLogger('debug');
  return { device: await w.device(device.name, { ...options, logger: kept.logger }), lines: kept.lines };
}

function shuffled<T>(random: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = random.int(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const replays = (lines: readonly LogLine[]): number => linesStarting(lines, REPLAYED).length;
const writable = (device: Device, rel: string): boolean => (lstatSync(device.path(rel)).mode & 0o222) !== 0;
const localFiles = async (device: Device): Promise<string[]> => (await localChecksums(device.dir)).map(([path]) => path);

/** Every file's mtime an hour back: old enough for the hash cache to vouch for its checksum (a fresh file is read by every scan). */
async function ageFiles(device: Device): Promise<void> {
  const past = new Date(Date.now() - 3_600_000);
  for (const rel of await localFiles(device)) await utimes(device.path(rel), past, past);
}

interface Round {
  w: World;
  device: Device;
  rng: Rng;
  round: number;
  /** Kept by `prepare` for `check`. */
  path: string;
}

interface Change {
  /** The process before the change starts so. */
  before?: (r: Round) => DeviceOptions;
  /** Done and synced before the change. */
  prepare?: (r: Round) => Promise<void>;
  /** Done while no process runs. */
  apply: (r: Round) => Promise<void>;
  /** The process after the change starts so. */
  after?: (r: Round) => DeviceOptions;
  /** What the change must have led to, besides both sides agreeing. */
  check?: (r: Round) => Promise<void>;
}

const colleague = (w: World): DeviceOptions => ({ credentials: { key: w.demo.colleague.apiKey, secret: w.demo.colleague.apiSecret } });

const CHANGES: Record<string, Change> = {
  'a file edited here': {
    apply: async (r) => r.device.write(r.rng.pick(await localFiles(r.device)), bytesFor(`edit ${r.rng.next()}`, r.rng.int(1, 5000))),
  },
  'a file added here': {
    apply: (r) => r.device.write(`Quiet/new-${r.round}.txt`, bytesFor(`new ${r.rng.next()}`, r.rng.int(1, 5000))),
  },
  'a file deleted here': {
    apply: async (r) => rm(r.device.path(r.rng.pick(await localFiles(r.device)))),
  },
  "a colleague's new version": {
    apply: async (r) => {
      const path = r.rng.pick(await localFiles(r.device));
      await r.w.colleague.newVersion((await r.w.colleague.assetAt(path)).assetId, bytesFor(`version ${r.rng.next()}`, r.rng.int(1, 5000)));
    },
  },
  "a colleague's new file": {
    apply: async (r) => void (await r.w.colleague.createFile(`Colleague/file-${r.round}.txt`, bytesFor(`colleague ${r.rng.next()}`, 100))),
  },
  'another connection forgets a synced file': {
    apply: async (r) => {
      r.path = r.rng.pick(await localFiles(r.device));
      const other = openIndex(r.device.indexFile);
      other.base.deleteFile(r.w.workspaceId, r.path);
      other.close();
    },
    check: async (r) => expect(r.device.index.base.getFile(r.w.workspaceId, r.path)).toBeDefined(),
  },
  'another connection records a lock this computer no longer knows of': {
    // Read-only as a lock leaves it, synced so: only the index then tells it is to be given back.
    prepare: async (r) => {
      r.path = r.rng.pick(await localFiles(r.device));
      await chmod(r.device.path(r.path), 0o444);
    },
    apply: async (r) => {
      const other = openIndex(r.device.indexFile);
      const assetId = other.base.getFile(r.w.workspaceId, r.path)?.assetId ?? '';
      const locked: LockedHere[] = [{ path: r.path, assetId, holderId: r.w.demo.colleague.userId, modeBefore: 0o644, heldBack: false }];
      other.settings.set(`lockedHere:${r.w.workspaceId}`, locked);
      other.close();
    },
    check: async (r) => expect(writable(r.device, r.path)).toBe(true),
  },
  'the ignore rules let a file in': {
    prepare: async (r) => {
      await writeFile(r.device.path('.assetsyncignore'), `Ignored-${r.round}/\n`);
      r.path = `Ignored-${r.round}/file.txt`;
      await r.w.colleague.createFile(r.path, bytesFor(`ignored ${r.rng.next()}`, 100));
    },
    apply: (r) => rm(r.device.path('.assetsyncignore')),
    check: async (r) => expect(await r.device.exists(r.path)).toBe(true),
  },
  'a folder no longer excluded': {
    before: (r) => ({ workspaces: [{ id: r.w.workspaceId, excluded: [`Outside-${r.round}`] }] }),
    prepare: async (r) => {
      r.path = `Outside-${r.round}/file.txt`;
      await r.w.colleague.createFile(r.path, bytesFor(`outside ${r.rng.next()}`, 100));
    },
    apply: async () => undefined,
    check: async (r) => expect(await r.device.exists(r.path)).toBe(true),
  },
  'another user signs in, for whom a lock is foreign': {
    prepare: async (r) => {
      r.path = r.rng.pick(await localFiles(r.device));
      await r.w.user.client.updateAsset(r.w.workspaceId, (await r.w.user.assetAt(r.path)).assetId, { locked: true });
    },
    apply: async () => undefined,
    after: (r) => colleague(r.w),
    check: async (r) => {
      expect(writable(r.device, r.path)).toBe(false);
      await r.w.user.client.updateAsset(r.w.workspaceId, (await r.w.user.assetAt(r.path)).assetId, { locked: false });
    },
  },
};

describe('a fresh process on a workspace nothing changed in', () => {
  it('plans nothing, tells what the last cycle told, and reads neither the base nor the remote tree', async () => {
    const w = await world({ demo: { assets: 6 } });
    let device = await w.device('laptop');
    await device.converge();
    // A file the scanner leaves out: a problem every cycle tells.
    await symlink('elsewhere', device.path('a-link'));
    await device.converge();
    const told = (await device.sync()).workspaces[0]?.problems ?? [];
    expect(told.length).toBeGreaterThan(0);
    for (let start = 0; start < 2; start += 1) {
      let lines: LogLine[];
      ({ device, lines } = await restart(w, device));
      const report = await device.sync();
      expect(idle(report)).toBe(true);
      expect(report.workspaces[0]?.problems).toEqual(told);
      expect(replays(lines)).toBe(1);
    }
  });

  it('asks the hash cache nothing and reads no file when its walk finds the paths and stamps the record kept', async () => {
    const w = await world({ demo: { assets: 6 } });
    let device = await w.device('laptop');
    await device.converge();
    await ageFiles(device);
    await device.converge();
    await device.sync();
    const started = await restart(w, device);
    device = started.device;
    const seen = watchCacheAndReads();
    try {
      expect(idle(await device.sync())).toBe(true);
    } finally {
      vi.restoreAllMocks();
    }
    expect(replays(started.lines)).toBe(1);
    expect(seen).toEqual({ asked: [], read: [] });
  });

  it('is still checked against the marker of its folder', async () => {
    const w = await world({ demo: { assets: 4 } });
    const first = await w.device('laptop');
    await first.converge();
    await first.sync();
    const before = await remoteChecksums(w.user.client, w.workspaceId);
    const marker = JSON.parse(await readFile(first.path('.assetsync'), 'utf8')) as Record<string, unknown>;
    await first.close();
    await writeFile(first.path('.assetsync'), JSON.stringify({ ...marker, folderId: 'another-folder' }));
    const { device, lines } = await restart(w, first);
    const report = await device.sync();
    expect(report.workspaces[0]?.problems.map((p) => p.kind)).toContain('marker');
    expect(replays(lines)).toBe(0);
    expect(await remoteChecksums(w.user.client, w.workspaceId)).toEqual(before);
  });
});

describe('a fresh process after a change while none ran', () => {
  it.each([404, 501])('syncs a colleague\'s new file from a service whose changes feed answers %i', async (status) => {
    const w = await world({ demo: { assets: 4 }, service: { faults: faults({ routes: [{ method: 'GET', path: '/workspaces/changes', answer: status }] }) } });
    const first = await w.device('laptop');
    await first.converge();
    expect(idle(await first.sync())).toBe(true);
    await first.close();
    await w.colleague.createFile('Colleague/without-feed.txt', bytesFor(`colleague ${rng.next()}`, 100));
    const { device, lines } = await restart(w, first);
    await device.converge();
    expect(await localChecksums(device.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(replays(lines)).toBe(0);
  });

  it('syncs the change, whatever it was', async () => {
    const w = await world({ demo: { assets: 6 } });
    let device = await w.device('laptop');
    await device.converge();
    const kinds = process.env.QUIET_START_CHANGE ? [process.env.QUIET_START_CHANGE] : shuffled(rng, Object.keys(CHANGES));
    for (const [round, kind] of kinds.entries()) {
      const change = CHANGES[kind] as Change;
      const r: Round = { w, device, rng, round, path: '' };
      ({ device } = await restart(w, device, change.before?.(r) ?? {}));
      r.device = device;
      await change.prepare?.(r);
      await device.converge();
      // Files old enough for the cache to vouch for them: the record then keeps the walk's stamps
      // and the next process's walk asks the cache nothing unless they differ.
      await ageFiles(device);
      await device.converge();
      // Quiet: this cycle keeps its record for the next process.
      expect(idle(await device.sync())).toBe(true);
      await device.close();
      await change.apply(r);
      let lines: LogLine[];
      ({ device, lines } = await restart(w, device, change.after?.(r) ?? {}));
      r.device = device;
      await device.converge();
      const context = { kind, round };
      expect({ ...context, files: await localChecksums(device.dir) }).toEqual({ ...context, files: await remoteChecksums(w.user.client, w.workspaceId) });
      await change.check?.(r);
      expect({ ...context, replays: replays(lines) }).toEqual({ ...context, replays: 0 });
    }
  });
});

/** When the colleague's change lands, against the fresh process's walk and the feed's answer. */
const WHEN_CHANGED = ['before the process starts', 'as the feed is asked', 'as the feed is asked, answered after the walk'] as const;

describe('a fresh process whose changes feed reports a change', () => {
  it.each(WHEN_CHANGED)('syncs it, walking the folder once: the change lands %s', async (when) => {
    const w = await world({ demo: { assets: 6 }, service: { faults: faults({}) } });
    let device = await w.device('laptop');
    await device.converge();
    // Old enough for the record to keep the walk's stamps: the next walk may then skip the hash cache.
    await ageFiles(device);
    await device.converge();
    expect(idle(await device.sync())).toBe(true);
    await device.close();
    const added = `Colleague/while-walking-${rng.next()}.txt`;
    const change = async (): Promise<void> => void (await w.colleague.createFile(added, bytesFor(`colleague ${rng.next()}`, 100)));
    // Each listing of the folder's top: one per walk.
    const root = `${device.dir}${sep}`;
    let walks = 0;
    let walked: () => void = () => undefined;
    const rootListed = new Promise<void>((resolve) => (walked = resolve));
    const list = FsWorkerPool.prototype.list;
    vi.spyOn(FsWorkerPool.prototype, 'list').mockImplementation(function (this: FsWorkerPool, prefixes) {
      if (prefixes.includes(root)) {
        walks += 1;
        walked();
      }
      return list.call(this, prefixes);
    });
    if (when === 'before the process starts') await change();
    else {
      const late = when !== 'as the feed is asked';
      injector(w).setRoutes([
        {
          method: 'GET',
          path: '/workspaces/changes',
          answer: 'pass',
          times: 1,
          before: async () => {
            await change();
            // The walk of a few files is over well within this.
            if (late) await rootListed.then(() => new Promise((resolve) => setTimeout(resolve, 300)));
          },
        },
      ]);
    }
    try {
      let lines: LogLine[];
      ({ device, lines } = await restart(w, device));
      const first = await device.sync({ maxRounds: 1 });
      expect({ when, walks, downloaded: first.workspaces[0]?.downloaded }).toEqual({ when, walks: 1, downloaded: 1 });
      expect(replays(lines)).toBe(0);
    } finally {
      vi.restoreAllMocks();
    }
    await device.converge();
    expect(await localChecksums(device.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
  });
});

describe('a running engine started on a workspace nothing changed in', () => {
  it('replays the kept quiet cycle, then idles without walking the folder, and still syncs what changes', async () => {
    const w = await world({ demo: { assets: 6 } });
    const first = await w.device('laptop');
    await first.converge();
    await first.sync();
    const { device, lines } = await restart(w, first, { engine: { pollIntervalMs: 200, debounceMs: 50 } });
    const streak = cyclesWithoutScan(device);
    await device.engine.start();
    await vi.waitFor(() => expect(streak()).toBeGreaterThanOrEqual(3), WAIT);
    expect(replays(lines)).toBeGreaterThan(0);
    const bothSidesAgree = (change: string) => async (): Promise<void> => {
      expect({ change, files: await localChecksums(device.dir) }).toEqual({ change, files: await remoteChecksums(w.user.client, w.workspaceId) });
    };
    // One change at a time: a change on the service alone makes the next cycle a full one.
    const path = rng.pick(await localFiles(device));
    await device.write(path, bytesFor(`edit ${rng.next()}`, rng.int(1, 5000)));
    await vi.waitFor(bothSidesAgree(`edit ${path}`), WAIT);
    await w.colleague.createFile('Colleague/while-idle.txt', bytesFor(`colleague ${rng.next()}`, 100));
    await vi.waitFor(bothSidesAgree("a colleague's new file"), WAIT);
  }, 120_000);
});
