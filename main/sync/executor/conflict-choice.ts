/**
 * What the user decides about a conflict once they have looked at both sides: keep mine, keep
 * theirs, or keep both. A conflict left by a sync is two files: the service's version at the
 * file's name, and the local edit beside it as a conflicted copy (uploaded as an asset of its
 * own). Each choice leaves one of them, and no bytes are lost on the way:
 *
 * - mine: the copy's bytes become the new version of the original asset, committed on the
 *   version the user saw as theirs; only once the service holds exactly those bytes does the
 *   copy go to the trash. The next sync brings the new version to the file's name, and removes
 *   the copy's own asset on the service (softly: it can be restored there).
 * - theirs: the copy goes to the trash; its asset on the service goes with the next sync.
 * - both: the copy stays a file of its own, and the conflict is no longer reported.
 *
 * Any failure leaves both files where they are and the conflict open.
 */
import type { AssetVersion } from '../../service-client/index.js';
import { hashFile } from '../../local/hash.js';
import { pathKey } from '../../local/paths.js';
import { readStamp, sameStamp, type FileStamp } from '../../local/stamp.js';
import { conflictDetails, isServiceError } from '../../service-client/index.js';
import { commitFileAsVersion } from '../commit-version.js';
import { recordActivity, signalOpt, type ExecutorDeps } from './context.js';
import { writablePath } from './disk.js';
import { isMissing } from './failures.js';
import { forgetConflict, keepBoth, openConflicts, type OpenConflict } from './open-conflicts.js';
import { trashIfUnchanged } from './guarded-trash.js';
import type { Trashed } from './trash.js';
import { nameOf } from '../rel-path.js';

export type KeepSide = 'mine' | 'theirs' | 'both';

export interface ConflictResolution {
  keep: KeepSide;
  /** The file both sides changed. */
  path: string;
  copyPath: string;
  /** Keep mine: the version the copy's bytes became. */
  version: { id: string; number: number } | null;
  /** Keep mine and keep theirs: where the copy went. */
  trashed: Trashed | null;
}

/** There is no open conflict with that copy (resolved already, or the copy is gone). */
export class ConflictNotFoundError extends Error {
  constructor(readonly copyPath: string) {
    super(`there is no open conflict whose copy is "${copyPath}"`);
    this.name = 'ConflictNotFoundError';
  }
}

/** The copy was being written while it was read or uploaded: nothing was removed. */
export class CopyChangingError extends Error {
  constructor(
    readonly copyPath: string,
    /** The version already committed from the bytes read, if it came to that. */
    readonly committed: AssetVersion | null,
  ) {
    super(
      committed === null
        ? `"${copyPath}" changed while it was read: nothing was uploaded`
        : `"${copyPath}" changed after its bytes became version ${committed.version_number}: the copy was kept`,
    );
    this.name = 'CopyChangingError';
  }
}

/** The service's side of the conflict is not known here (it never synced): there is nothing to keep mine over. */
export class TheirsUnknownError extends Error {
  constructor(readonly path: string) {
    super(`the service's version of "${path}" is not known on this computer yet`);
    this.name = 'TheirsUnknownError';
  }
}

/** Open conflicts that wait for the user, by their copy. */
function findConflict(deps: Pick<ExecutorDeps, 'index' | 'workspaceId'>, copyPath: string): OpenConflict {
  const open = openConflicts(deps.index, deps.workspaceId).find((c) => pathKey(c.copyPath) === pathKey(copyPath));
  if (open === undefined) throw new ConflictNotFoundError(copyPath);
  return open;
}

/**
 * Carries out the user's choice. `theirsVersionId`: the version the user saw as theirs (default:
 * the one synced at the file's name here); keep mine is committed on it and refused if the
 * service has moved on since.
 */
export async function applyConflictChoice(deps: ExecutorDeps, copyPath: string, keep: KeepSide, theirsVersionId?: string): Promise<ConflictResolution> {
  const open = findConflict(deps, copyPath);
  const abs = await writablePath(deps, open.copyPath);
  const stamp = await readStamp(abs).catch((err: unknown) => {
    if (!isMissing(err)) throw err;
    forgetConflict(deps.index, deps.workspaceId, open.copyPath);
    throw new ConflictNotFoundError(copyPath);
  });
  const done = { keep, path: open.path, copyPath: open.copyPath };
  switch (keep) {
    case 'both':
      keepBoth(deps.index, deps.workspaceId, open.copyPath);
      recordActivity(deps, 'resolved', open.copyPath, `Kept both ${open.path} and ${open.copyPath}`);
      return { ...done, version: null, trashed: null };
    case 'theirs': {
      const trashed = await trashCopy(deps, open.copyPath, abs, stamp, null);
      forgetConflict(deps.index, deps.workspaceId, open.copyPath);
      recordActivity(deps, 'resolved', open.path, `Kept the service's version of ${open.path}; ${open.copyPath} went to the trash`);
      return { ...done, version: null, trashed };
    }
    case 'mine': {
      const version = await keepMine(deps, open, abs, stamp, theirsVersionId);
      const trashed = await trashCopy(deps, open.copyPath, abs, stamp, version);
      forgetConflict(deps.index, deps.workspaceId, open.copyPath);
      recordActivity(deps, 'resolved', open.path, `Kept your version of ${open.path} as version ${version.version_number}; ${open.copyPath} went to the trash`);
      return { ...done, version: { id: version.id, number: version.version_number }, trashed };
    }
  }
}

/** Commits the copy's bytes on theirs; answers the version that holds them. */
async function keepMine(
  deps: ExecutorDeps,
  open: OpenConflict,
  abs: string,
  stamp: Awaited<ReturnType<typeof readStamp>>,
  theirsVersionId: string | undefined,
): Promise<AssetVersion> {
  const theirs = deps.index.base.getFile(deps.workspaceId, open.path) ?? deps.index.remote.load(deps.workspaceId).files.get(pathKey(open.path));
  if (theirs === undefined) throw new TheirsUnknownError(open.path);
  const hashed = await hashFile(abs, { sizeHint: stamp.size, ...signalOpt(deps) });
  if (hashed.size !== stamp.size || !sameStamp(await readStamp(abs), stamp)) throw new CopyChangingError(open.copyPath, null);
  let version: AssetVersion;
  try {
    version = await commitFileAsVersion(
      deps.client,
      deps.workspaceId,
      theirs.assetId,
      {
        absPath: abs,
        fileName: nameOf(open.path),
        checksum: hashed.checksum,
        size: hashed.size,
        parentVersionId: theirsVersionId ?? theirs.versionId,
        description: `Kept from ${nameOf(open.copyPath)}`,
      },
      deps.signal,
    );
  } catch (err) {
    // A choice made before, whose answer was lost: the service's current version holds mine already.
    const current = conflictDetails(err);
    if (!(isServiceError(err) && err.code === 'version_conflict' && current?.checksum === hashed.checksum && current.current_version_id)) throw err;
    version = (await deps.client.listVersions(deps.workspaceId, theirs.assetId, signalOpt(deps))).find((v) => v.id === current.current_version_id) ?? failWith(err);
  }
  // What went up is what was checked: a copy written since holds bytes the service does not.
  if (!sameStamp(await readStamp(abs), stamp)) throw new CopyChangingError(open.copyPath, version);
  return version;
}

/** The copy to the trash, unless it was written since the user chose (then it stays, and the choice fails). */
async function trashCopy(deps: ExecutorDeps, copyPath: string, abs: string, stamp: FileStamp, version: AssetVersion | null): Promise<Trashed> {
  const done = await trashIfUnchanged(deps, copyPath, abs, stamp);
  if (done.kind !== 'trashed') throw new CopyChangingError(copyPath, version);
  return done.trashed;
}

function failWith(err: unknown): never {
  throw err;
}
