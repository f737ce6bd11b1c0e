/**
 * The executor's side of folder renames and moves (actions.ts MoveLocalFolder and
 * MoveRemoteFolder): the folder goes whole, what is in it with it, and the base rows follow only
 * once the move is done.
 */
import { lstat, mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Action } from '../../main/sync/actions.js';
import { executePlan } from '../../main/sync/executor/execute-plan.js';
import { caseInsensitiveDisk } from '../helpers/disk.js';
import { putAsset, executorWorld, writeLocal, type Harness } from './executor-fixture.js';

const world = executorWorld();
let h: Harness;

const renameOnDisk = (from: string, to: string, folderId = 'folder-1'): Action => ({
  kind: 'move-local',
  item: 'folder',
  from,
  to,
  folderId,
  reason: 'test',
});

describe('a folder renamed on disk', () => {
  it('is renamed in place: what is in it keeps its inodes, its base row and id take the new spelling', async () => {
    h = await world.setUp();
    await writeLocal(h.root, 'Brand/guide.pdf', 'guide');
    await writeLocal(h.root, 'Brand/Logos/logo.svg', '<svg/>');
    const inodes = await Promise.all(['Brand', 'Brand/guide.pdf', 'Brand/Logos/logo.svg'].map(async (p) => (await lstat(path.join(h.root, p))).ino));
    h.index.base.putFolder(h.ws, { path: 'Brand', folderId: 'folder-1' });

    const result = await executePlan([renameOnDisk('Brand', 'brand')], h.deps);

    expect(result).toMatchObject({ moved: 1, failed: [] });
    expect(await readdir(h.root)).toEqual(['brand']);
    expect(await Promise.all(['brand', 'brand/guide.pdf', 'brand/Logos/logo.svg'].map(async (p) => (await lstat(path.join(h.root, p))).ino))).toEqual(inodes);
    expect(await readFile(path.join(h.root, 'brand/Logos/logo.svg'), 'utf8')).toBe('<svg/>');
    expect(h.index.base.getFolder(h.ws, 'brand')).toEqual({ path: 'brand', folderId: 'folder-1', inode: inodes[0] });
    expect(h.deps.folderIds.get('brand')).toBe('folder-1');
    expect(h.suppressed).toEqual(expect.arrayContaining(['Brand', 'brand']));
    expect(h.activity.map((a) => a.message)).toContain('Renamed the folder Brand to brand');
  });

  it.skipIf(caseInsensitiveDisk)('is never renamed onto another folder (a case-sensitive disk holding both spellings)', async () => {
    h = await world.setUp();
    await writeLocal(h.root, 'Brand/mine.txt', 'mine');
    await writeLocal(h.root, 'brand/theirs.txt', 'theirs');
    h.index.base.putFolder(h.ws, { path: 'Brand', folderId: 'folder-1' });

    const result = await executePlan([renameOnDisk('Brand', 'brand')], h.deps);

    expect(result.failed.map((f) => [f.path, (f.error as { code?: string }).code])).toEqual([['brand', 'target_exists']]);
    expect((await readdir(h.root)).sort()).toEqual(['Brand', 'brand']);
    expect(await readdir(path.join(h.root, 'brand'))).toEqual(['theirs.txt']);
    expect(h.index.base.getFolder(h.ws, 'Brand')?.path).toBe('Brand');
  });

  it('moves a folder with everything in it; the rows, cache entries and ids below it follow', async () => {
    h = await world.setUp();
    await writeLocal(h.root, 'Brand/guide.pdf', 'guide');
    await writeLocal(h.root, 'Brand/Logos/logo.svg', '<svg/>');
    await mkdir(path.join(h.root, 'Archive'));
    const inode = (await lstat(path.join(h.root, 'Brand'))).ino;
    h.index.base.putFolder(h.ws, { path: 'Brand', folderId: 'folder-1' });
    h.index.base.putFolder(h.ws, { path: 'Brand/Logos', folderId: 'folder-2' });
    const row = { assetId: 'a1', versionId: 'v1', checksum: 'c'.repeat(64), size: 6, mtimeNs: '1', inode: 1 };
    h.index.base.putFile(h.ws, { path: 'Brand/Logos/logo.svg', ...row });
    const cache = h.index.hashCache(h.ws);
    cache.put('brand/logos/logo.svg', { size: 6, mtimeNs: '1', inode: 1, checksum: row.checksum });
    h.deps.folderIds.set('brand/logos', 'folder-2');

    const result = await executePlan([renameOnDisk('Brand', 'Archive/Brand 2026')], h.deps);

    expect(result).toMatchObject({ moved: 1, failed: [] });
    expect(await readdir(h.root)).toEqual(['Archive']);
    expect((await lstat(path.join(h.root, 'Archive/Brand 2026'))).ino).toBe(inode);
    expect(await readFile(path.join(h.root, 'Archive/Brand 2026/Logos/logo.svg'), 'utf8')).toBe('<svg/>');
    const base = h.index.base.load(h.ws);
    expect([...base.folders.values()].sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: 'Archive/Brand 2026', folderId: 'folder-1' },
      { path: 'Archive/Brand 2026/Logos', folderId: 'folder-2' },
    ]);
    expect([...base.files.values()]).toEqual([{ path: 'Archive/Brand 2026/Logos/logo.svg', ...row }]);
    expect(cache.get('brand/logos/logo.svg')).toBeUndefined();
    expect(cache.get('archive/brand 2026/logos/logo.svg')?.checksum).toBe(row.checksum);
    expect(h.deps.folderIds.get('archive/brand 2026/logos')).toBe('folder-2');
    expect(h.deps.folderIds.has('brand/logos')).toBe(false);
    expect(h.activity.map((a) => a.message)).toContain('Moved the folder Brand to Archive/Brand 2026');
  });

  it('never moves a folder onto another one, even an empty one (rename(2) would replace it)', async () => {
    h = await world.setUp();
    await writeLocal(h.root, 'Brand/guide.pdf', 'guide');
    await mkdir(path.join(h.root, 'Other'));

    const result = await executePlan([renameOnDisk('Brand', 'Other')], h.deps);

    expect(result.failed.map((f) => [f.path, (f.error as { code?: string }).code])).toEqual([['Other', 'target_exists']]);
    expect((await readdir(h.root)).sort()).toEqual(['Brand', 'Other']);
  });

  it('renames a folder only, never a file by that name', async () => {
    h = await world.setUp();
    await writeLocal(h.root, 'Brand', 'a file');

    const result = await executePlan([renameOnDisk('Brand', 'brand')], h.deps);

    expect(result.failed.map((f) => f.path)).toEqual(['brand']);
    expect(await readdir(h.root)).toEqual(['Brand']);
  });

  it.runIf(caseInsensitiveDisk)('takes on a case-insensitive disk, for a folder and for a file', async () => {
    h = await world.setUp();
    await writeLocal(h.root, 'Brand/Guide.pdf', 'guide');
    const inode = (await lstat(path.join(h.root, 'Brand/Guide.pdf'))).ino;

    const result = await executePlan(
      [renameOnDisk('Brand', 'brand'), { kind: 'move-local', from: 'brand/Guide.pdf', to: 'brand/guide.pdf', basePath: null, reason: 'test' }],
      h.deps,
    );

    expect(result).toMatchObject({ moved: 2, failed: [] });
    expect(await readdir(h.root)).toEqual(['brand']);
    expect(await readdir(path.join(h.root, 'brand'))).toEqual(['guide.pdf']);
    expect((await lstat(path.join(h.root, 'brand/guide.pdf'))).ino).toBe(inode);
  });
});

describe('a folder renamed on the service', () => {
  it('is renamed by its id, its parent and content unchanged; its base row takes the new spelling', async () => {
    h = await world.setUp();
    // The demo's "Brand" and "Brand/Logos".
    const brand = { id: h.demo.folderIds.Brand as string };
    const logos = { id: h.demo.folderIds['Brand/Logos'] as string };
    const asset = await putAsset(h.client, h.ws, { name: 'logo-test.svg', bytes: Buffer.from('<svg/>'), folderId: logos.id });
    const foldersBefore = (await h.client.getHierarchy(h.ws)).folders.filter((f) => f.isActive).length;
    h.index.base.putFolder(h.ws, { path: 'Brand', folderId: brand.id });
    h.index.base.putFolder(h.ws, { path: 'Brand/Logos', folderId: logos.id });

    const result = await executePlan(
      [
        { kind: 'move-remote', item: 'folder', from: 'Brand', to: 'brand', folderId: brand.id, reason: 'test' },
        { kind: 'move-remote', item: 'folder', from: 'brand/Logos', to: 'brand/logos', folderId: logos.id, reason: 'test' },
      ],
      h.deps,
    );

    expect(result).toMatchObject({ moved: 2, failed: [] });
    const listing = await h.client.getHierarchy(h.ws);
    expect(listing.folders.filter((f) => f.isActive).map((f) => [f.id, f.name, f.parent_id ?? null])).toEqual(
      expect.arrayContaining([
        [brand.id, 'brand', null],
        [logos.id, 'logos', brand.id],
      ]),
    );
    expect(listing.folders.filter((f) => f.isActive)).toHaveLength(foldersBefore);
    expect(await h.client.getAsset(h.ws, asset.id)).toMatchObject({ folder_id: logos.id, current_version_id: asset.current_version_id });
    expect(h.index.base.getFolder(h.ws, 'brand')).toEqual({ path: 'brand', folderId: brand.id });
    expect(h.index.base.getFolder(h.ws, 'brand/logos')).toEqual({ path: 'brand/logos', folderId: logos.id });
  });

  it('keeps the old spelling in the base when the rename fails (a rename recorded but not done would read as one the other way)', async () => {
    h = await world.setUp();
    const gone = await h.client.createFolder(h.ws, { name: 'Gone', parent_id: null });
    h.index.base.putFolder(h.ws, { path: 'Gone', folderId: gone.id });
    await h.colleague.deleteFolder(h.ws, gone.id);

    const result = await executePlan([{ kind: 'move-remote', item: 'folder', from: 'Gone', to: 'gone', folderId: gone.id, reason: 'test' }], h.deps);

    expect(result.failed.map((f) => f.path)).toEqual(['gone']);
    expect(h.index.base.getFolder(h.ws, 'gone')).toEqual({ path: 'Gone', folderId: gone.id });
  });
});
