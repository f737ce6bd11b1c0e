/**
 * Local changes saved while sync is paused: what the watcher reported, checked against the synced
 * base by stamp (size, mtime, inode), without reading a byte or asking the service. The status
 * says "Paused · 3 changes waiting" instead of "nothing pending" (Dropbox and Nextcloud count
 * them too); nothing is uploaded before the user resumes.
 *
 * A file counts once however often it is saved; one created and removed again, or put back as it
 * was synced, does not count. Folders, links and ignored or excluded paths do not count; the files
 * in a new or removed folder do, each as the watcher reports it.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { IgnoreMatcher } from '../local/ignore.js';
import { pathKey } from '../local/paths.js';
import { sameIgnoringCtime, stampOf } from '../local/stamp.js';
import type { BaseFile } from '../model/views.js';
import { isUnder } from './local-view.js';

/** Paths followed at most: past this, a change is still noticed but the count stops growing. */
const MAX_PATHS = 100_000;

export interface PausedChangesOptions {
  dir: string;
  /** The synced base row of a path, if any. */
  base: (relPath: string) => BaseFile | undefined;
  excluded: readonly string[];
}

export class PausedChanges {
  /** Paths the watcher reported since the pause, by pathKey: whether each differs from the base. */
  private readonly seen = new Map<string, boolean>();
  private changed = 0;
  private readonly excludedKeys: ReadonlySet<string>;

  constructor(private readonly options: PausedChangesOptions) {
    this.excludedKeys = new Set(options.excluded.map((p) => pathKey(p)));
  }

  /** How many files differ from what was last synced. */
  get count(): number {
    return this.changed;
  }

  /** Looks at the paths of one watcher batch; true when the count changed. */
  note(paths: Iterable<string>, ignore: IgnoreMatcher | null): boolean {
    const before = this.changed;
    for (const rel of paths) {
      if (rel === '') continue;
      const key = pathKey(rel);
      if (isUnder(key, this.excludedKeys)) continue;
      const was = this.seen.get(key);
      if (was === undefined && this.seen.size >= MAX_PATHS) continue;
      const now = this.differs(rel, ignore);
      this.seen.set(key, now);
      this.changed += Number(now) - Number(was ?? false);
    }
    return this.changed !== before;
  }

  clear(): void {
    this.seen.clear();
    this.changed = 0;
  }

  private differs(rel: string, ignore: IgnoreMatcher | null): boolean {
    const base = this.options.base(rel);
    let stats;
    try {
      stats = lstatSync(join(this.options.dir, ...rel.split('/')), { bigint: true, throwIfNoEntry: false });
    } catch {
      // Unreadable now: the cycle after the resume tells.
      return false;
    }
    if (stats === undefined) return base !== undefined;
    if (!stats.isFile() || ignore?.ignores(rel, false)) return false;
    if (base === undefined) return true;
    // The base keeps no ctime: a rewrite that kept size and mtime is counted at the resume's scan.
    return !sameIgnoringCtime(stampOf(stats), base);
  }
}
