/**
 * What the scanner leaves out of its result and why. Its own module because both the scanner and
 * the per-folder plans it reuses (folder-plans.ts) report skipped entries.
 */

/**
 * Why an entry that exists on disk is missing from the result. The engine must not read a
 * skipped path (or anything below a skipped folder) as a local deletion.
 */
export type SkipReason =
  /** Symbolic links are never followed nor synced. */
  | 'symlink'
  /** FIFOs, sockets, devices. */
  | 'special'
  /** Same `pathKey` as a sibling (e.g. "A.txt" and "a.txt" on Linux): only one is kept (`error` names it). */
  | 'case_clash'
  /** A name other computers cannot hold as it is (`whyNotPortable`, whose reason is in `error`). */
  | 'invalid_name'
  /** lstat, readdir or read failed (permissions, I/O error). */
  | 'unreadable';

export interface SkippedEntry {
  /**
   * Relative path as spelled on disk, POSIX separators; a name that is not valid UTF-8 shows
   * each byte that is no character as `\xHH` (`undecodableName`).
   */
  path: string;
  reason: SkipReason;
  /** The error code or message for 'unreadable'; why, for 'invalid_name'; the name kept, for 'case_clash'. */
  error?: string;
  /** A name to rename it to, when it is not the `sanitizeName` of its name (a name that is not UTF-8). */
  rename?: string;
  /**
   * For a name that lost a clash or that other computers cannot hold, its inode and, for a
   * folder, the inodes of everything in it: a synced item renamed or moved there is held as it
   * was synced (local-view.ts), not taken for deleted.
   */
  inode?: number;
  inodesBelow?: number[];
}
