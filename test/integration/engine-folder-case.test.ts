/**
 * Case-only folder renames, both ways, against the real service: the folder itself is renamed
 * on the other side (one PUT, or one rename on disk), and nothing in it is uploaded,
 * downloaded, deleted or duplicated. The demo's "Brand" holds two files and two subfolders.
 */
import { readdir, rename, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { SyncReport } from '../../shared/engine.js';
import { idle, localChecksums, remoteChecksums, worlds, type Device, type World } from '../helpers/engine.js';

const world = worlds();

/** What a case-only folder rename may cost: moves, and nothing else. */
function onlyMoves(report: SyncReport): { ok: boolean; uploaded: number; downloaded: number; deleted: number; conflicts: number; failed: number } {
  const ws = report.workspaces[0];
  return { ok: report.ok, uploaded: ws?.uploaded ?? -1, downloaded: ws?.downloaded ?? -1, deleted: ws?.deleted ?? -1, conflicts: ws?.conflicts ?? -1, failed: ws?.failed ?? -1 };
}
const NOTHING_BUT_MOVES = { ok: true, uploaded: 0, downloaded: 0, deleted: 0, conflicts: 0, failed: 0 };

/** Inode of every file below `top` (relative paths spelled as `top` on disk), by path below it. */
async function inodesBelow(device: Device, top: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const [rel] of await localChecksums(device.dir)) {
    if (rel.toLowerCase().startsWith(`${top.toLowerCase()}/`)) out.set(rel.slice(top.length), (await stat(device.path(rel))).ino);
  }
  return out;
}

/** The service's active folders at the top level whose name is some spelling of `name`. */
async function topFoldersNamed(w: World, name: string): Promise<Array<{ id: string; name: string }>> {
  const listing = await w.user.hierarchy();
  return listing.folders
    .filter((f) => f.isActive && (f.parent_id ?? null) === null && f.name.toLowerCase() === name.toLowerCase())
    .map((f) => ({ id: f.id, name: f.name }));
}

/** Path -> checksum pairs by case-folded path: the same files, whatever the folder's spelling. */
function caseFolded(pairs: Array<[string, string]>): string[] {
  return pairs.map(([path, sum]) => `${path.toLowerCase()} ${sum}`).sort();
}

async function assetIds(w: World): Promise<string[]> {
  return (await w.user.hierarchy()).assets.filter((a) => a.isActive).map((a) => a.id).sort();
}

/** Base rows at or below the folder, by the spelling their paths start with. */
function baseSpellings(device: Device, w: World, top: string): string[] {
  const tree = device.index.base.load(w.workspaceId);
  const paths = [...tree.files.values(), ...tree.folders.values()].map((row) => row.path);
  const below = paths.filter((p) => p.toLowerCase() === top.toLowerCase() || p.toLowerCase().startsWith(`${top.toLowerCase()}/`));
  return [...new Set(below.map((p) => p.split('/')[0] as string))];
}

describe('a folder renamed in letter case on disk', () => {
  it('renames the folder on the service: no upload, no delete, nothing duplicated; another device follows without a download', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    const desktop = await w.device('desktop');
    await laptop.sync();
    await desktop.sync();
    const [brand] = await topFoldersNamed(w, 'Brand');
    const assetsBefore = await assetIds(w);
    const desktopInodes = await inodesBelow(desktop, 'Brand');

    await rename(laptop.path('Brand'), laptop.path('brand'));
    const report = await laptop.sync();

    expect(onlyMoves(report)).toEqual(NOTHING_BUT_MOVES);
    expect(report.workspaces[0]?.moved).toBe(1);
    expect(await topFoldersNamed(w, 'Brand')).toEqual([{ id: brand?.id, name: 'brand' }]);
    expect(await assetIds(w)).toEqual(assetsBefore);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(baseSpellings(laptop, w, 'brand')).toEqual(['brand']);
    expect(idle(await laptop.sync())).toBe(true);

    const received = await desktop.sync();
    expect(onlyMoves(received)).toEqual(NOTHING_BUT_MOVES);
    expect(await readdir(desktop.dir)).toContain('brand');
    expect(await readdir(desktop.dir)).not.toContain('Brand');
    expect(await inodesBelow(desktop, 'brand')).toEqual(desktopInodes);
    expect(await localChecksums(desktop.dir)).toEqual(await localChecksums(laptop.dir));
    expect(idle(await desktop.sync())).toBe(true);
  });

  it('renames a subfolder alone on the service', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const logosId = w.demo.folderIds['Brand/Logos'];

    await rename(laptop.path('Brand/Logos'), laptop.path('Brand/logos'));
    const report = await laptop.sync();

    expect(onlyMoves(report)).toEqual(NOTHING_BUT_MOVES);
    const logos = (await w.user.hierarchy()).folders.find((f) => f.id === logosId);
    expect(logos).toMatchObject({ name: 'logos', parent_id: w.demo.folderIds.Brand });
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);
  });
});

describe('a folder renamed in letter case on the service', () => {
  it('renames the local folder in place: the files in it are neither moved one by one nor downloaded again', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const inodes = await inodesBelow(laptop, 'Brand');
    const folderInode = (await stat(laptop.path('Brand'))).ino;

    await w.colleague.client.updateFolder(w.workspaceId, w.demo.folderIds.Brand as string, { name: 'brand' });
    const report = await laptop.sync();

    expect(onlyMoves(report)).toEqual(NOTHING_BUT_MOVES);
    expect(report.workspaces[0]?.moved).toBe(1);
    const names = await readdir(laptop.dir);
    expect(names).toContain('brand');
    expect(names).not.toContain('Brand');
    expect((await stat(laptop.path('brand'))).ino).toBe(folderInode);
    expect(await inodesBelow(laptop, 'brand')).toEqual(inodes);
    expect(baseSpellings(laptop, w, 'brand')).toEqual(['brand']);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);
  });

  it('renames a folder and its subfolder, the parent first', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const inodes = await inodesBelow(laptop, 'Brand');

    await w.colleague.client.updateFolder(w.workspaceId, w.demo.folderIds.Brand as string, { name: 'BRAND' });
    await w.colleague.client.updateFolder(w.workspaceId, w.demo.folderIds['Brand/Logos'] as string, { name: 'LOGOS' });
    const report = await laptop.sync();

    expect(onlyMoves(report)).toEqual(NOTHING_BUT_MOVES);
    expect(report.workspaces[0]?.moved).toBe(2);
    expect(await readdir(laptop.path('BRAND'))).toContain('LOGOS');
    expect([...(await inodesBelow(laptop, 'BRAND')).values()].sort()).toEqual([...inodes.values()].sort());
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);
  });
});

describe('a folder renamed in letter case on both sides', () => {
  it('to the same name: nothing is renamed or transferred, only the base learns the name', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const assetsBefore = await assetIds(w);

    await rename(laptop.path('Brand'), laptop.path('brand'));
    await w.colleague.client.updateFolder(w.workspaceId, w.demo.folderIds.Brand as string, { name: 'brand' });
    const report = await laptop.sync();

    expect(onlyMoves(report)).toEqual(NOTHING_BUT_MOVES);
    expect(report.workspaces[0]?.moved).toBe(0);
    expect(await topFoldersNamed(w, 'brand')).toEqual([{ id: w.demo.folderIds.Brand, name: 'brand' }]);
    expect(await assetIds(w)).toEqual(assetsBefore);
    expect(baseSpellings(laptop, w, 'brand')).toEqual(['brand']);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);
  });

  it('to different names: the service spelling wins, and nothing is lost', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const before = caseFolded(await localChecksums(laptop.dir));
    const assetsBefore = await assetIds(w);

    await rename(laptop.path('Brand'), laptop.path('BRAND'));
    await w.colleague.client.updateFolder(w.workspaceId, w.demo.folderIds.Brand as string, { name: 'brand' });
    const report = await laptop.sync();

    expect(onlyMoves(report)).toEqual(NOTHING_BUT_MOVES);
    expect(await readdir(laptop.dir)).toContain('brand');
    expect(await topFoldersNamed(w, 'brand')).toEqual([{ id: w.demo.folderIds.Brand, name: 'brand' }]);
    expect(await assetIds(w)).toEqual(assetsBefore);
    expect(caseFolded(await localChecksums(laptop.dir))).toEqual(before);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);
  });
});
