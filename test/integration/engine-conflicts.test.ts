/**
 * Both sides changing one file, and someone else's lock: the remote version keeps the path, the
 * local edit survives as a conflicted copy, equal edits are no conflict, a locked asset waits.
 */
import { rename, unlink } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { SyncReport } from '../../shared/engine.js';
import { faults, idle, localChecksums, remoteChecksums, checksumOf, worlds } from '../helpers/engine.js';

const world = worlds();

describe('conflict', () => {
  it('keeps the remote version at the path and uploads the local edit as a conflicted copy', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const path = 'Campaigns/Spring/brief.md';
    const entry = await w.user.assetAt(path);
    const versionsBefore = await w.user.versions(entry.assetId);

    await w.colleague.newVersion(entry.assetId, 'brief, the colleague\'s edit\n');
    await laptop.write(path, 'brief, the laptop\'s edit\n');
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect(report.workspaces[0]?.conflicts).toBe(1);
    // The service's version stays at the path, on disk and on the service.
    expect((await laptop.read(path)).toString()).toBe('brief, the colleague\'s edit\n');
    expect(await w.user.versions(entry.assetId)).toHaveLength(versionsBefore.length + 1);
    expect((await w.user.assetAt(path)).checksum).toBe(checksumOf('brief, the colleague\'s edit\n'));

    // The local edit is beside it, named after the device and the time, and uploaded as a new asset.
    const local = await localChecksums(laptop.dir);
    const copies = local.filter(([p]) => /^Campaigns\/Spring\/brief \(conflicted copy laptop \d{4}-\d{2}-\d{2} \d{6}\)\.md$/.test(p));
    expect(copies).toHaveLength(1);
    const [copyPath, copySum] = copies[0] as [string, string];
    expect(copySum).toBe(checksumOf('brief, the laptop\'s edit\n'));
    const copy = await w.user.assetAt(copyPath);
    expect(copy.checksum).toBe(copySum);
    expect(await w.user.versions(copy.assetId)).toHaveLength(1);

    expect(await remoteChecksums(w.user.client, w.workspaceId)).toEqual(local);
    expect(idle(await laptop.sync())).toBe(true);
  });

  it('sees no conflict when both sides made the same edit, and makes no version', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const path = 'Campaigns/Spring/brief.md';
    const entry = await w.user.assetAt(path);
    const versionsBefore = await w.user.versions(entry.assetId);

    await w.colleague.newVersion(entry.assetId, 'the same fix on both sides\n');
    await laptop.write(path, 'the same fix on both sides\n');
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect(report.workspaces[0]?.conflicts).toBe(0);
    expect(report.workspaces[0]?.uploaded).toBe(0);
    expect(await w.user.versions(entry.assetId)).toHaveLength(versionsBefore.length + 1);
    expect((await localChecksums(laptop.dir)).some(([p]) => p.includes('conflicted copy'))).toBe(false);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(idle(await laptop.sync())).toBe(true);
  });

  it('between two devices editing the same file: the first one up wins the path, the other keeps a copy', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    const desktop = await w.device('desktop');
    await laptop.sync();
    await desktop.sync();
    const path = 'Docs/asset-naming.md';
    const entry = await w.user.assetAt(path);
    const versionsBefore = await w.user.versions(entry.assetId);

    await laptop.write(path, 'laptop wording\n');
    await desktop.write(path, 'desktop wording\n');
    await laptop.sync();
    await desktop.sync();
    await laptop.sync();

    const versions = await w.user.versions(entry.assetId);
    expect(versions).toHaveLength(versionsBefore.length + 1);
    expect(versions[0]?.commit_parent_id).toBe(entry.versionId);
    expect((await desktop.read(path)).toString()).toBe('laptop wording\n');
    const laptopFiles = await localChecksums(laptop.dir);
    expect(laptopFiles).toEqual(await localChecksums(desktop.dir));
    expect(laptopFiles).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(laptopFiles.filter(([p]) => p.startsWith('Docs/asset-naming (conflicted copy desktop ')).map(([, sum]) => sum)).toEqual([checksumOf('desktop wording\n')]);
  });
});

describe('a conflict left for the user', () => {
  it('stays listed while the conflicted copy is on disk, without failing later syncs, and goes once the copy does', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const path = 'Docs/asset-naming.md';
    const entry = await w.user.assetAt(path);
    await laptop.write(path, 'laptop wording\n');
    await w.colleague.newVersion(entry.assetId, 'colleague wording\n');

    const first = await laptop.sync();
    expect(first.ok).toBe(true);
    expect(first.workspaces[0]?.conflicts).toBe(1);
    const copy = (await localChecksums(laptop.dir)).map(([p]) => p).find((p) => p.startsWith('Docs/asset-naming (conflicted copy laptop '));
    expect(copy).toBeDefined();
    const conflictOf = (report: SyncReport) => report.workspaces.flatMap((ws) => ws.problems).find((p) => p.kind === 'conflict');

    // Later syncs still name it (the app lists it), but have nothing left to fix themselves.
    const later = await laptop.sync();
    expect(later.ok).toBe(true);
    expect(conflictOf(later)?.path).toBe(path);
    expect(conflictOf(later)?.message).toContain(copy as string);
    expect(laptop.engine.status().workspaces[0]?.problems.some((p) => p.kind === 'conflict')).toBe(true);

    await unlink(laptop.path(copy as string));
    const resolved = await laptop.sync();
    expect(resolved.ok).toBe(true);
    expect(conflictOf(resolved)).toBeUndefined();
    expect(laptop.engine.status().workspaces[0]?.problems).toEqual([]);
  });
});

describe('lock held by someone else', () => {
  it('holds a local edit back with a "locked" problem, and uploads it once the lock is released', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const path = 'Brand/brand-guidelines.pdf';
    const entry = await w.user.assetAt(path);
    const versionsBefore = await w.user.versions(entry.assetId);

    await w.colleague.client.updateAsset(w.workspaceId, entry.assetId, { locked: true });
    await laptop.write(path, 'guidelines v-next');
    const lines: string[] = [];
    laptop.engine.on('activity', (a) => {
      // A file just written is first waited for ('waiting'); the lock is what this is about.
      if (a.path === path && a.kind !== 'waiting') lines.push(a.kind);
    });
    const blocked = await laptop.sync();
    // Said once in the activity, however many times the sync looks at it again.
    await laptop.sync();
    expect(lines).toEqual(['locked']);

    expect(blocked.ok).toBe(false);
    expect(blocked.workspaces[0]?.problems).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'locked', path })]));
    expect(await w.user.versions(entry.assetId)).toEqual(versionsBefore);
    const status = laptop.engine.status();
    expect(status.state).toBe('attention');
    expect(status.workspaces[0]?.problems.map((p) => p.kind)).toContain('locked');
    // The edit is kept as it is.
    expect((await laptop.read(path)).toString()).toBe('guidelines v-next');

    await w.colleague.client.updateAsset(w.workspaceId, entry.assetId, { locked: false });
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    const versions = await w.user.versions(entry.assetId);
    expect(versions).toHaveLength(versionsBefore.length + 1);
    expect(versions[0]?.commit_parent_id).toBe(entry.versionId);
    expect(versions[0]?.checksum).toBe(checksumOf('guidelines v-next'));
    expect(laptop.engine.status().workspaces[0]?.problems).toEqual([]);
    expect(laptop.engine.status().state).toBe('up-to-date');
  });

  it('holds a local rename back with a "locked" problem, and renames it once the lock is released', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const path = 'Brand/brand-guidelines.pdf';
    const renamed = 'Brand/brand-guidelines-2027.pdf';
    const entry = await w.user.assetAt(path);

    await w.colleague.client.updateAsset(w.workspaceId, entry.assetId, { locked: true });
    await rename(laptop.path(path), laptop.path(renamed));
    const blocked = await laptop.sync();

    expect(blocked.workspaces[0]?.problems).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'locked' })]));
    expect((await w.user.client.getAsset(w.workspaceId, entry.assetId)).file_name).toBe('brand-guidelines.pdf');
    expect(await laptop.exists(renamed)).toBe(true);

    await w.colleague.client.updateAsset(w.workspaceId, entry.assetId, { locked: false });
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect((await w.user.assetAt(renamed)).assetId).toBe(entry.assetId);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
  });

  it('names the holder of the lock in the problem and the activity, for an edit and a rename', async () => {
    const w = await world();
    // The edit is planned at once, beside the rename (not held back as still being written).
    const laptop = await w.device('laptop', { quietMs: 0 });
    await laptop.sync();
    const edited = 'Brand/brand-guidelines.pdf';
    const moved = 'Campaigns/Spring/brief.md';
    const renamed = 'Campaigns/Spring/brief-final.md';
    for (const path of [edited, moved]) await w.colleague.client.updateAsset(w.workspaceId, (await w.user.assetAt(path)).assetId, { locked: true });
    await laptop.write(edited, 'guidelines v-next');
    await rename(laptop.path(moved), laptop.path(renamed));
    const lines: string[] = [];
    laptop.engine.on('activity', (a) => {
      if (a.kind === 'locked') lines.push(a.message);
    });

    const blocked = await laptop.sync();

    const locked = (blocked.workspaces[0]?.problems ?? []).filter((p) => p.kind === 'locked');
    expect(locked.map((p) => [p.path, p.message]).sort()).toEqual([
      [edited, `"${edited}" is locked by Rafael Reviewer: your edit waits to be uploaded`],
      [renamed, `"${moved}" is locked by Rafael Reviewer: it was not renamed to "${renamed}" on the service`],
    ]);
    expect(lines).toEqual([`${edited} is locked by Rafael Reviewer: your edit waits to be uploaded`]);
    expect(laptop.engine.status().workspaces[0]?.problems.filter((p) => p.kind === 'locked').every((p) => p.message.includes('Rafael Reviewer'))).toBe(true);
  });

  it('a sync --once beside a lock still waits for a file being saved, and uploads it', async () => {
    const w = await world();
    // The quiet period of the app: a file saved less than that ago waits.
    const laptop = await w.device('laptop', { quietMs: 1500 });
    await laptop.sync();
    const moved = 'Campaigns/Spring/brief.md';
    await w.colleague.client.updateAsset(w.workspaceId, (await w.user.assetAt(moved)).assetId, { locked: true });
    await rename(laptop.path(moved), laptop.path('Campaigns/Spring/brief-final.md'));
    await laptop.write('Docs/just-saved.txt', 'saved a moment ago');

    const report = await laptop.sync();

    expect(report.workspaces[0]?.problems.map((p) => p.kind)).toEqual(['locked']);
    expect((await w.user.assetAt('Docs/just-saved.txt')).checksum).toBe(checksumOf('saved a moment ago'));
  });

  it('names the holder by user id when the service cannot list the workspace members', async () => {
    const w = await world({ service: { faults: faults({ routes: [{ method: 'GET', path: '/workspaces/members', answer: 403 }] }) } });
    const laptop = await w.device('laptop');
    await laptop.sync();
    const path = 'Brand/brand-guidelines.pdf';
    const entry = await w.user.assetAt(path);
    await w.colleague.client.updateAsset(w.workspaceId, entry.assetId, { locked: true });
    const holder = (await w.user.client.getAsset(w.workspaceId, entry.assetId)).locked_by_user_id;
    await laptop.write(path, 'guidelines v-next');

    const blocked = await laptop.sync();

    expect(holder).toBeTruthy();
    expect(blocked.workspaces[0]?.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'locked', path, message: `"${path}" is locked by user ${holder}: your edit waits to be uploaded` })]),
    );
  });

  it('still downloads what the lock holder commits', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const path = 'Brand/brand-guidelines.pdf';
    const entry = await w.user.assetAt(path);

    await w.colleague.client.updateAsset(w.workspaceId, entry.assetId, { locked: true });
    await w.colleague.newVersion(entry.assetId, 'guidelines by the lock holder');
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect((await laptop.read(path)).toString()).toBe('guidelines by the lock holder');
  });
});
