/**
 * A conflict the user resolves by looking (main/sync/executor/conflict-choice.ts), on two devices against the
 * real service: keep mine makes the copy's bytes the new version of the file, committed on the
 * version the user saw; keep theirs and keep both leave one file or two. Whatever fails on the
 * way leaves both files as they were. A conflict that waits is never "up to date".
 */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/engine.js';
import { ConflictNotFoundError, CopyChangingError } from '../../main/sync/executor/conflict-choice.js';
import { ServiceError } from '../../main/service-client/index.js';
import { bytesFor, faults, injector, localChecksums, remoteChecksums, sha256, trashedChecksums, worlds, type Device, type World } from '../helpers/engine.js';
import { runRng } from '../helpers/run-seed.js';

const world = worlds();
const rng = runRng('CONFLICT_RESOLUTION_SEED');
const PATH = 'Docs/asset-naming.md';

/** Edits of a size drawn for this run: small ones go up in one piece, large ones journalled. */
const edit = (who: string): Buffer => bytesFor(`${rng.seed}:${who}`, rng.pick([7, 4096, 300_000, 1_100_000]));

interface Conflicted {
  w: World;
  laptop: Device;
  copyPath: string;
  mine: Buffer;
  theirs: Buffer;
  assetId: string;
  theirsVersionId: string;
}

/** The laptop's edit and the colleague's new version of one file meet: the laptop keeps a copy. */
async function conflicted(options: Parameters<typeof world>[0] = {}): Promise<Conflicted> {
  const w = await world(options);
  const laptop = await w.device('laptop');
  await laptop.sync();
  const { assetId } = await w.user.assetAt(PATH);
  const mine = edit('laptop');
  const theirs = edit('colleague');
  await laptop.write(PATH, mine);
  const theirsVersion = await w.colleague.newVersion(assetId, theirs);
  const report = await laptop.sync();
  expect(report.workspaces[0]?.conflicts).toBe(1);
  const copyPath = [...(await localChecksums(laptop.dir)).map(([p]) => p)].find((p) => p.startsWith('Docs/asset-naming (conflicted copy laptop '));
  if (copyPath === undefined) throw new Error('no conflicted copy was made');
  return { w, laptop, copyPath, mine, theirs, assetId, theirsVersionId: theirsVersion.id };
}

const conflictsOf = (device: Device): Problem[] => device.engine.status().workspaces.flatMap((ws) => ws.problems).filter((p) => p.kind === 'conflict');

describe('a conflict waiting for the user', () => {
  it('makes the state "needs attention", never "up to date", until it is resolved', async () => {
    const { laptop, copyPath } = await conflicted();
    await laptop.sync();
    expect(laptop.engine.status().state).toBe('attention');
    expect(conflictsOf(laptop).map((p) => p.path)).toEqual([PATH]);

    await laptop.engine.resolveConflict(laptop.engine.status().workspaces[0]?.workspaceId ?? '', copyPath, 'both');
    await laptop.sync();
    expect(conflictsOf(laptop)).toEqual([]);
    expect(laptop.engine.status().state).toBe('up-to-date');
  });
});

describe('keep mine', () => {
  it("commits the copy's bytes on the version the user saw, trashes the copy, and both devices end with mine", async () => {
    const { w, laptop, copyPath, mine, assetId, theirsVersionId } = await conflicted();
    const desktop = await w.device('desktop');
    await desktop.sync();
    const copyAsset = await w.user.assetAt(copyPath);

    const resolved = await laptop.engine.resolveConflict(w.workspaceId, copyPath, 'mine', theirsVersionId);

    const versions = await w.user.versions(assetId);
    expect(versions[0]).toMatchObject({ id: resolved.version?.id, checksum: sha256(mine), commit_parent_id: theirsVersionId });
    expect(await laptop.exists(copyPath)).toBe(false);
    expect(await trashedChecksums()).toContain(sha256(mine));
    await laptop.converge();
    expect(sha256(await laptop.read(PATH))).toBe(sha256(mine));
    expect(conflictsOf(laptop)).toEqual([]);
    expect(laptop.engine.status().state).toBe('up-to-date');
    // The copy's own asset leaves the service softly (restorable), as any file deleted here does.
    expect((await w.user.hierarchy(true)).assets.find((a) => a.id === copyAsset.assetId)?.isActive).toBe(false);

    await desktop.converge();
    expect(sha256(await desktop.read(PATH))).toBe(sha256(mine));
    expect(await localChecksums(desktop.dir)).toEqual(await localChecksums(laptop.dir));
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
  });

  it('refuses when the service has a newer version than the one the user saw, and leaves both files', async () => {
    const { w, laptop, copyPath, mine, theirs, assetId, theirsVersionId } = await conflicted();
    const newer = edit('colleague, later');
    await w.colleague.newVersion(assetId, newer);

    const refused = await laptop.engine.resolveConflict(w.workspaceId, copyPath, 'mine', theirsVersionId).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ServiceError);
    expect((refused as ServiceError).code).toBe('version_conflict');
    await expectBothKept(laptop, copyPath, mine, theirs);
    expect((await w.user.assetAt(PATH)).checksum).toBe(sha256(newer));
  });

  it('leaves both files when the commit fails', async () => {
    const { w, laptop, copyPath, mine, theirs, assetId } = await conflicted({ service: { faults: faults({}) } });
    injector(w).setRoutes([{ method: 'POST', path: `/workspaces/assets/${assetId}/versions`, answer: 500 }]);

    await expect(laptop.engine.resolveConflict(w.workspaceId, copyPath, 'mine')).rejects.toBeInstanceOf(ServiceError);
    await expectBothKept(laptop, copyPath, mine, theirs);
    expect((await w.user.assetAt(PATH)).checksum).toBe(sha256(theirs));

    // Once the service takes it, the same choice goes through.
    injector(w).setRoutes([]);
    await laptop.engine.resolveConflict(w.workspaceId, copyPath, 'mine');
    expect((await w.user.assetAt(PATH)).checksum).toBe(sha256(mine));
  });

  it('keeps the copy when it is written while its bytes go up', async () => {
    const { w, laptop, copyPath, mine, theirs, assetId } = await conflicted({ service: { faults: faults({}) } });
    const later = edit('laptop, still editing');
    injector(w).setRoutes([
      { method: 'POST', path: `/workspaces/assets/${assetId}/versions`, answer: 'pass', times: 1, before: () => writeFile(laptop.path(copyPath), later) },
    ]);

    const refused = await laptop.engine.resolveConflict(w.workspaceId, copyPath, 'mine').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CopyChangingError);
    // The bytes read are the version; the bytes written since stay in the copy, which is still open.
    expect((await w.user.assetAt(PATH)).checksum).toBe(sha256(mine));
    expect(sha256(await laptop.read(copyPath))).toBe(sha256(later));
    expect(sha256(await laptop.read(PATH))).toBe(sha256(theirs));
    expect(conflictsOf(laptop).map((p) => p.path)).toEqual([PATH]);
  });

  it('is not offered twice: a resolved conflict is gone', async () => {
    const { w, laptop, copyPath } = await conflicted();
    await laptop.engine.resolveConflict(w.workspaceId, copyPath, 'mine');
    await expect(laptop.engine.resolveConflict(w.workspaceId, copyPath, 'mine')).rejects.toBeInstanceOf(ConflictNotFoundError);
  });
});

describe('keep theirs and keep both', () => {
  it("keep theirs trashes the copy and its asset, and leaves the service's version", async () => {
    const { w, laptop, copyPath, mine, theirs } = await conflicted();
    const copyAsset = await w.user.assetAt(copyPath);
    await laptop.engine.resolveConflict(w.workspaceId, copyPath, 'theirs');

    expect(await laptop.exists(copyPath)).toBe(false);
    expect(await trashedChecksums()).toContain(sha256(mine));
    await laptop.converge();
    expect(sha256(await laptop.read(PATH))).toBe(sha256(theirs));
    expect((await w.user.assetAt(PATH)).checksum).toBe(sha256(theirs));
    expect((await w.user.hierarchy(true)).assets.find((a) => a.id === copyAsset.assetId)?.isActive).toBe(false);
    expect(conflictsOf(laptop)).toEqual([]);
  });

  it('keep both leaves both files synced and stops reporting the conflict', async () => {
    const { w, laptop, copyPath, mine, theirs } = await conflicted();
    await laptop.engine.resolveConflict(w.workspaceId, copyPath, 'both');
    await laptop.converge();
    await expectBothKept(laptop, copyPath, mine, theirs, { open: false });
    expect((await w.user.assetAt(copyPath)).checksum).toBe(sha256(mine));
  });
});

async function expectBothKept(device: Device, copyPath: string, mine: Buffer, theirs: Buffer, options: { open?: boolean } = {}): Promise<void> {
  expect(sha256(await device.read(copyPath))).toBe(sha256(mine));
  expect(sha256(await device.read(PATH))).toBe(sha256(theirs));
  expect(conflictsOf(device).map((p) => p.path)).toEqual(options.open === false ? [] : [PATH]);
}
