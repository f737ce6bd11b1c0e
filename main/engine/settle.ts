/**
 * Waits for the files a cycle held back as still being written, so that the cycle which uploads
 * them runs as soon as they count as written, not a whole quiet period after the cycle that
 * held them back. Their stamps are looked at every SAMPLE_MS: they have settled once each one's
 * mtime is the quiet period old and two looks in a row saw the same stamp (size, mtime, ctime,
 * inode: a writer that keeps the mtime still moves the size or the ctime). Only the timing is
 * decided here: the cycle judges each file again (local-view.ts).
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { untilQuiet } from '../local/stability.js';
import { sameStamp, stampOf, type FileStamp } from '../local/stamp.js';

/** Between two looks at the files: short, so that the upload starts soon after they settle. */
export const SAMPLE_MS = 100;

export interface SettleOptions {
  /** The workspace folder the paths are relative to. */
  dir: string;
  /** The files to wait for: asked at each look, as later cycles may hold back others. */
  paths: () => Iterable<string>;
  quietMs: number;
  /** Gives up after this long (a file written for minutes): the cycle then looks for itself. */
  limitMs: number;
  signal: AbortSignal;
}

export async function untilSettled(options: SettleOptions): Promise<void> {
  const end = Date.now() + options.limitMs;
  let before = new Map<string, FileStamp>();
  for (;;) {
    const now = Date.now();
    const seen = new Map<string, FileStamp>();
    for (const path of options.paths()) {
      const stats = lstatSync(join(options.dir, ...path.split('/')), { bigint: true, throwIfNoEntry: false });
      // Gone, or no longer a file: the cycle tells what became of it.
      if (stats?.isFile()) seen.set(path, stampOf(stats));
    }
    const steady = [...seen].every(([path, stamp]) => {
      const last = before.get(path);
      return last !== undefined && sameStamp(last, stamp);
    });
    const wait = untilQuiet([...seen.values()].map((s) => s.mtimeNs), now, options.quietMs);
    if ((wait === 0 && steady) || now >= end || options.signal.aborted) return;
    before = seen;
    await sleep(Math.min(Math.max(wait, SAMPLE_MS), end - now), undefined, { signal: options.signal }).catch(() => undefined);
  }
}
