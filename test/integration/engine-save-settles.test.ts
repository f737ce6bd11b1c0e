/**
 * A file written in pieces while the engine runs, with the engine's own quiet period: it goes up
 * once, whole, as soon as it has settled; never a half-written version. The pauses between the
 * pieces are random (each shorter than the quiet period) and the seed is printed for replay:
 * SAVE_SETTLES_SEED=n.
 */
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_QUIET_MS } from '../../main/local/stability.js';
import { bytesFor, remoteFiles, sha256, worlds } from '../helpers/engine.js';
import { runRng } from '../helpers/run-seed.js';

const world = worlds();
const WAIT = { timeout: 30_000, interval: 50 };

describe('a file saved while the engine runs', () => {
  it('is uploaded once, whole, after its last write: never while pieces are still being written', async () => {
    const rng = runRng('SAVE_SETTLES_SEED');
    const w = await world({ demo: { assets: 0 } });
    const laptop = await w.device('laptop', { engine: { quietMs: DEFAULT_QUIET_MS, pollIntervalMs: 600_000 } });
    await laptop.converge();
    await laptop.engine.start();

    const uploadsSeen: string[] = [];
    laptop.engine.on('activity', (a) => {
      if (a.kind === 'uploaded') uploadsSeen.push(a.path ?? '');
    });
    for (let file = 0; file < 3; file += 1) {
      const rel = `Exports/cut-${file}.mov`;
      const whole = bytesFor(`cut ${file}`, 1024 * 1024);
      const abs = laptop.path(rel);
      await mkdir(dirname(abs), { recursive: true });
      const handle = await open(abs, 'w');
      const pieces = rng.int(4, 10);
      const size = Math.ceil(whole.length / pieces);
      for (let at = 0; at < whole.length; at += size) {
        await handle.write(whole.subarray(at, at + size), 0, undefined, at);
        await handle.sync();
        // Each pause shorter than the quiet period: the file is still being written.
        const pause = rng.int(20, Math.floor(DEFAULT_QUIET_MS * 0.7));
        await new Promise((resolve) => setTimeout(resolve, pause));
        expect((await remoteFiles(w.user.client, w.workspaceId)).has(rel), `${rel} went up while being written`).toBe(false);
      }
      await handle.close();
      await vi.waitFor(async () => expect((await remoteFiles(w.user.client, w.workspaceId)).get(rel)?.checksum).toBe(sha256(whole)), WAIT);
      const asset = await w.user.assetAt(rel);
      expect((await w.user.versions(asset.assetId)).map((v) => v.checksum)).toEqual([sha256(whole)]);
    }
    expect(uploadsSeen.sort()).toEqual(['Exports/cut-0.mov', 'Exports/cut-1.mov', 'Exports/cut-2.mov']);
    await laptop.engine.stop();
  }, 90_000);
});
