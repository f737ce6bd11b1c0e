/**
 * When a cycle may take the folder as its last full scan saw it instead of walking it again:
 * the watcher vouches for the folder between full scans, as Dropbox, Maestral and Syncthing
 * trust theirs. A scan of 100,000 unchanged files costs about a second of CPU; an idle poll
 * that trusts the watcher costs next to nothing.
 *
 * Rules (a cycle walks the whole folder whenever one fails):
 * - the watcher was ready and trusted (no error reported) before the scan began, and is the
 *   same watcher now: a watcher started later missed what happened before it;
 * - it received no event since the scan began, those of the engine's own writes included:
 *   only the scan saw what changed before it began;
 * - the scan is younger than the safety interval: a watcher can lose events without saying so
 *   (an inotify queue that overflows, a network drive), and the periodic full scan bounds how
 *   long such a change can go unnoticed.
 */
import type { TreeWatcher } from '../local/watcher.js';

/**
 * One hour, as Syncthing's default full rescan with its watcher on: a change a watcher lost
 * waits at most this long, and a scan of 100,000 files an hour is a fraction of a percent of
 * one core.
 */
export const FULL_RESCAN_INTERVAL_MS = 60 * 60 * 1000;

/** The watcher as a full scan began: what later cycles compare against. */
export interface ScanMark {
  watcher: TreeWatcher;
  seen: number;
  atMs: number;
}

/** Taken just before a full scan walks the folder; null when no trusted watcher runs. */
export function markBeforeScan(watcher: TreeWatcher | null, nowMs: number): ScanMark | null {
  if (watcher === null || !watcher.trusted()) return null;
  return { watcher, seen: watcher.seen(), atMs: nowMs };
}

/** Whether nothing can have changed on disk since the full scan that took `mark`. */
export function unchangedSince(mark: ScanMark | null, watcher: TreeWatcher | null, nowMs: number, intervalMs: number): boolean {
  if (mark === null || watcher === null || mark.watcher !== watcher || !watcher.trusted()) return false;
  if (watcher.seen() !== mark.seen) return false;
  // A clock set back counts as the interval passed: the next cycle walks the folder.
  const age = nowMs - mark.atMs;
  return age >= 0 && age < intervalMs;
}
