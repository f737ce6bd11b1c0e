/**
 * Moving a file the service deleted to the trash without taking a save the user makes at that
 * moment with it.
 *
 * The trash is slow next to a rename (the OS trash writes its own records first, and its
 * package loads on the first deletion), so "check, then trash" leaves a gap in which a save
 * in place goes to the trash with the file. As when a download replaces a file (place-file.ts),
 * a hard link closes it: the checked file is first linked to a hidden name beside it, so it
 * outlives the trip; if its size or mtime moved meanwhile, the user wrote into it, and the
 * hidden link is put back at the name (or, if the name was taken meanwhile, becomes a
 * conflicted copy). What is left is a save made by renaming a new file over the name while the
 * trash works: that file goes to the trash, as a deletion in any sync client would take it.
 * File systems without hard links get the check and the trash.
 */
import { linkSync, lstatSync } from 'node:fs';
import { resolveInsideRoot } from '../../local/paths.js';
import { tempFileName } from '../../local/own-files.js';
import { sameIgnoringCtime, stampOf, type FileStamp } from '../../local/stamp.js';
import { joinPath, parentOf } from '../rel-path.js';
import { recordActivity, reportProblem, type ExecutorDeps } from './context.js';
import { moveToConflictCopy } from './conflict-copy.js';
import { conflictProblem } from './open-conflicts.js';
import { isStill, noHardLinks, placeAtFreeName, unlinkQuietly, type PlaceHooks } from './place-file.js';
import { loadSystemTrash, moveToTrash, type Trashed } from './trash.js';

export type GuardedTrash =
  /** In the trash. */
  | { kind: 'trashed'; trashed: Trashed }
  /** Not the checked file any more (or gone): nothing was moved. */
  | { kind: 'changed' }
  /** Saved into while it went to the trash: the saved file is back at its name, or at `copyPath`. */
  | { kind: 'edited-meanwhile'; copyPath?: string };

/** Moves the file at `relPath` (`abs`, checked as `seen`) to a trash unless it is not that file any more. */
export async function trashIfUnchanged(deps: ExecutorDeps, relPath: string, abs: string, seen: FileStamp): Promise<GuardedTrash> {
  // Loaded before the check, so that the gap the link guards is as short as it can be.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: only how long the gap is; the link below keeps the save either way
  if (deps.trash === undefined) await loadSystemTrash();
  const keepRel = joinPath(parentOf(relPath), tempFileName());
  const keep = resolveInsideRoot(deps.root, keepRel);
  const kept = keepLink(abs, seen, keep, deps.placeHooks ?? {});
  if (kept === 'changed') return { kind: 'changed' };
  let trashed: Trashed;
  try {
    trashed = await moveToTrash(deps, relPath, abs);
  } catch (err) {
    // Without links no hidden name was made: there is nothing at `keep` to unlink.
    unlinkQuietly(keep);
    throw err;
  }
  if (kept === 'no-links') return { kind: 'trashed', trashed };
  // The link changed the file's ctime and the trash its name: only size and mtime tell a write.
  const after = stampOf(lstatSync(keep, { bigint: true }));
  if (after.size === kept.size && after.mtimeNs === kept.mtimeNs) {
    unlinkQuietly(keep);
    return { kind: 'trashed', trashed };
  }
  return restoreEdit(deps, relPath, keep, keepRel);
}

/** Links the checked file to `keep`; answers its stamp there, 'changed', or 'no-links'. */
function keepLink(abs: string, seen: FileStamp, keep: string, hooks: PlaceHooks): FileStamp | 'changed' | 'no-links' {
  // Checked whole before the link moves its ctime: a rewrite that kept size and mtime shows there only.
  if (!isStill(abs, seen)) return 'changed';
  hooks.afterCheck?.();
  try {
    linkSync(abs, keep);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'changed';
    if (!noHardLinks(err)) throw err;
    return isStill(abs, seen) ? 'no-links' : 'changed';
  }
  // Still the file checked, not one renamed over it since.
  const linked = stampOf(lstatSync(keep, { bigint: true }));
  if (!sameIgnoringCtime(linked, seen)) {
    unlinkQuietly(keep);
    return 'changed';
  }
  return linked;
}

/** Puts the saved file back at its name, or beside it as a conflicted copy if the name is taken now. */
async function restoreEdit(deps: ExecutorDeps, relPath: string, keep: string, keepRel: string): Promise<GuardedTrash> {
  const abs = resolveInsideRoot(deps.root, relPath);
  if (placeAtFreeName(keep, abs).kind === 'placed') {
    recordActivity(deps, 'restored', relPath, `${relPath} was saved while it went to the trash: your edit is kept at its name`);
    // Stryker disable next-line ObjectLiteral,StringLiteral: callers tell a trashed file from the rest, and a changed one from the rest: any other answer reads as this one
    return { kind: 'edited-meanwhile' };
  }
  const conflict = await moveToConflictCopy(deps, relPath, keepRel);
  recordActivity(deps, 'conflict', conflict.copyPath, `${relPath} was saved while it went to the trash: your edit is kept as ${conflict.copyPath}`);
  const { workspaceId: _, ...problem } = conflictProblem(deps.workspaceId, conflict);
  reportProblem(deps, problem);
  // Stryker disable next-line ObjectLiteral,StringLiteral: callers tell a trashed file from the rest, and a changed one from the rest: any other answer reads as this one
  return { kind: 'edited-meanwhile', copyPath: conflict.copyPath };
}
