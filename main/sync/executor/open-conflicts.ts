/**
 * Conflicts stay on the list until the user has dealt with them, as Nextcloud keeps them among
 * its unsynced items: as long as the conflicted copy is on disk, every cycle reports it again.
 * Reported only in the cycle that made it, a conflict left the status within seconds (the next
 * cycle starts with an empty list), and the app said "Up to date" with two versions of a file
 * side by side and nothing to tell which.
 */
import type { Problem } from '../../../shared/engine.js';
import type { SyncIndex } from '../../index/sync-index.js';
import { pathKey } from '../../local/paths.js';
import { conflictsSetting, openConflicts, type OpenConflict } from '../../index/conflict-records.js';

export { openConflicts, waitingConflicts, type OpenConflict } from '../../index/conflict-records.js';

export function recordConflict(index: SyncIndex, workspaceId: string, conflict: OpenConflict): void {
  const open = openConflicts(index, workspaceId);
  index.settings.set(conflictsSetting(workspaceId), [...open.filter((c) => c.copyPath !== conflict.copyPath), conflict]);
}

/** Forgets the conflict whose copy was at `copyPath` (the copy moved on, or was never made). */
export function forgetConflict(index: SyncIndex, workspaceId: string, copyPath: string): void {
  const open = openConflicts(index, workspaceId);
  const left = open.filter((c) => pathKey(c.copyPath) !== pathKey(copyPath));
  if (left.length === open.length) return;
  if (left.length === 0) index.settings.delete(conflictsSetting(workspaceId));
  else index.settings.set(conflictsSetting(workspaceId), left);
}

/** Path key of each copy → the file it was made from: the planner's `ownCopies`. */
export function ownCopies(index: SyncIndex, workspaceId: string): Map<string, string> {
  return new Map(openConflicts(index, workspaceId).map((c) => [pathKey(c.copyPath), c.path]));
}

/** The user keeps both files: the conflict whose copy is at `copyPath` is no longer reported. */
export function keepBoth(index: SyncIndex, workspaceId: string, copyPath: string): void {
  const open = openConflicts(index, workspaceId);
  index.settings.set(conflictsSetting(workspaceId), open.map((c) => (pathKey(c.copyPath) === pathKey(copyPath) ? { ...c, kept: true } : c)));
}

/**
 * The conflicts still open after a scan, as problems; those whose copy is gone (deleted,
 * renamed or merged by the user) are forgotten.
 */
export function stillOpen(index: SyncIndex, workspaceId: string, localKeys: { has(key: string): boolean }): Problem[] {
  const open = openConflicts(index, workspaceId);
  if (open.length === 0) return [];
  const left = open.filter((c) => localKeys.has(pathKey(c.copyPath)));
  if (left.length !== open.length) {
    if (left.length === 0) index.settings.delete(conflictsSetting(workspaceId));
    else index.settings.set(conflictsSetting(workspaceId), left);
  }
  return left.filter((c) => c.kept !== true).map((c) => conflictProblem(workspaceId, c));
}

export function conflictProblem(workspaceId: string, c: OpenConflict): Problem {
  return {
    workspaceId,
    path: c.path,
    kind: 'conflict',
    message: `"${c.path}" was changed on both sides: the service's version keeps the name, and your edit is kept as "${c.copyPath}".`,
    hint: 'Compare the two versions and keep yours, theirs or both (in the app, or `asset-sync resolve`). Once the copy is deleted or renamed, this goes away.',
  };
}
