/**
 * Renames and moves both ways: the same asset follows a local rename (no upload), and a file
 * follows a rename or move on the service (no download).
 */
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { idle, localChecksums, remoteChecksums, sha256, worlds } from '../helpers/engine.js';

const world = worlds();

describe('local rename or move', () => {
  it('renames and moves the same asset on the service, with no new version', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    const desktop = await w.device('desktop');
    await laptop.sync();
    await desktop.sync();
    const budget = await w.user.assetAt('Docs/budget.xlsx');
    const studio = await w.user.assetAt('Photography/studio-001.jpg');
    const versions = await Promise.all([w.user.versions(budget.assetId), w.user.versions(studio.assetId)]);

    await rename(laptop.path('Docs/budget.xlsx'), laptop.path('Docs/budget 2025.xlsx'));
    await mkdir(laptop.path('Brand/Shoots'));
    await rename(laptop.path('Photography/studio-001.jpg'), laptop.path('Brand/Shoots/studio-001.jpg'));
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect(report.workspaces[0]?.uploaded).toBe(0);
    expect((await w.user.assetAt('Docs/budget 2025.xlsx')).assetId).toBe(budget.assetId);
    expect((await w.user.assetAt('Brand/Shoots/studio-001.jpg')).assetId).toBe(studio.assetId);
    expect(await Promise.all([w.user.versions(budget.assetId), w.user.versions(studio.assetId)])).toEqual(versions);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);

    const received = await desktop.sync();
    expect(received.workspaces[0]?.downloaded).toBe(0);
    expect(await localChecksums(desktop.dir)).toEqual(await localChecksums(laptop.dir));
  });

  it('renames a folder on the service without re-uploading what is in it', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const assetsBefore = (await w.user.client.getHierarchy(w.workspaceId)).assets.map((a) => a.id).sort();

    await rename(laptop.path('Photography'), laptop.path('Photos'));
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect(report.workspaces[0]?.uploaded).toBe(0);
    const listing = await w.user.client.getHierarchy(w.workspaceId);
    expect(listing.assets.map((a) => a.id).sort()).toEqual(assetsBefore);
    expect(listing.folders.filter((f) => f.name === 'Photography' || f.name === 'Photos').map((f) => f.name)).toEqual(['Photos']);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
  });

  it('renames and moves a folder on the service as one folder: it keeps its id, and its assets stay in it', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    const desktop = await w.device('desktop');
    await laptop.sync();
    await desktop.sync();
    const before = await w.user.client.getHierarchy(w.workspaceId);
    const socialId = w.demo.folderIds['Campaigns/Spring/Social'] as string;
    const inSocial = before.assets.filter((a) => a.folder_id === socialId).map((a) => a.id).sort();
    expect(inSocial.length).toBeGreaterThan(0);

    await rename(laptop.path('Campaigns/Spring/Social'), laptop.path('Campaigns/Social media'));
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect(report.workspaces[0]?.uploaded).toBe(0);
    const after = await w.user.client.getHierarchy(w.workspaceId);
    const moved = after.folders.find((f) => f.id === socialId);
    expect(moved).toMatchObject({ name: 'Social media', parent_id: w.demo.folderIds.Campaigns });
    expect(after.assets.filter((a) => a.folder_id === socialId).map((a) => a.id).sort()).toEqual(inSocial);
    expect(after.folders).toHaveLength(before.folders.length);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);

    const received = await desktop.sync();
    expect(received.workspaces[0]?.downloaded).toBe(0);
    expect(await localChecksums(desktop.dir)).toEqual(await localChecksums(laptop.dir));
  });

  it('renames an empty folder on the service, keeping its id', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    await mkdir(laptop.path('Campaigns/Drafts'));
    await laptop.sync();
    const made = (await w.user.client.getHierarchy(w.workspaceId)).folders.find((f) => f.name === 'Drafts');
    expect(made).toBeDefined();

    await rename(laptop.path('Campaigns/Drafts'), laptop.path('Campaigns/Drafts 2025'));
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    const after = await w.user.client.getHierarchy(w.workspaceId);
    expect(after.folders.filter((f) => f.name.startsWith('Drafts')).map((f) => [f.id, f.name])).toEqual([[made?.id, 'Drafts 2025']]);
    expect(idle(await laptop.sync())).toBe(true);
  });

  it('renames a folder and its subfolder renamed together, each keeping its id', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const before = await w.user.client.getHierarchy(w.workspaceId);

    await rename(laptop.path('Campaigns'), laptop.path('Campaigns 2026'));
    await rename(laptop.path('Campaigns 2026/Spring'), laptop.path('Campaigns 2026/Spring launch'));
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect(report.workspaces[0]).toMatchObject({ uploaded: 0, deleted: 0, moved: 2 });
    const after = await w.user.client.getHierarchy(w.workspaceId);
    expect(after.folders.find((f) => f.id === w.demo.folderIds.Campaigns)?.name).toBe('Campaigns 2026');
    expect(after.folders.find((f) => f.id === w.demo.folderIds['Campaigns/Spring'])?.name).toBe('Spring launch');
    expect(after.assets.map((a) => `${a.id} ${a.folder_id}`).sort()).toEqual(before.assets.map((a) => `${a.id} ${a.folder_id}`).sort());
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);
  });

  it('moves a folder into a new folder made here: the new folder goes up, then the folder moves into it whole', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const before = await w.user.client.getHierarchy(w.workspaceId);

    await mkdir(laptop.path('Archive/2025'), { recursive: true });
    await rename(laptop.path('Photography'), laptop.path('Archive/2025/Photography'));
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect(report.workspaces[0]).toMatchObject({ uploaded: 0, deleted: 0, moved: 1 });
    const after = await w.user.client.getHierarchy(w.workspaceId);
    const moved = after.folders.find((f) => f.id === w.demo.folderIds.Photography);
    expect(after.folders.find((f) => f.id === moved?.parent_id)?.name).toBe('2025');
    expect(after.assets.map((a) => `${a.id} ${a.folder_id}`).sort()).toEqual(before.assets.map((a) => `${a.id} ${a.folder_id}`).sort());
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);
  });

  it('follows a case-only rename', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const readme = await w.user.assetAt('README.txt');

    await rename(laptop.path('README.txt'), laptop.path('ReadMe.txt'));
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect((await w.user.assetAt('ReadMe.txt')).assetId).toBe(readme.assetId);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);
  });
});

describe('remote rename or move', () => {
  it('moves the local file instead of downloading it again', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const entry = await w.user.assetAt('Campaigns/Spring/Social/story-01.png');
    const inode = (await stat(laptop.path('Campaigns/Spring/Social/story-01.png'))).ino;

    await w.colleague.client.updateAsset(w.workspaceId, entry.assetId, { file_name: 'story-01-final.png', folder_id: w.demo.folderIds['Campaigns/Spring/Print'] ?? null });
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect(report.workspaces[0]?.downloaded).toBe(0);
    expect(await laptop.exists('Campaigns/Spring/Social/story-01.png')).toBe(false);
    expect((await stat(laptop.path('Campaigns/Spring/Print/story-01-final.png'))).ino).toBe(inode);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);
  });

  it('moves a locally edited file along and uploads the edit as a version of the same asset', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const entry = await w.user.assetAt('Docs/budget.xlsx');

    await w.colleague.client.updateAsset(w.workspaceId, entry.assetId, { file_name: 'budget-2025.xlsx' });
    await laptop.write('Docs/budget.xlsx', 'new figures');
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect(await laptop.exists('Docs/budget.xlsx')).toBe(false);
    expect((await laptop.read('Docs/budget-2025.xlsx')).toString()).toBe('new figures');
    const versions = await w.user.versions(entry.assetId);
    expect(versions[0]?.checksum).toBe(sha256('new figures'));
    expect(versions[0]?.commit_parent_id).toBe(entry.versionId);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
  });

  it('moves a whole local folder when the folder is renamed and moved on the service', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();

    const folderInode = (await stat(laptop.path('Campaigns/Spring/Social'))).ino;
    // Not synced, but the user's: it goes where its folder goes.
    await laptop.write('Campaigns/Spring/Social/notes.tmp', 'my notes');

    await w.colleague.client.updateFolder(w.workspaceId, w.demo.folderIds['Campaigns/Spring/Social'] as string, { name: 'Social media', parent_id: w.demo.folderIds.Campaigns ?? null });
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect(report.workspaces[0]?.downloaded).toBe(0);
    expect(report.workspaces[0]?.moved).toBe(1);
    expect(await laptop.exists('Campaigns/Spring/Social')).toBe(false);
    expect(await laptop.exists('Campaigns/Social media/hero.psd')).toBe(true);
    expect((await stat(laptop.path('Campaigns/Social media'))).ino).toBe(folderInode);
    expect((await laptop.read('Campaigns/Social media/notes.tmp')).toString()).toBe('my notes');
    await rm(laptop.path('Campaigns/Social media/notes.tmp'));
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);
  });
});

describe('a folder moved differently on both sides', () => {
  it("ends where the service moved it, every file once, keeping the folder made here as it is", async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const assetsBefore = (await w.user.client.getHierarchy(w.workspaceId)).assets.map((a) => a.id).sort();
    const inside = ['hero.psd', 'story-01.png', 'story-02.webp', 'teaser.webm'];

    await rename(laptop.path('Campaigns/Spring/Social'), laptop.path('Campaigns/Social here'));
    await w.colleague.client.updateFolder(w.workspaceId, w.demo.folderIds['Campaigns/Spring/Social'] as string, { name: 'Social there', parent_id: w.demo.folderIds.Campaigns ?? null });
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect(report.workspaces[0]).toMatchObject({ downloaded: 0, uploaded: 0, deleted: 0, conflicts: 0 });
    // Nothing copied twice, nothing lost: the same assets, each in the folder the service moved.
    const listing = await w.user.client.getHierarchy(w.workspaceId);
    expect(listing.assets.map((a) => a.id).sort()).toEqual(assetsBefore);
    for (const name of inside) {
      expect(await laptop.exists(`Campaigns/Social there/${name}`)).toBe(true);
      expect(await laptop.exists(`Campaigns/Social here/${name}`)).toBe(false);
    }
    // The folder the user made stays, empty, and the service gets it too.
    expect(await laptop.exists('Campaigns/Social here')).toBe(true);
    expect(listing.folders.filter((f) => f.isActive && f.name.startsWith('Social')).map((f) => f.name).sort()).toEqual(['Social here', 'Social there']);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);
  });
});
