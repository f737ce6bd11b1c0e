/**
 * Renames and moves both ways: the same asset follows a local rename (no upload), and a file
 * follows a rename or move on the service (no download).
 */
import { mkdir, rename, stat } from 'node:fs/promises';
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

    await w.colleague.client.updateFolder(w.workspaceId, w.demo.folderIds['Campaigns/Spring/Social'] as string, { name: 'Social media', parent_id: w.demo.folderIds.Campaigns ?? null });
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect(report.workspaces[0]?.downloaded).toBe(0);
    expect(await laptop.exists('Campaigns/Spring/Social')).toBe(false);
    expect(await laptop.exists('Campaigns/Social media/hero.psd')).toBe(true);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);
  });
});
