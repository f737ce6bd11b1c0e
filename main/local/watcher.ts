/**
 * Tells the engine which paths changed in a workspace folder, in debounced batches. The events
 * are hints: the engine rescans what they name (and a periodic full scan backs them up), so a
 * missed or merged event costs a little latency, never correctness.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { watchFolders } from './folder-watch.js';
import type { IgnoreMatcher } from './ignore.js';
import { IGNORE_FILE_NAME } from './own-files.js';
import { pathKey } from './paths.js';
import { sameStamp, stampOf, type FileStamp } from './stamp.js';

export interface WatchOptions {
  ignore: IgnoreMatcher;
  /** Quiet time after the last event before a batch is delivered. */
  debounceMs?: number;
  /** A batch is delivered at the latest this long after its first event, even if events keep coming. */
  maxWaitMs?: number;
  /**
   * Relative paths as spelled on disk, POSIX separators, that saw an add, change or removal
   * ('' is the workspace folder itself, e.g. when it disappears).
   */
  onChanges: (paths: Set<string>) => void;
  onError?: (err: unknown) => void;
}

export interface TreeWatcher {
  /** Resolves once the initial crawl is done; changes before that may be missed. */
  ready: Promise<void>;
  close(): Promise<void>;
  /**
   * Drops events for `relPath` (compared by `pathKey`) for the next `ms`: the engine's own
   * writes, such as a download renamed into place, must not come back as local edits. With
   * `stamp` (the file the engine put there), only while the file still has that stamp: a user
   * who saves it a moment after it arrived is not ignored.
   */
  suppress(relPath: string, ms: number, stamp?: FileStamp): void;
  /**
   * Events received so far, those of suppressed paths too: a count that has not moved since a
   * moment means nothing on disk changed since then, as far as this watcher knows.
   */
  seen(): number;
  /**
   * Ready, and no error reported since: what it does not report did not happen. An error (an
   * inotify limit reached, a folder it could not watch) may mean events are lost for good, and
   * a change of the ignore rules means it filters by rules that no longer hold, so it is never
   * trusted again; the engine walks the folder at every cycle instead.
   */
  trusted(): boolean;
}

const DEFAULT_DEBOUNCE_MS = 300;
const DEFAULT_MAX_WAIT_MS = 5000;

export function watchTree(dir: string, opts: WatchOptions): TreeWatcher {
  const debounceMs = opts.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  const maxWaitMs = opts.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const suppressed = new Map<string, { until: number; stamp?: FileStamp | undefined }>();
  let pending = new Set<string>();
  let quietTimer: NodeJS.Timeout | undefined;
  let maxTimer: NodeJS.Timeout | undefined;
  let closed = false;
  let events = 0;
  let isReady = false;
  let failed = false;
  let rulesChanged = false;
  let rootGone = false;

  const flush = (): void => {
    clearTimeout(quietTimer);
    clearTimeout(maxTimer);
    quietTimer = maxTimer = undefined;
    if (closed || pending.size === 0) return;
    const batch = pending;
    pending = new Set();
    opts.onChanges(batch);
  };

  const isSuppressed = (rel: string, absPath: string): boolean => {
    const key = pathKey(rel);
    const entry = suppressed.get(key);
    if (entry === undefined) return false;
    if (performance.now() >= entry.until) {
      suppressed.delete(key);
      return false;
    }
    if (entry.stamp === undefined) return true;
    // Runs inside a watch callback, where a throw would end the process: a path that cannot be
    // read (its folder replaced by a file, access taken away) counts as a change to look at.
    let now;
    try {
      now = lstatSync(absPath, { bigint: true, throwIfNoEntry: false });
    } catch {
      return false;
    }
    return now !== undefined && now.isFile() && sameStamp(stampOf(now), entry.stamp);
  };

  // The rules file is never synced, but its changes are told: the engine reloads the rules.
  const ignored = (rel: string, isDir: boolean): boolean => rel !== '' && rel !== IGNORE_FILE_NAME && opts.ignore.ignores(rel, isDir);

  const onPath = (rel: string, isDir?: boolean): void => {
    events += 1;
    // Filtered by the rules it was started with: once they change, what it leaves out is not what the scan leaves out.
    if (rel === IGNORE_FILE_NAME) rulesChanged = true;
    // Nothing below a folder that went away is watched: the watcher vouches for nothing now.
    if (rel === '') rootGone = true;
    if (ignored(rel, isDir ?? false) || isSuppressed(rel, path.join(dir, rel))) return;
    pending.add(rel);
    clearTimeout(quietTimer);
    quietTimer = setTimeout(flush, debounceMs);
    maxTimer ??= setTimeout(flush, maxWaitMs);
  };

  const folders = watchFolders(dir, {
    skipsFolder: (rel) => ignored(rel, true),
    onPath,
    onError: (err) => {
      failed = true;
      opts.onError?.(err);
    },
  });
  const ready = folders.ready.then(() => {
    if (!closed) isReady = true;
  });

  return {
    ready,
    async close() {
      closed = true;
      isReady = false;
      clearTimeout(quietTimer);
      clearTimeout(maxTimer);
      folders.close();
      await ready;
    },
    suppress(relPath: string, ms: number, stamp?: FileStamp) {
      const now = performance.now();
      for (const [key, entry] of suppressed) if (entry.until <= now) suppressed.delete(key);
      const key = pathKey(relPath);
      const until = Math.max(stamp === undefined ? (suppressed.get(key)?.until ?? 0) : 0, now + ms);
      suppressed.set(key, { until, stamp });
    },
    seen: () => events,
    trusted: () => isReady && !failed && !rulesChanged && !rootGone && !closed,
  };
}
