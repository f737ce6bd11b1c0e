/**
 * A file that becomes a folder of the same name, on either side: the file is deleted first
 * (to the trash locally, softly on the service), then the folder is made and filled, in one
 * sync, with nothing lost.
 */
import { mkdir, rename } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { localChecksums, remoteChecksums, sha256, trashedChecksums, worlds } from '../helpers/engine.js';

const world = worlds();

describe('a file replaced by a folder of the same name', () => {
  it('on the service: the local file goes to the trash and the folder arrives, in one sync', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await w.colleague.createFile('Specs', 'the spec, as one file');
    await laptop.sync();
    const old = await w.user.assetAt('Specs');

    await w.colleague.client.deleteAssets(w.workspaceId, [old.assetId]);
    await w.colleague.createFile('Specs/part-1.txt', 'part one');
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect(report.workspaces[0]?.failed).toBe(0);
    expect((await laptop.read('Specs/part-1.txt')).toString()).toBe('part one');
    expect(await trashedChecksums()).toContain(sha256('the spec, as one file'));
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
  });

  it('on disk: the asset is deleted softly and the folder is uploaded, in one sync', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await w.colleague.createFile('Notes', 'notes, as one file');
    await laptop.sync();
    const old = await w.user.assetAt('Notes');

    // The user keeps the old file inside the new folder, under another name.
    await mkdir(laptop.path('Notes.tmpdir'));
    await rename(laptop.path('Notes'), laptop.path('Notes.tmpdir/old-notes.txt'));
    await rename(laptop.path('Notes.tmpdir'), laptop.path('Notes'));
    await laptop.write('Notes/today.txt', 'today');
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect((await w.user.client.getAsset(w.workspaceId, old.assetId)).isActive).toBe(false);
    expect((await w.user.assetAt('Notes/today.txt')).checksum).toBe(sha256('today'));
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
  });
});
