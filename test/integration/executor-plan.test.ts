import { existsSync } from 'node:fs';
import { readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Action, Conflict, Download } from '../../main/sync/actions.js';
import { executePlan } from '../../main/sync/executor/execute-plan.js';
import type { LocalFile, RemoteFile } from '../../main/model/views.js';
import { SMALL_IN_FLIGHT, TransferQueue } from '../../main/sync/transfer-queue.js';
import { symlinkDisk } from '../helpers/disk.js';
import { bytesOf, putAsset, remoteFileOf, executorWorld, sha256, writeLocal, type Harness } from './executor-fixture.js';

const world = executorWorld();
let h: Harness;

const download = (remote: RemoteFile, at: string): Download => ({ kind: 'download', path: at, remote: { ...remote, path: at }, replaces: null, reason: 'test' });
const codes = (failed: Array<{ path: string; error: Error }>): Array<[string, string | undefined]> =>
  failed.map((f) => [f.path, (f.error as { code?: string }).code]);

describe('executePlan', () => {
  it('refuses action paths that leave the root, before touching the disk', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.colleague, h.ws, { name: 'x.bin', bytes: Buffer.from('payload') });
    const remote = await remoteFileOf(h.client, h.ws, asset.id, 'x.bin');
    await writeFile(path.join(h.outside, 'victim.txt'), 'not yours');
    await writeLocal(h.root, 'inside.txt', 'inside');
    const victim: LocalFile = { path: '../outside/victim.txt', size: 9, mtimeNs: '0', ctimeNs: '0', inode: 0, checksum: sha256('not yours') };
    const hostile: Action[] = [
      { kind: 'create-local-folder', path: '../outside/evil', folderId: 'f1', reason: 'test' },
      { kind: 'move-local', from: 'inside.txt', to: '../outside/moved.txt', basePath: null, reason: 'test' },
      { kind: 'delete-local', path: '../outside/victim.txt', expectedChecksum: sha256('not yours'), reason: 'test' },
      { kind: 'delete-local-folder', path: '..', reason: 'test' },
      download(remote, '../outside/dropped.bin'),
      download(remote, '/etc/dropped.bin'),
      { kind: 'upload-new', path: victim.path, local: victim, reason: 'test' },
    ];

    const result = await executePlan(hostile, h.deps);

    expect(result.done).toBe(0);
    expect(result.failed.map((f) => (f.error as { code?: string }).code)).toEqual(Array(hostile.length).fill('path_escape'));
    expect(await readdir(h.outside)).toEqual(['victim.txt']);
    expect(await readFile(path.join(h.outside, 'victim.txt'), 'utf8')).toBe('not yours');
    expect(await readFile(path.join(h.root, 'inside.txt'), 'utf8')).toBe('inside');
    expect(h.index.journal.open(h.ws)).toEqual([]);
  });

  // exFAT and FAT drives hold no symlinks, so there is nothing to escape through.
  it.runIf(symlinkDisk)('never writes through a symlink that leads out of the root', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.colleague, h.ws, { name: 'x.bin', bytes: Buffer.from('payload') });
    const remote = await remoteFileOf(h.client, h.ws, asset.id, 'x.bin');
    await symlink(h.outside, path.join(h.root, 'link'), 'dir');

    const result = await executePlan([download(remote, 'link/x.bin'), { kind: 'create-local-folder', path: 'link/sub', folderId: 'f', reason: 'test' }], h.deps);

    expect(codes(result.failed).sort()).toEqual([
      ['link/sub', 'path_escape'],
      ['link/x.bin', 'path_escape'],
    ]);
    expect(await readdir(h.outside)).toEqual([]);
  });

  it('creates the folders a download needs that are missing on disk, inside the root', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.colleague, h.ws, { name: 'x.bin', bytes: Buffer.from('payload') });
    const remote = await remoteFileOf(h.client, h.ws, asset.id, 'x.bin');
    // The folders were removed (or never made) between the plan and the download.
    const result = await executePlan([download(remote, 'Gone/Deeper/x.bin')], h.deps);

    expect(result).toMatchObject({ downloaded: 1, failed: [] });
    expect(await readFile(path.join(h.root, 'Gone', 'Deeper', 'x.bin'), 'utf8')).toBe('payload');
    expect(await readdir(h.outside)).toEqual([]);
  });

  it('goes on after a failing action, records its error with a retry time, and clears it on success', async () => {
    h = await world.setUp();
    const good = await putAsset(h.colleague, h.ws, { name: 'good.bin', bytes: bytesOf(10_000, 'good') });
    const remote = await remoteFileOf(h.client, h.ws, good.id, 'good.bin');
    const local = await writeLocal(h.root, 'mine.txt', 'mine');
    h.index.errors.record(h.ws, 'good.bin', { code: 'network_error', message: 'earlier failure' });
    const plan: Action[] = [
      download({ ...remote, assetId: 'no-such-asset' }, 'missing.bin'),
      download(remote, 'good.bin'),
      { kind: 'upload-new', path: 'mine.txt', local, reason: 'test' },
      { kind: 'move-local', from: 'not-there.txt', to: 'elsewhere.txt', basePath: null, reason: 'test' },
    ];

    const result = await executePlan(plan, h.deps);

    expect(result).toMatchObject({ done: 2, downloaded: 1, uploaded: 1 });
    expect(codes(result.failed).sort()).toEqual([
      ['elsewhere.txt', 'ENOENT'],
      ['missing.bin', 'not_found'],
    ]);
    expect(await readFile(path.join(h.root, 'good.bin'))).toEqual(bytesOf(10_000, 'good'));
    expect(h.index.errors.get(h.ws, 'good.bin')).toBeUndefined();
    const recorded = h.index.errors.get(h.ws, 'missing.bin');
    expect(recorded).toMatchObject({ code: 'not_found', attempts: 1 });
    expect(recorded?.nextRetryAt).toBeGreaterThan(recorded?.lastFailedAt ?? Infinity);
    expect(h.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'missing.bin', kind: 'error', attempts: 1, nextRetryAt: expect.any(String) })]),
    );
    expect(h.index.journal.open(h.ws)).toEqual([]);
    expect(existsSync(path.join(h.root, 'missing.bin'))).toBe(false);
  });

  it('creates folders on both sides first, then transfers into them', async () => {
    h = await world.setUp();
    const parent = await h.client.createFolder(h.ws, { name: 'Incoming', parent_id: null });
    const asset = await putAsset(h.colleague, h.ws, { name: 'a.bin', bytes: Buffer.from('aaa'), folderId: parent.id });
    const remote = await remoteFileOf(h.client, h.ws, asset.id, 'Incoming/a.bin');
    // "Taken" exists already on the service: its creation adopts it (as after a lost answer).
    const taken = await h.client.createFolder(h.ws, { name: 'Taken', parent_id: null });
    const local = await writeLocal(h.root, 'Outgoing/Deep/b.txt', 'bbb');
    const plan: Action[] = [
      { kind: 'create-local-folder', path: 'Incoming', folderId: parent.id, reason: 'test' },
      { kind: 'create-remote-folder', path: 'Outgoing', reason: 'test' },
      { kind: 'create-remote-folder', path: 'Taken', reason: 'test' },
      { kind: 'create-remote-folder', path: 'Outgoing/Deep', reason: 'test' },
      download(remote, 'Incoming/a.bin'),
      { kind: 'upload-new', path: 'Outgoing/Deep/b.txt', local, reason: 'test' },
    ];

    const result = await executePlan(plan, h.deps);

    expect(result).toMatchObject({ done: 6, failed: [] });
    expect(await readFile(path.join(h.root, 'Incoming/a.bin'), 'utf8')).toBe('aaa');
    const listing = await h.client.getHierarchy(h.ws);
    const outgoing = listing.folders.find((f) => f.name === 'Outgoing');
    const deep = listing.folders.find((f) => f.name === 'Deep');
    expect(deep?.parent_id).toBe(outgoing?.id);
    expect(listing.assets.find((a) => a.file_name === 'b.txt')?.folder_id).toBe(deep?.id);
    expect(h.deps.folderIds.get('taken')).toBe(taken.id);
    expect(h.index.base.getFolder(h.ws, 'Outgoing/Deep')?.folderId).toBe(deep?.id);
    expect(h.index.base.getFolder(h.ws, 'Incoming')?.folderId).toBe(parent.id);
  });

  it('resolves a conflict: the local edit becomes a conflicted copy, the remote keeps the name', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.colleague, h.ws, { name: 'hero.psd', bytes: Buffer.from('their edit') });
    const remote = await remoteFileOf(h.client, h.ws, asset.id, 'hero.psd');
    const local = await writeLocal(h.root, 'hero.psd', 'my edit');
    const copyPath = 'hero (conflicted copy Test-Box 2024-03-05 140709).psd';
    const conflict: Conflict = {
      kind: 'conflict',
      path: 'hero.psd',
      copyPath,
      local,
      remote,
      base: null,
      steps: [
        { kind: 'move-local', from: 'hero.psd', to: copyPath, basePath: null, reason: 'test' },
        { kind: 'upload-new', path: copyPath, local: { ...local, path: copyPath }, reason: 'test' },
        download(remote, 'hero.psd'),
      ],
      reason: 'test',
    };

    const result = await executePlan([conflict], h.deps);

    expect(result).toMatchObject({ conflicts: 1, uploaded: 1, downloaded: 1, failed: [] });
    expect(await readFile(path.join(h.root, 'hero.psd'), 'utf8')).toBe('their edit');
    expect(await readFile(path.join(h.root, copyPath), 'utf8')).toBe('my edit');
    const names = (await h.client.getHierarchy(h.ws)).assets.map((a) => a.file_name);
    expect(names).toEqual(expect.arrayContaining(['hero.psd', copyPath]));
    expect(h.problems).toEqual([expect.objectContaining({ kind: 'conflict', path: 'hero.psd' })]);
    expect(h.problems[0]?.message).toContain(copyPath);
    expect(h.index.base.getFile(h.ws, copyPath)?.checksum).toBe(local.checksum);
    expect(h.index.base.getFile(h.ws, 'hero.psd')?.assetId).toBe(asset.id);
  });

  it('stops a conflict at its first failing step', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.colleague, h.ws, { name: 'a.psd', bytes: Buffer.from('theirs') });
    const remote = await remoteFileOf(h.client, h.ws, asset.id, 'a.psd');
    const local = await writeLocal(h.root, 'a.psd', 'mine');
    await writeLocal(h.root, 'copy.psd', 'something already there');
    const conflict: Conflict = {
      kind: 'conflict',
      path: 'a.psd',
      copyPath: 'copy.psd',
      local,
      remote,
      base: null,
      steps: [
        { kind: 'move-local', from: 'a.psd', to: 'copy.psd', basePath: null, reason: 'test' },
        { kind: 'upload-new', path: 'copy.psd', local: { ...local, path: 'copy.psd' }, reason: 'test' },
        download(remote, 'a.psd'),
      ],
      reason: 'test',
    };

    const result = await executePlan([conflict], h.deps);

    expect(codes(result.failed)).toEqual([['copy.psd', 'target_exists']]);
    expect(await readFile(path.join(h.root, 'a.psd'), 'utf8')).toBe('mine');
    expect(await readFile(path.join(h.root, 'copy.psd'), 'utf8')).toBe('something already there');
  });

  it('reports locks and writes the index for bookkeeping actions', async () => {
    h = await world.setUp();
    h.index.base.putFile(h.ws, { path: 'old.txt', assetId: 'a0', versionId: 'v0', checksum: sha256('x'), size: 1, mtimeNs: '1', inode: 1 });
    h.index.base.putFolder(h.ws, { path: 'Old', folderId: 'f0' });
    const row = { path: 'same.txt', assetId: 'a1', versionId: 'v1', checksum: sha256('same'), size: 4, mtimeNs: '5', inode: 6 };

    const result = await executePlan(
      [
        { kind: 'forget-base', path: 'old.txt', reason: 'test' },
        { kind: 'forget-folder-base', path: 'Old', reason: 'test' },
        { kind: 'record-base', base: row, reason: 'test' },
        { kind: 'record-folder-base', base: { path: 'New', folderId: 'f1' }, reason: 'test' },
        { kind: 'locked', path: 'held.psd', assetId: 'a2', lockedByUserId: 'u2', blocked: 'upload-version', reason: 'test' },
      ],
      h.deps,
    );

    expect(result).toMatchObject({ done: 4, locked: 1, failed: [] });
    expect(h.index.base.getFile(h.ws, 'old.txt')).toBeUndefined();
    expect(h.index.base.getFolder(h.ws, 'Old')).toBeUndefined();
    expect(h.index.base.getFile(h.ws, 'same.txt')).toEqual(row);
    expect(h.deps.folderIds.get('new')).toBe('f1');
    expect(h.problems).toEqual([expect.objectContaining({ kind: 'locked', path: 'held.psd' })]);
  });
  it('takes a long run of downloads from the plan a few more at a time than the slots, not all at once', async () => {
    // One slot of 32 small files each way.
    const queue = new TransferQueue({ maxDownloads: 1, maxUploads: 1 });
    h = await world.setUp({ queue });
    const asset = await putAsset(h.colleague, h.ws, { name: 'a.bin', bytes: Buffer.from('aaa') });
    const remote = await remoteFileOf(h.client, h.ws, asset.id, 'a.bin');
    const files = 150;
    const plan = Array.from({ length: files }, (_, i) => download(remote, `many/f${i}.bin`));
    // Every transfer the queue was handed, waiting or running: what the plan has started.
    const started = new Set<string>();
    let most = 0;
    queue.on('progress', (t) => {
      if (t.state === 'queued' || t.state === 'active') started.add(t.id);
      else started.delete(t.id);
      most = Math.max(most, started.size);
    });

    const result = await executePlan(plan, h.deps);

    expect(result).toMatchObject({ done: files, downloaded: files, failed: [] });
    expect(await readdir(path.join(h.root, 'many'))).toHaveLength(files);
    // The slots and a few ready to take the next free one, not the whole plan.
    expect(most).toBeLessThanOrEqual(2 * SMALL_IN_FLIGHT + 8);
    // Still many at once (how many depends on how fast the first ones finish).
    expect(most).toBeGreaterThanOrEqual(SMALL_IN_FLIGHT / 2);
  });
});
