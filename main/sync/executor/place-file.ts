/**
 * Putting a finished file at its name without losing what the user writes at that moment.
 *
 * A plain "check, then rename" has a gap: a file saved at the name after the check is replaced
 * by the rename and gone (Syncthing and Nextcloud both live with that gap). Hard links close
 * most of it, with no more system calls than a rename costs:
 * - onto a free name, `link` then `unlink` is a rename that never replaces (it fails on EEXIST,
 *   which `rename` cannot be told to do from Node: renameat2 is not exposed);
 * - over a file, the old file is first linked to a hidden name, so it outlives the rename: if
 *   its size or mtime moved between the check and the rename, the user wrote into it, and it
 *   is still there to be kept.
 * All steps are synchronous, so nothing of ours runs between them. What is left is a save made
 * by renaming a new file over the name in the few microseconds between the link and the rename.
 * File systems without hard links (FAT, some network shares) get the check and the rename.
 */
import { linkSync, lstatSync, renameSync, unlinkSync } from 'node:fs';
import { sameIgnoringCtime, sameStamp, stampOf, type FileStamp } from '../../local/stamp.js';

export type Placed =
  /** The file is at its name. */
  | { kind: 'placed' }
  /** Something else is at the name now (or, for a replacement, nothing): nothing was changed. */
  | { kind: 'changed' }
  /** Placed, but the replaced file was written to while it happened: it is kept at `keptAt`. */
  | { kind: 'edited-meanwhile'; keptAt: string };

/** For tests: the gaps where a user's save can land. */
export interface PlaceHooks {
  /** Between the check of the replaced file and the link that keeps it (placeOver only). */
  afterCheck?: () => void;
  /** Between the last check and the rename. */
  beforeRename?: () => void;
}

/** Moves `from` to the free name `to`; answers 'changed' (and leaves `from`) if the name is taken. */
export function placeAtFreeName(from: string, to: string, hooks: PlaceHooks = {}): Placed {
  try {
    hooks.beforeRename?.();
    linkSync(from, to);
  } catch (err) {
    if (codeOf(err) === 'EEXIST') return { kind: 'changed' };
    if (!noHardLinks(err)) throw err;
    if (lstatSync(to, { throwIfNoEntry: false }) !== undefined) return { kind: 'changed' };
    renameSync(from, to);
    return { kind: 'placed' };
  }
  unlinkSync(from);
  return { kind: 'placed' };
}

/**
 * Moves `from` over `to`, which must still be the file the caller checked (`seen`). The old
 * file is linked to `keep` (a free hidden name beside it) for the moment of the rename.
 */
export function placeOver(from: string, to: string, seen: FileStamp, keep: string, hooks: PlaceHooks = {}): Placed {
  // Checked whole before the link moves its ctime: a rewrite that kept size and mtime shows there only.
  if (!isStill(to, seen)) return { kind: 'changed' };
  hooks.afterCheck?.();
  try {
    linkSync(to, keep);
  } catch (err) {
    if (codeOf(err) === 'ENOENT') return { kind: 'changed' };
    if (!noHardLinks(err)) throw err;
    return checkThenRename(from, to, seen, hooks);
  }
  let before: FileStamp;
  try {
    // Still the file checked, not one renamed over it since.
    before = stampOf(lstatSync(keep, { bigint: true }));
    if (!sameIgnoringCtime(before, seen)) {
      unlinkSync(keep);
      return { kind: 'changed' };
    }
    hooks.beforeRename?.();
    renameSync(from, to);
  } catch (err) {
    unlinkQuietly(keep);
    throw err;
  }
  // The link changed the old file's ctime and the rename its link count: only size and mtime
  // tell a write.
  const after = stampOf(lstatSync(keep, { bigint: true }));
  if (after.size !== before.size || after.mtimeNs !== before.mtimeNs) return { kind: 'edited-meanwhile', keptAt: keep };
  unlinkSync(keep);
  return { kind: 'placed' };
}

function checkThenRename(from: string, to: string, seen: FileStamp, hooks: PlaceHooks): Placed {
  if (!isStill(to, seen)) return { kind: 'changed' };
  hooks.beforeRename?.();
  renameSync(from, to);
  return { kind: 'placed' };
}

/** Whether `abs` is still the file of stamp `seen`. */
function isStill(abs: string, seen: FileStamp): boolean {
  const now = lstatSync(abs, { bigint: true, throwIfNoEntry: false });
  return now !== undefined && now.isFile() && sameStamp(stampOf(now), seen);
}

/** Errors of a file system that has no hard links (FAT answers EPERM, SMB and others ENOTSUP). */
const NO_HARD_LINKS: ReadonlySet<string | undefined> = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

function noHardLinks(err: unknown): boolean {
  return NO_HARD_LINKS.has(codeOf(err));
}

function codeOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

function unlinkQuietly(abs: string): void {
  try {
    unlinkSync(abs);
  } catch {
    // Already gone; a stray temp name is removed at the next start anyway.
  }
}
