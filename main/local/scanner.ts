/**
 * Walks a workspace folder and reports what is on disk: the "local" view of the planner. Files
 * whose stamp (size, mtime, inode) matches the hash cache are not read at all (design notes §3),
 * so rescanning an unchanged tree costs one lstat per file.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { LocalFile, LocalFolder } from '../sync/model.js';
import type { HashCache, HashCacheEntry } from './hash-cache.js';
import { hashFile } from './hash.js';
import type { IgnoreMatcher } from './ignore.js';
import { pathKey } from './paths.js';
import { runPool } from './pool.js';
import { isRecentlyModified } from './stability.js';
import { type FileStamp, sameStamp, stampOf } from './stamp.js';

/**
 * Why an entry that exists on disk is missing from the result. The engine must not read a
 * skipped path (or anything below a skipped folder) as a local deletion.
 */
export type SkipReason =
  /** Symbolic links are never followed nor synced. */
  | 'symlink'
  /** FIFOs, sockets, devices. */
  | 'special'
  /** Same `pathKey` as a sibling (e.g. "A.txt" and "a.txt" on Linux): only the first by name is kept. */
  | 'case_clash'
  /** A "\" in the name: it would read as a separator on Windows and in resolveInsideRoot. */
  | 'invalid_name'
  /** lstat, readdir or read failed (permissions, I/O error). */
  | 'unreadable';

export interface SkippedEntry {
  /** Relative path as spelled on disk, POSIX separators. */
  path: string;
  reason: SkipReason;
  /** The error code or message, for 'unreadable'. */
  error?: string;
}

export interface ScanProgress {
  phase: 'walk' | 'hash';
  folders: number;
  files: number;
  /** Files whose cache entry did not match, found so far. */
  toHash: number;
  hashed: number;
}

export interface ScanOptions {
  hashCache: HashCache;
  ignore: IgnoreMatcher;
  signal?: AbortSignal;
  onProgress?: (progress: ScanProgress) => void;
  /** lstat/readdir calls in flight. */
  statConcurrency?: number;
  /** Files read at once; hashing is CPU-bound on the main thread, so more does not help. */
  hashConcurrency?: number;
}

export interface ScanResult {
  /** Keyed by `pathKey(path)`; `path` keeps the on-disk spelling (maybe not NFC) for I/O. */
  files: Map<string, LocalFile>;
  folders: Map<string, LocalFolder>;
  skipped: SkippedEntry[];
  /** Files that had to be read because the cache did not vouch for them. */
  hashed: number;
}

const DEFAULT_STAT_CONCURRENCY = 48;
const DEFAULT_HASH_CONCURRENCY = 3;
/**
 * A checksum is cached only if the file's mtime was at least this old when the scan began.
 * Otherwise a write landing in the same mtime tick as our stat (FAT has 2 s ticks, HFS+ 1 s)
 * would leave a stale checksum behind that no later stamp comparison could detect.
 */
const RACY_WINDOW_MS = 2000;
const CACHE_BATCH = 500;

interface Job {
  kind: 'dir' | 'file';
  /** Relative path on disk, POSIX separators; '' is the root. */
  rel: string;
  key: string;
}

interface PendingHash {
  rel: string;
  key: string;
  stamp: FileStamp;
}

export async function scanTree(workspaceDir: string, opts: ScanOptions): Promise<ScanResult> {
  const scan = new TreeScan(path.resolve(workspaceDir), opts);
  await scan.walk();
  await scan.hashPending();
  return { files: scan.files, folders: scan.folders, skipped: scan.skipped, hashed: scan.hashed };
}

class TreeScan {
  readonly files = new Map<string, LocalFile>();
  readonly folders = new Map<string, LocalFolder>();
  readonly skipped: SkippedEntry[] = [];
  hashed = 0;
  private readonly toHash: PendingHash[] = [];
  private readonly startedMs = Date.now();

  constructor(
    private readonly root: string,
    private readonly opts: ScanOptions,
  ) {}

  /** Phase 1: list every folder and lstat every file; cache hits are final here. */
  walk(): Promise<void> {
    return runPool<Job>(
      [{ kind: 'dir', rel: '', key: '' }],
      this.opts.statConcurrency ?? DEFAULT_STAT_CONCURRENCY,
      (job, enqueue) => (job.kind === 'dir' ? this.readDir(job, enqueue) : this.statFile(job, enqueue)),
      this.opts.signal,
    );
  }

  /** Phase 2: read the files the cache could not vouch for. */
  async hashPending(): Promise<void> {
    const cacheWriter = new CacheWriter(this.opts.hashCache);
    try {
      await runPool(this.toHash, this.opts.hashConcurrency ?? DEFAULT_HASH_CONCURRENCY, (p) => this.hashOne(p, cacheWriter), this.opts.signal);
    } finally {
      // Checksums computed before an abort or an error are still right: keep them.
      cacheWriter.flush();
    }
  }

  private abs(rel: string): string {
    return rel === '' ? this.root : path.join(this.root, rel);
  }

  private progress(phase: ScanProgress['phase']): void {
    const { folders, files, toHash, hashed } = this;
    this.opts.onProgress?.({ phase, folders: folders.size, files: files.size + toHash.length - hashed, toHash: toHash.length, hashed });
  }

  private async readDir(job: Job, enqueue: (job: Job) => void): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(this.abs(job.rel), { withFileTypes: true });
    } catch (err) {
      // The root must be readable: an empty result would look like everything was deleted.
      if (job.rel === '') throw err;
      if (isGone(err)) this.folders.delete(job.key);
      else this.skipped.push({ path: job.rel, reason: 'unreadable', error: errorText(err) });
      return;
    }
    for (const entry of this.keepFirstPerKey(entries, job)) {
      const rel = childPath(job.rel, entry.name);
      const key = childPath(job.key, pathKey(entry.name));
      if (entry.isSymbolicLink()) this.skipped.push({ path: rel, reason: 'symlink' });
      else if (entry.isDirectory()) {
        this.folders.set(key, { path: rel });
        enqueue({ kind: 'dir', rel, key });
      } else if (entry.isFile()) enqueue({ kind: 'file', rel, key });
      else this.skipped.push({ path: rel, reason: 'special' });
    }
    this.progress('walk');
  }

  /**
   * Drops ignored entries, and of entries sharing a `pathKey` keeps the first by code-unit
   * order (readdir order is arbitrary), so the result is the same on every run.
   */
  private keepFirstPerKey(entries: Dirent[], parent: Job): Dirent[] {
    const byKey = new Map<string, Dirent>();
    for (const entry of entries) {
      const rel = childPath(parent.rel, entry.name);
      if (this.opts.ignore.ignores(rel, entry.isDirectory())) continue;
      if (entry.name.includes('\\')) {
        this.skipped.push({ path: rel, reason: 'invalid_name' });
        continue;
      }
      const key = pathKey(entry.name);
      const other = byKey.get(key);
      if (other === undefined) {
        byKey.set(key, entry);
        continue;
      }
      const [keep, drop] = other.name < entry.name ? [other, entry] : [entry, other];
      byKey.set(key, keep);
      this.skipped.push({ path: childPath(parent.rel, drop.name), reason: 'case_clash' });
    }
    return [...byKey.values()];
  }

  private async statFile(job: Job, enqueue: (job: Job) => void): Promise<void> {
    let stamp: FileStamp;
    try {
      const stats = await lstat(this.abs(job.rel), { bigint: true });
      if (stats.isDirectory()) {
        // Replaced by a folder since its parent was listed.
        this.folders.set(job.key, { path: job.rel });
        return enqueue({ kind: 'dir', rel: job.rel, key: job.key });
      }
      if (!stats.isFile()) {
        this.skipped.push({ path: job.rel, reason: stats.isSymbolicLink() ? 'symlink' : 'special' });
        return;
      }
      stamp = stampOf(stats);
    } catch (err) {
      if (!isGone(err)) this.skipped.push({ path: job.rel, reason: 'unreadable', error: errorText(err) });
      return;
    }
    const cached = this.opts.hashCache.get(job.key);
    if (cached && sameStamp(cached, stamp)) this.files.set(job.key, { path: job.rel, ...stamp, checksum: cached.checksum });
    else this.toHash.push({ rel: job.rel, key: job.key, stamp });
  }

  private async hashOne({ rel, key, stamp }: PendingHash, cacheWriter: CacheWriter): Promise<void> {
    let read;
    try {
      read = await hashFile(this.abs(rel), { signal: this.opts.signal, sizeHint: stamp.size });
    } catch (err) {
      if (this.opts.signal?.aborted) throw err;
      if (!isGone(err)) this.skipped.push({ path: rel, reason: 'unreadable', error: errorText(err) });
      return;
    }
    this.hashed++;
    // The stamp was taken before reading, so a write during the read changes the stamp seen by
    // the next scan and the file is read again; only a write within the same mtime tick could
    // go unnoticed, hence no caching for files modified just before the scan.
    if (read.size === stamp.size && !isRecentlyModified(stamp.mtimeNs, this.startedMs, RACY_WINDOW_MS)) {
      cacheWriter.put(key, { ...stamp, checksum: read.checksum });
    }
    this.files.set(key, { path: rel, ...stamp, checksum: read.checksum });
    this.progress('hash');
  }
}

function childPath(parent: string, name: string): string {
  return parent === '' ? name : `${parent}/${name}`;
}

/** Hands fresh checksums to the cache, in batches when the cache can take them. */
class CacheWriter {
  private pending: [string, HashCacheEntry][] = [];

  constructor(private readonly cache: HashCache) {}

  put(key: string, entry: HashCacheEntry): void {
    if (!this.cache.putMany) return this.cache.put(key, entry);
    this.pending.push([key, entry]);
    if (this.pending.length >= CACHE_BATCH) this.flush();
  }

  flush(): void {
    if (this.pending.length === 0) return;
    this.cache.putMany?.(this.pending);
    this.pending = [];
  }
}

/** The entry disappeared between listing and reading it: it is simply not there any more. */
function isGone(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function errorText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ?? e.message ?? String(err);
}
