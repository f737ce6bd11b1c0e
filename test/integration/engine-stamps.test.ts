/**
 * What a file's stamp can and cannot tell: a file written over while it was being uploaded and
 * then given back its old mtime (editors and copy tools restore mtimes) must still reach the
 * service with its last bytes, however its size and mtime make it look unchanged.
 * SEED=n replays the random choices of a failed run.
 */
import { lstatSync, utimesSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TransferProgress } from '../../shared/engine.js';
import { bytesFor, sha256, worlds } from '../helpers/engine.js';
import { Rng } from '../helpers/rng.js';

const world = worlds();
const seed = Number(process.env.SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`engine-stamps: seed ${seed} (SEED=${seed} replays it)`);

/** A time in the past, as seconds: set twice with utimes, it gives the same mtime to the nanosecond. */
const pastSeconds = (rng: Rng): number => Math.floor(Date.now() / 1000) - rng.int(120, 86_400) + rng.int(1, 999) / 1000;

/** Writes `bytes` over the file in place (same inode) and gives it back the mtime `seconds`. */
function rewriteKeepingMtime(abs: string, bytes: Buffer, seconds: number): void {
  const before = lstatSync(abs, { bigint: true });
  writeFileSync(abs, bytes);
  utimesSync(abs, seconds, seconds);
  const after = lstatSync(abs, { bigint: true });
  // What makes the case: only the contents (and the change time) differ.
  expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
}

describe('a file changed while it was being uploaded, its mtime given back', () => {
  it('is uploaded with its last bytes at the next sync, not refused for ever', async () => {
    const rng = new Rng(seed, 'changed-during-upload');
    const w = await world({ demo: { assets: 0 } });
    const laptop = await w.device('laptop');
    await laptop.converge();

    const rel = `Docs/notes-${rng.int(0, 9999)}.txt`;
    // Small files are read in one go, large ones streamed: either way the change comes first.
    const size = rng.pick([rng.int(1, 4096), rng.int(1024 * 1024 + 1, 3 * 1024 * 1024)]);
    const edited = rng.chance(0.5);
    const abs = laptop.path(rel);
    const mtime = pastSeconds(rng);
    if (edited) {
      await laptop.write(rel, bytesFor(`first ${seed}`, size));
      utimesSync(abs, mtime - 60, mtime - 60);
      await laptop.converge();
    }
    const scanned = bytesFor(`scanned ${seed}`, size);
    const last = bytesFor(`last ${seed}`, size);
    await laptop.write(rel, scanned);
    utimesSync(abs, mtime, mtime);
    console.log(`engine-stamps: ${rel}, ${size} bytes, ${edited ? 'an edit' : 'a new file'}`);

    // The upload has its slot and has not read a byte yet: the file changes, its mtime stays.
    let changed = false;
    laptop.engine.on('transfer', (t: TransferProgress) => {
      if (!changed && t.direction === 'upload' && t.path === rel && t.state === 'active') {
        changed = true;
        rewriteKeepingMtime(abs, last, mtime);
      }
    });
    const first = await laptop.sync({ maxRounds: 1 });
    expect(changed).toBe(true);
    expect(first.workspaces[0]?.uploaded).toBe(0);

    await laptop.converge();
    expect((await w.user.assetAt(rel)).checksum).toBe(sha256(last));
  });
});
