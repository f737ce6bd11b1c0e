/**
 * Deletions both ways and their guards: local deletes are soft on the service (and restorable),
 * remote deletes go to the trash and never take unsynced work with them, a mass deletion and a
 * missing root marker delete nothing remotely.
 */
import { unlinkSync } from 'node:fs';
import { rename, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { idle, localChecksums, remoteChecksums, sha256, trashedChecksums, worlds } from '../helpers/engine.js';
import { waitFor } from '../hardening/local-faults.js';

const world = worlds();

describe('local delete', () => {
  it('soft-deletes the asset; restored on the service, the file comes back on the next sync', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    const desktop = await w.device('desktop');
    await laptop.sync();
    await desktop.sync();
    const path = 'Docs/budget.xlsx';
    const entry = await w.user.assetAt(path);
    const bytes = await laptop.read(path);

    await unlink(laptop.path(path));
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    const deleted = await w.user.client.getAsset(w.workspaceId, entry.assetId);
    expect(deleted.isActive).toBe(false);
    await desktop.sync();
    expect(await desktop.exists(path)).toBe(false);
    expect(await trashedChecksums()).toContain(sha256(bytes));

    await w.colleague.client.restoreAsset(w.workspaceId, entry.assetId);
    await laptop.sync();
    await desktop.sync();

    expect(await laptop.read(path)).toEqual(bytes);
    expect(await desktop.read(path)).toEqual(bytes);
    expect((await w.user.assetAt(path)).assetId).toBe(entry.assetId);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
  });

  it('loses to a remote edit made meanwhile: the new version comes back, nothing is deleted', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const path = 'Campaigns/Spring/copy-deck.docx';
    const entry = await w.user.assetAt(path);

    await unlink(laptop.path(path));
    await w.colleague.newVersion(entry.assetId, 'copy deck, rewritten');
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect((await laptop.read(path)).toString()).toBe('copy deck, rewritten');
    expect((await w.user.client.getAsset(w.workspaceId, entry.assetId)).isActive).toBe(true);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
  });

  it('of a whole folder soft-deletes every asset in it and the folder', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const photos = [...(await w.user.client.getHierarchy(w.workspaceId)).assets].filter((a) => a.folder_id === w.demo.folderIds.Photography);

    await rm(laptop.path('Photography'), { recursive: true });
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    const listing = await w.user.client.getHierarchy(w.workspaceId);
    expect(listing.assets.filter((a) => photos.some((p) => p.id === a.id))).toEqual([]);
    expect(listing.folders.some((f) => f.id === w.demo.folderIds.Photography)).toBe(false);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);
  });
});

describe('remote delete', () => {
  it('moves the local file to the trash', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const path = 'Photography/studio-002.jpg';
    const entry = await w.user.assetAt(path);
    const bytes = await laptop.read(path);

    await w.colleague.client.deleteAssets(w.workspaceId, [entry.assetId]);
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect(await laptop.exists(path)).toBe(false);
    expect(await trashedChecksums()).toContain(sha256(bytes));
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
  });

  it('forgets the failure of a file that could not be downloaded: nothing is left to report', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    const path = 'Docs/voiceover.wav';
    const entry = await w.user.assetAt(path);
    // The service lost the bytes: every download of the file fails, the others go on.
    const [current] = await w.user.versions(entry.assetId);
    await rm(join(w.service.dataDir, 'blobs', current?.key ?? ''));
    const failing = await laptop.sync();
    expect(failing.workspaces[0]?.problems).toEqual([expect.objectContaining({ path })]);

    await w.colleague.client.deleteAssets(w.workspaceId, [entry.assetId]);
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect(report.workspaces[0]?.problems).toEqual([]);
    expect(laptop.engine.status().workspaces[0]?.problems).toEqual([]);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
  });

  it('never takes an unsynced local edit with it: the asset is restored, the edit its new version', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const path = 'Docs/asset-naming.md';
    const entry = await w.user.assetAt(path);
    const before = await w.user.versions(entry.assetId);

    await laptop.write(path, 'an edit the service never saw\n');
    await w.colleague.client.deleteAssets(w.workspaceId, [entry.assetId]);
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect((await laptop.read(path)).toString()).toBe('an edit the service never saw\n');
    const now = await w.user.assetAt(path);
    expect(now.assetId).toBe(entry.assetId);
    expect(now.checksum).toBe(sha256('an edit the service never saw\n'));
    const versions = await w.user.versions(entry.assetId);
    expect(versions).toHaveLength(before.length + 1);
    expect(versions[0]?.commit_parent_id).toBe(entry.versionId);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);
  });

  it('deleted for good on the service: the unsynced local edit is uploaded as a new asset', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const path = 'Docs/asset-naming.md';
    const entry = await w.user.assetAt(path);

    await laptop.write(path, 'an edit the service never saw\n');
    // By the workspace's owner: deleting for good needs an admin.
    await w.user.client.deleteAssets(w.workspaceId, [entry.assetId], { permanent: true });
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    const now = await w.user.assetAt(path);
    expect(now.checksum).toBe(sha256('an edit the service never saw\n'));
    expect(now.assetId).not.toBe(entry.assetId);
    expect(await w.user.versions(now.assetId)).toHaveLength(1);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
  });

  it('of a folder with a new local file in it keeps the file and uploads it', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();

    await laptop.write('Docs/notes-from-the-train.txt', 'written offline');
    const docs = w.demo.folderIds.Docs as string;
    await w.colleague.client.deleteFolder(w.workspaceId, docs, { recursive: true });
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect((await laptop.read('Docs/notes-from-the-train.txt')).toString()).toBe('written offline');
    expect((await w.user.assetAt('Docs/notes-from-the-train.txt')).checksum).toBe(sha256('written offline'));
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
  });
});

describe('mass-delete brake', () => {
  it('deletes nothing remotely when most local files disappear, and says why', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const before = await remoteChecksums(w.user.client, w.workspaceId);
    const files = (await localChecksums(laptop.dir)).map(([p]) => p);

    for (const path of files.slice(0, 20)) await unlink(laptop.path(path));
    const report = await laptop.sync();

    expect(report.ok).toBe(false);
    expect(report.workspaces[0]?.problems.map((p) => p.kind)).toContain('brake');
    expect(await remoteChecksums(w.user.client, w.workspaceId)).toEqual(before);
    expect(laptop.engine.status().state).toBe('attention');

    // Confirmed by the user: the deletions go through, softly.
    const confirmed = await laptop.sync({ allowMassDelete: true });
    expect(confirmed.ok).toBe(true);
    expect(await remoteChecksums(w.user.client, w.workspaceId)).toEqual(await localChecksums(laptop.dir));
    expect((await remoteChecksums(w.user.client, w.workspaceId)).length).toBe(before.length - 20);
  });
});

describe('mass-delete brake while watching', () => {
  it('holds the deletions until the user confirms them once, then guards again', async () => {
    const w = await world();
    // One burst of file events, as an `rm -rf` makes: the watcher's debounce gathers it into one cycle.
    const laptop = await w.device('laptop', { engine: { pollIntervalMs: 60_000, debounceMs: 1000 } });
    for (let i = 0; i < 40; i += 1) await laptop.write(`Batch/file-${i}.txt`, `file ${i}\n`);
    await laptop.converge();
    const before = await remoteChecksums(w.user.client, w.workspaceId);
    const files = (await localChecksums(laptop.dir)).map(([p]) => p);
    const first = files.slice(0, Math.floor(files.length * 0.6));
    await laptop.engine.start();
    const braked = (): boolean => laptop.engine.status().workspaces[0]?.problems.some((p) => p.kind === 'brake') ?? false;
    try {
      for (const path of first) unlinkSync(laptop.path(path));
      await waitFor('the brake', braked);
      expect(await remoteChecksums(w.user.client, w.workspaceId)).toEqual(before);

      laptop.engine.allowDeletionsOnce(w.workspaceId);
      await waitFor('the confirmed deletions', async () => (await remoteChecksums(w.user.client, w.workspaceId)).length === before.length - first.length);
      await waitFor('the brake lifted', () => !braked());

      // The confirmation was for those files only: the next mass deletion is held again.
      const left = (await localChecksums(laptop.dir)).map(([p]) => p);
      for (const path of left.slice(0, Math.ceil(left.length * 0.8))) unlinkSync(laptop.path(path));
      await waitFor('the brake again', braked);
      expect((await remoteChecksums(w.user.client, w.workspaceId)).length).toBe(before.length - first.length);
    } finally {
      await laptop.engine.stop();
    }
  });
});

describe('mass-delete brake across bursts', () => {
  it('brakes a deletion that reaches the watcher in two bursts, each under half of the tree', async () => {
    const w = await world();
    const laptop = await w.device('laptop', { engine: { pollIntervalMs: 60_000, debounceMs: 200 } });
    for (let i = 0; i < 40; i += 1) await laptop.write(`Batch/file-${i}.txt`, `file ${i}\n`);
    await laptop.converge();
    const before = await remoteChecksums(w.user.client, w.workspaceId);
    const files = (await localChecksums(laptop.dir)).map(([p]) => p);
    const firstBurst = files.slice(0, Math.floor(files.length * 0.4));
    const secondBurst = files.slice(firstBurst.length, firstBurst.length + Math.floor(files.length * 0.25));
    const braked = (): boolean => laptop.engine.status().workspaces[0]?.problems.some((p) => p.kind === 'brake') ?? false;
    await laptop.engine.start();
    try {
      // An `rm -rf` slower than the watcher's debounce: the first part is carried out on its own…
      for (const path of firstBurst) unlinkSync(laptop.path(path));
      await waitFor('the first burst deleted', async () => (await remoteChecksums(w.user.client, w.workspaceId)).length === before.length - firstBurst.length);
      expect(braked()).toBe(false);
      // …and the rest brings the whole past half: it is held back.
      for (const path of secondBurst) unlinkSync(laptop.path(path));
      await waitFor('the brake', braked);
      // A loaded machine may hand the watcher the first few of the burst on their own, under the
      // brake; the bulk of it is held.
      const left = (await remoteChecksums(w.user.client, w.workspaceId)).length;
      expect(left).toBeGreaterThan(before.length - firstBurst.length - secondBurst.length / 2);
    } finally {
      await laptop.engine.stop();
    }
  });
});

describe('mass-delete brake across a restart', () => {
  it('counts the deletions carried out before the restart with those after it', async () => {
    const w = await world();
    let laptop = await w.device('laptop');
    for (let i = 0; i < 40; i += 1) await laptop.write(`Batch/file-${i}.txt`, `file ${i}\n`);
    await laptop.converge();
    const before = await remoteChecksums(w.user.client, w.workspaceId);
    const files = (await localChecksums(laptop.dir)).map(([p]) => p);
    const firstPart = files.slice(0, Math.floor(files.length * 0.4));
    const secondPart = files.slice(firstPart.length, firstPart.length + Math.floor(files.length * 0.25));

    // A slow `rm -rf`: its first part is synced, under the brake…
    for (const path of firstPart) unlinkSync(laptop.path(path));
    expect((await laptop.sync()).ok).toBe(true);
    expect((await remoteChecksums(w.user.client, w.workspaceId)).length).toBe(before.length - firstPart.length);

    // …then Asset Sync restarts (an update, a crash), and the rest of the tree goes.
    await laptop.close();
    laptop = await w.device('laptop');
    for (const path of secondPart) unlinkSync(laptop.path(path));
    const report = await laptop.sync();

    // Alone, the second part is under half of what is left; with the first, over half of the tree.
    expect(report.workspaces[0]?.problems.map((p) => p.kind)).toContain('brake');
    expect((await remoteChecksums(w.user.client, w.workspaceId)).length).toBe(before.length - firstPart.length);
  });
});

describe('mass-delete brake, the other way', () => {
  it('deletes nothing locally when most assets disappear from the service at once', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const before = await localChecksums(laptop.dir);

    await w.colleague.client.deleteAssets(w.workspaceId, w.demo.assetIds.slice(0, 20));
    const report = await laptop.sync();

    expect(report.ok).toBe(false);
    expect(report.workspaces[0]?.problems.map((p) => p.kind)).toContain('brake');
    expect(await localChecksums(laptop.dir)).toEqual(before);
  });
});

describe('root marker', () => {
  it('missing from the workspace folder: nothing is deleted remotely, a "marker" problem is reported', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const before = await remoteChecksums(w.user.client, w.workspaceId);

    await unlink(laptop.path('.assetsync'));
    await unlink(laptop.path('README.txt'));
    const report = await laptop.sync();

    expect(report.ok).toBe(false);
    expect(report.workspaces[0]?.problems.map((p) => p.kind)).toContain('marker');
    expect(await remoteChecksums(w.user.client, w.workspaceId)).toEqual(before);
  });

  it('gone with the whole folder (an unmounted drive): nothing is deleted and nothing recreated', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const before = await remoteChecksums(w.user.client, w.workspaceId);

    await rename(laptop.dir, `${laptop.dir}-unmounted`);
    const report = await laptop.sync();

    expect(report.ok).toBe(false);
    expect(report.workspaces[0]?.problems.map((p) => p.kind)).toContain('marker');
    expect(await remoteChecksums(w.user.client, w.workspaceId)).toEqual(before);
    expect(await laptop.exists('')).toBe(false);

    // The drive is back: syncing goes on as before.
    await rename(`${laptop.dir}-unmounted`, laptop.dir);
    const back = await laptop.sync();
    expect(back.ok).toBe(true);
    expect(idle(back)).toBe(true);
  });
});
