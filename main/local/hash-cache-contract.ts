/**
 * Where the scanner remembers checksums between scans, keyed by `pathKey` of the relative path.
 * The SQLite index implements this for real; `MemoryHashCache` serves tests and one-off scans.
 */
import { sameIgnoringCtime, type FileStamp } from './stamp.js';

export interface HashCacheEntry extends Omit<FileStamp, 'ctimeNs'> {
  /**
   * Absent in entries kept before the ctime was recorded (index schema 6): such an entry is
   * trusted on size, mtime and inode as it was then, and the next scan fills the ctime in.
   */
  ctimeNs?: string;
  /** In the client's form, which carries its algorithm (main/local/checksum.ts). */
  checksum: string;
}

/** Whether `entry` vouches for a file with `stamp`: the same stamp (the ctime too, if it knows one). */
export function cacheVouches(entry: HashCacheEntry, stamp: FileStamp): boolean {
  return (entry.ctimeNs === undefined || entry.ctimeNs === stamp.ctimeNs) && sameIgnoringCtime(entry, stamp);
}

/**
 * An entry as `getMany` may hand it over: a fresh object with the path the file is expected at
 * (where it was synced), in the shape of a scanned file. When the scan finds the file at that
 * path with the entry's stamp, the entry itself serves as the scanned file: no second object
 * per unchanged file.
 */
export interface FolderEntry extends HashCacheEntry {
  path: string;
}

export interface HashCache {
  get(key: string): HashCacheEntry | undefined;
  put(key: string, entry: HashCacheEntry): void;
  delete(key: string): void;
  /** Optional batch write; the scanner then stores its fresh checksums in batches. */
  putMany?(entries: Iterable<readonly [string, HashCacheEntry]>): void;
  /** Optional batch delete; the scanner then forgets the files that are gone in one go. */
  deleteMany?(keys: Iterable<string>): void;
  /**
   * Optional: every entry at once, for a scan that looks up every file anyway. The scanner
   * then also prunes the entries of files that are gone. Read only: write through the cache.
   */
  loadAll?(): ReadonlyMap<string, HashCacheEntry> | Promise<ReadonlyMap<string, HashCacheEntry>>;
  /**
   * Optional, and then preferred to `loadAll` by the scanner: the entries of `keys` (one folder's
   * files), so that no copy of the whole cache is held. With it come `count` and `keysAndInodes`,
   * for pruning and for telling renames, which a scan asks only when a file is new or gone.
   */
  getMany?(keys: readonly string[]): ReadonlyMap<string, HashCacheEntry | FolderEntry>;
  count?(): number;
  keysAndInodes?(): Iterable<readonly [key: string, inode: number]>;
}

/** A cache that the scanner can ask a folder at a time. */
export type FolderwiseHashCache = HashCache & Required<Pick<HashCache, 'getMany' | 'count' | 'keysAndInodes'>>;

export const isFolderwise = (cache: HashCache): cache is FolderwiseHashCache =>
  cache.getMany !== undefined && cache.count !== undefined && cache.keysAndInodes !== undefined;

export class MemoryHashCache implements HashCache {
  readonly entries = new Map<string, HashCacheEntry>();

  get(key: string): HashCacheEntry | undefined {
    return this.entries.get(key);
  }

  put(key: string, entry: HashCacheEntry): void {
    this.entries.set(key, { ...entry });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  loadAll(): ReadonlyMap<string, HashCacheEntry> {
    return this.entries;
  }
}
