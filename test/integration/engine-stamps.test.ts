/**
 * What a file's stamp can and cannot tell. A file rewritten in place with its size and mtime
 * kept (tools that restore mtimes, saves within one mtime tick) changed only its ctime: it must
 * reach the service, at the next sync or while its upload runs, with its last bytes; and what
 * the engine itself writes or moves must not be read again for it.
 * SEED=n replays the random choices of a failed run.
 */
import { lstatSync, utimesSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TransferProgress } from '../../shared/engine.js';
import { createIgnoreMatcher } from '../../main/local/ignore.js';
import { scanTree } from '../../main/local/scanner.js';
import { bytesFor, sha256, worlds, type Device } from '../helpers/engine.js';
import { Rng, testSeed } from '../helpers/rng.js';

const world = worlds();
const seed = testSeed('engine-stamps');

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

/** Runs `change` once, when the upload of `rel` reaches `state`; answers whether it ran. */
function onceUploadIs(device: Device, rel: string, state: TransferProgress['state'], change: () => void): () => boolean {
  let ran = false;
  device.engine.on('transfer', (t: TransferProgress) => {
    if (!ran && t.direction === 'upload' && t.path === rel && t.state === state) {
      ran = true;
      change();
    }
  });
  return () => ran;
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
    const changed = onceUploadIs(laptop, rel, 'active', () => rewriteKeepingMtime(abs, last, mtime));
    const first = await laptop.sync({ maxRounds: 1 });
    expect(changed()).toBe(true);
    expect(first.workspaces[0]?.uploaded).toBe(0);

    await laptop.converge();
    expect((await w.user.assetAt(rel)).checksum).toBe(sha256(last));
  });
});

describe('a file rewritten in place with the same size and mtime', () => {
  it('is uploaded at the next sync; the files left alone are not read again', async () => {
    const rng = new Rng(seed, 'rewritten-in-place');
    const w = await world({ demo: { assets: 0 } });
    const laptop = await w.device('laptop');
    await laptop.converge();
    const names = Array.from({ length: rng.int(3, 8) }, (_, i) => `Renders/take-${i}-${rng.int(0, 9999)}.bin`);
    const mtimes = new Map<string, number>();
    for (const rel of names) {
      await laptop.write(rel, bytesFor(`${rel} 1 ${seed}`, rng.int(1, 200_000)));
      mtimes.set(rel, pastSeconds(rng));
      utimesSync(laptop.path(rel), mtimes.get(rel) as number, mtimes.get(rel) as number);
    }
    await laptop.converge();

    const rewritten = names.filter(() => rng.chance(0.5));
    if (rewritten.length === 0) rewritten.push(rng.pick(names));
    console.log(`engine-stamps: rewriting ${rewritten.join(', ')} of ${names.length}`);
    const expected = new Map<string, string>();
    for (const rel of names) {
      const now = await laptop.read(rel);
      const bytes = rewritten.includes(rel) ? bytesFor(`${rel} 2 ${seed}`, now.length) : now;
      if (rewritten.includes(rel)) rewriteKeepingMtime(laptop.path(rel), bytes, mtimes.get(rel) as number);
      expected.set(rel, sha256(bytes));
    }
    expect(await rescan(laptop, w.workspaceId)).toEqual({ hashed: rewritten.length, renamed: 0 });
    const report = await laptop.sync();
    expect(report.ok).toBe(true);
    expect(report.workspaces[0]?.uploaded).toBe(rewritten.length);
    for (const rel of names) expect((await w.user.assetAt(rel)).checksum).toBe(expected.get(rel));
    expect(await rescan(laptop, w.workspaceId)).toEqual({ hashed: 0, renamed: 0 });
  });

  it('after its bytes were sent is not committed with them; its last bytes are, next', async () => {
    const rng = new Rng(seed, 'rewritten-after-sending');
    const w = await world({ demo: { assets: 0 } });
    const laptop = await w.device('laptop');
    await laptop.converge();
    const rel = `Docs/report-${rng.int(0, 9999)}.txt`;
    const size = rng.pick([rng.int(1, 4096), rng.int(1024 * 1024 + 1, 3 * 1024 * 1024)]);
    const abs = laptop.path(rel);
    const mtime = pastSeconds(rng);
    const sent = bytesFor(`sent ${seed}`, size);
    const last = bytesFor(`last ${seed}`, size);
    await laptop.write(rel, sent);
    utimesSync(abs, mtime, mtime);
    console.log(`engine-stamps: ${rel}, ${size} bytes`);

    // The last byte is handed over and the commit is next: the file changes, its mtime stays.
    const changed = onceUploadIs(laptop, rel, 'done', () => rewriteKeepingMtime(abs, last, mtime));
    const first = await laptop.sync({ maxRounds: 1 });
    expect(changed()).toBe(true);
    expect(first.workspaces[0]?.uploaded).toBe(0);
    expect((await w.user.hierarchy()).assets.some((a) => a.file_name === rel.split('/')[1])).toBe(false);

    await laptop.converge();
    const asset = await w.user.assetAt(rel);
    expect(asset.checksum).toBe(sha256(last));
    expect(await w.user.versions(asset.assetId)).toHaveLength(1);
  });
});

describe('what the engine writes or moves itself', () => {
  it('is not read again by the next scan, nor uploaded: downloads, replacements and moves', async () => {
    const rng = new Rng(seed, 'own-writes');
    const w = await world({ demo: { assets: 0 } });
    const names = Array.from({ length: rng.int(4, 8) }, (_, i) => `Shared/file-${i}-${rng.int(0, 9999)}.bin`);
    const assets = [];
    for (const rel of names) assets.push(await w.colleague.createFile(rel, bytesFor(`${rel} ${seed}`, rng.int(1, 300_000))));
    const laptop = await w.device('laptop');
    await laptop.converge();
    expect(await rescan(laptop, w.workspaceId)).toEqual({ hashed: 0, renamed: 0 });

    // New versions replace files here, renames on the service move them here.
    for (const [i, asset] of assets.entries()) {
      if (i === 0 || rng.chance(0.5)) await w.colleague.newVersion(asset.id, bytesFor(`${asset.id} 2 ${seed}`, rng.int(1, 300_000)));
      if (i === 1 || rng.chance(0.5)) await w.colleague.client.updateAsset(w.workspaceId, asset.id, { file_name: `moved-${asset.file_name}` });
    }
    await laptop.converge();
    expect(await rescan(laptop, w.workspaceId)).toEqual({ hashed: 0, renamed: 0 });
    const again = await laptop.sync();
    expect(again.workspaces[0]?.uploaded).toBe(0);
  });
});

describe('a file this sync renames and then uploads', () => {
  it('is uploaded in the same cycle: the ctime its rename moved is not taken for an edit', async () => {
    const rng = new Rng(seed, 'renamed-then-uploaded');
    const w = await world({ demo: { assets: 0 } });
    const rel = `Docs/plan-${rng.int(0, 9999)}.txt`;
    const asset = await w.colleague.createFile(rel, bytesFor(`plan 1 ${seed}`, rng.int(1, 300_000)));
    const laptop = await w.device('laptop');
    await laptop.converge();

    // Renamed on the service and edited here: the file is moved here, then its edit uploaded.
    await w.colleague.client.updateAsset(w.workspaceId, asset.id, { file_name: `renamed-${asset.file_name}` });
    const edit = bytesFor(`plan 2 ${seed}`, rng.int(1, 300_000));
    await laptop.write(rel, edit);
    const mtime = pastSeconds(rng);
    utimesSync(laptop.path(rel), mtime, mtime);
    const report = await laptop.sync({ maxRounds: 1 });
    expect(report.workspaces[0]?.problems ?? []).toEqual([]);
    expect(report.workspaces[0]).toMatchObject({ moved: 1, uploaded: 1 });
    expect((await w.user.assetAt(`Docs/renamed-${asset.file_name}`)).checksum).toBe(sha256(edit));
  });
});

/** A scan of the device's folder with its own hash cache, as its next sync would make: what it reads. */
async function rescan(device: Device, workspaceId: string): Promise<{ hashed: number; renamed: number }> {
  const scan = await scanTree(device.dir, { hashCache: device.index.hashCache(workspaceId), ignore: createIgnoreMatcher() });
  return { hashed: scan.hashed, renamed: scan.renamed };
}
