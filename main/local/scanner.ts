/**
 * Walks a workspace folder and reports what is on disk: the "local" view of the planner. Files
 * whose stamp (size, mtime, ctime, inode) matches the hash cache are not read at all (as in
 * Maestral's and Syncthing's scanners), so rescanning an unchanged tree costs one lstat per file.
 *
 * The system calls run on worker threads (fs-workers.ts): a worker lists a folder and lstats
 * its files, and reads and hashes the files the cache cannot vouch for. The main thread applies
 * the ignore rules, decides which folders to enter and compares stamps, a few milliseconds at a
 * time. With a promise per lstat on the main thread, a rescan of 100,000 files took 3 s.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { LocalFile, LocalFolder } from '../model/views.js';
import { type FolderPlan, FolderPlans } from './folder-plans.js';
import { EntryType, entryError, entryTimes, entryTimesAre, type FolderListing, type FsError, fsWorkers, type ListAnswer, StatResult } from './fs-workers.js';
import { type FolderEntry, type FolderwiseHashCache, type HashCache, type HashCacheEntry, isFolderwise } from './hash-cache-contract.js';
import { type HashAnswer, type HashItem, HashQueue } from './hash-workers.js';
import { DEFAULT_ALGORITHM, algorithmOf, type HashAlgorithm } from './checksum.js';
import type { IgnoreMatcher } from './ignore.js';
import { pathKey } from './paths.js';
import { runPool } from './pool.js';
import { isRecentlyModified } from './stability.js';
import { StampPrint } from './stamp-print.js';
import type { FileStamp } from './stamp.js';
import type { SkippedEntry } from './skipped-entry.js';

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
  /**
   * The algorithm of the service's checksums (default SHA-256), so local and remote checksums
   * compare. A cached checksum of another algorithm is no hit: the file is read again.
   */
  algorithm?: HashAlgorithm;
  signal?: AbortSignal;
  onProgress?: (progress: ScanProgress) => void;
}

export interface ScanResult {
  /** Keyed by `pathKey(path)`; `path` keeps the on-disk spelling (maybe not NFC) for I/O. */
  files: Map<string, LocalFile>;
  folders: Map<string, LocalFolder>;
  skipped: SkippedEntry[];
  /** Files that had to be read because the cache did not vouch for them. */
  hashed: number;
  /** Files found under a new name whose checksum the cache vouched for by inode (not read). */
  renamed: number;
  /**
   * What the walk saw without a checksum (stamp-print.ts), when the cache now vouches for every
   * file's checksum as found; else null (a file modified too recently for its checksum to be
   * kept, one that could not be read). While the cache does not change, a later walk with the
   * same print would find the same checksums: see `scanUnlessUnchanged`.
   */
  stamps: string | null;
  /**
   * Our temp files the walk saw (regular files only, relative paths): never synced, they are
   * listed for the leftover sweep (recovery.ts), which so needs no walk of its own.
   */
  temps: string[];
}

/** Batches of folders in flight per worker: each worker always has the next one queued. */
const BATCHES_PER_WORKER = 2;
const MAX_FOLDERS_PER_BATCH = 16;
/** The longest the main thread works through listings without giving the event loop a turn. */
const SLICE_MS = 10;
/**
 * A checksum is cached only if the file's mtime was at least this old when the scan began.
 * Otherwise a write landing in the same mtime tick as our stat (FAT has 2 s ticks, HFS+ 1 s)
 * would leave a stale checksum behind that no later stamp comparison could detect.
 */
const RACY_WINDOW_MS = 2000;
/** Rows per cache transaction: fewer commits write far less, and one still takes only ~10 ms. */
const CACHE_BATCH = 1000;

interface Folder {
  /** Relative path on disk, POSIX separators; '' is the root. */
  rel: string;
  key: string;
  /** Absolute path with a trailing separator, to which a child's name is appended. */
  prefix: string;
}

interface PendingHash extends HashItem {
  rel: string;
  key: string;
  stamp: FileStamp;
  /** The cache had an entry for this key (one that did not vouch). */
  known: boolean;
}

export async function scanTree(workspaceDir: string, opts: ScanOptions): Promise<ScanResult> {
  const scan = new TreeScan(path.resolve(workspaceDir), opts, false);
  await scan.walkAll();
  return scan.finish();
}

/**
 * A scan that first only lists the folder and lstats its files, asking the hash cache nothing,
 * and stops there when `unchanged` knows the stamps the walk saw (stamp-print.ts), with what it
 * answered: the caller knows the scan it would complete. Otherwise it completes the scan as `scanTree`
 * does, from the listings it kept (one per folder, no object per file). A cycle after a quiet
 * one (engine/quiet-cycle.ts) on an unchanged folder so costs the walk alone: the cache's
 * lookups, one query per folder, were more than half of it.
 */
export async function scanUnlessUnchanged<T>(workspaceDir: string, opts: ScanOptions, unchanged: (stamps: string) => T | undefined): Promise<ScanResult | { unchanged: T; temps: string[] }> {
  const scan = new TreeScan(path.resolve(workspaceDir), opts, true);
  await scan.walkAll();
  const known = unchanged(scan.stamps);
  if (known !== undefined) return { unchanged: known, temps: scan.temps };
  await scan.lookUpDeferred();
  return scan.finish();
}

class TreeScan {
  readonly files = new Map<string, LocalFile>();
  readonly folders = new Map<string, LocalFolder>();
  readonly skipped: SkippedEntry[] = [];
  readonly temps: string[] = [];
  hashed = 0;
  renamed = 0;
  private readonly toHash: PendingHash[] = [];
  /** Cache misses whose inode, size and mtime match another path's entry (`settleRenames`). */
  private readonly maybeRenamed: Array<{ pending: PendingHash; from: string; checksum: string }> = [];
  private readonly algorithm: HashAlgorithm;
  /** Inode -> the one cache key holding it (null: several), built at the first miss. */
  private byInode: Map<number, string | null> | undefined;
  private readonly startedMs = Date.now();
  /** Folders skipped for their name, where to look into them (bytes when the name is not UTF-8). */
  private readonly skippedFolders: Array<{ entry: SkippedEntry; at: string | Uint8Array }> = [];
  /**
   * The whole cache when it can hand it over at once and cannot be asked a folder at a time (a
   * cache in memory), else undefined: one lookup per file, or per folder (`folderwise`).
   */
  private known: ReadonlyMap<string, HashCacheEntry> | undefined;
  private readonly folderwise: FolderwiseHashCache | undefined;
  /** Files found that the cache holds an entry for (vouching or, once read, rewritten). */
  private withEntry = 0;
  private readonly slice = new TimeSlice(SLICE_MS);
  private readonly plans: FolderPlans;
  /** Files whose stamp matched the cache. */
  private hits = 0;
  private readonly cacheWriter: CacheWriter;
  /** Files the cache does not vouch for are read while the walk goes on (made at the first). */
  private hashQueue: HashQueue<PendingHash> | undefined;
  private readonly stampPrint = new StampPrint();
  /** The walk's print, once it is over (`walkAll`). */
  stamps = '';
  /** Files whose checksum the cache does not hold for their stamp after this scan. */
  private unvouched = 0;
  /** In a deferred scan, the folders with files, whose lookups wait for `lookUpDeferred`. */
  private deferred: Array<{ folder: Folder; listing: FolderListing; plan: FolderPlan }> | undefined;
  /** Files listed whose lookup waits. */
  private deferredFiles = 0;

  /** `deferred`: the walk asks the cache nothing (`scanUnlessUnchanged`). */
  constructor(
    private readonly root: string,
    private readonly opts: ScanOptions,
    deferred: boolean,
  ) {
    this.plans = new FolderPlans(opts.ignore, root);
    this.cacheWriter = new CacheWriter(opts.hashCache);
    this.algorithm = opts.algorithm ?? DEFAULT_ALGORITHM;
    this.folderwise = isFolderwise(opts.hashCache) ? opts.hashCache : undefined;
    if (deferred) this.deferred = [];
  }

  private get hashing(): HashQueue<PendingHash> {
    return (this.hashQueue ??= new HashQueue((pending, answer) => this.record(pending, answer), this.opts.signal, undefined, this.algorithm));
  }

  /** The walk and what it saw, or nothing kept of a walk that failed. */
  async walkAll(): Promise<void> {
    try {
      await this.walk();
    } catch (error) {
      this.abandon();
      throw error;
    }
    await this.lookBelowSkippedFolders();
    this.stamps = this.stampPrint.result(this.folders, this.skipped);
  }

  /** The files the cache could not vouch for are read, and the cache is brought up to date. */
  async finish(): Promise<ScanResult> {
    this.settleRenames();
    await this.hashPending();
    await this.pruneCache();
    const { files, folders, skipped, hashed, renamed, temps } = this;
    return { files, folders, skipped, hashed, renamed, stamps: this.unvouched === 0 ? this.stamps : null, temps };
  }

  /** Phase 1: list every folder and lstat every file; cache hits are final here (unless deferred). */
  async walk(): Promise<void> {
    const pool = fsWorkers();
    // The workers boot (tens of ms) while the cache loads (hundreds, once per process).
    pool.warm();
    if (!this.folderwise && !this.deferred) this.known = await this.opts.hashCache.loadAll?.();
    const slots = pool.size * BATCHES_PER_WORKER;
    const root: Folder = { rel: '', key: '', prefix: withSeparator(this.root) };
    await runPool(
      [[root]],
      slots,
      async (batch: Folder[], enqueue) => {
        const answers = await pool.list(batch.map((f) => f.prefix));
        const found: Folder[] = [];
        for (let i = 0; i < batch.length; i++) await this.take(batch[i] as Folder, answers[i] as ListAnswer, (f) => found.push(f));
        // Small enough batches that every worker gets some, large enough to save messages.
        const size = Math.min(MAX_FOLDERS_PER_BATCH, Math.ceil(found.length / slots));
        for (let i = 0; i < found.length; i += size) enqueue(found.slice(i, i + size));
      },
      this.opts.signal,
    );
    this.plans.commit();
  }

  /**
   * Phase 1 of a deferred scan, completed: the kept listings' files are looked up in the cache,
   * a folder at a time, and those it does not vouch for are read.
   */
  async lookUpDeferred(): Promise<void> {
    const deferred = this.deferred ?? [];
    this.deferred = undefined;
    try {
      if (!this.folderwise) this.known = await this.opts.hashCache.loadAll?.();
      for (let d = 0; d < deferred.length; d++) {
        this.opts.signal?.throwIfAborted();
        const { folder, listing, plan } = deferred[d] as (typeof deferred)[number];
        // Each listing goes once its files are taken: no second copy of the tree builds up.
        deferred[d] = undefined as never;
        const cached = this.folderwise?.getMany(fileKeys(listing, plan));
        const { kept, rels, keys } = plan;
        for (let i = 0; i < kept.length; i++) {
          const index = kept[i] as number;
          if (fileAt(listing, index)) {
            this.deferredFiles--;
            this.takeFile(folder, rels[i] as string, keys[i] as string, listing, index, cached);
          }
          if (i % 64 === 63 && this.slice.due()) await this.slice.yield();
        }
        this.progress('walk');
        if (this.slice.due()) await this.slice.yield();
      }
    } catch (error) {
      this.abandon();
      throw error;
    }
  }

  /** Stops hashing after a failed walk, keeping the checksums already computed. */
  abandon(): void {
    this.hashQueue?.abandon();
    this.cacheWriter.flush();
  }

  /** Phase 2: the last of the files the cache could not vouch for are read. */
  async hashPending(): Promise<void> {
    try {
      await this.hashing.finish();
    } finally {
      // Checksums computed before an abort or an error are still right: keep them.
      this.cacheWriter.flush();
    }
    if (this.toHash.length > 0) this.progress('hash');
  }

  /**
   * Phase 3: forgets the cache entries of files that are gone (or ignored now). Only after a
   * scan that saw everything: below an unreadable folder, files are still there.
   */
  async pruneCache(): Promise<void> {
    const { known, folderwise } = this;
    if ((!known && !folderwise) || this.skipped.some((s) => s.reason === 'unreadable')) return;
    // Usually every entry belongs to a file just seen: then there is nothing to look for.
    const gone: string[] = [];
    if (folderwise) {
      if (this.withEntry === folderwise.count()) return;
      for (const [key] of folderwise.keysAndInodes()) if (!this.files.has(key)) gone.push(key);
    } else if (known) {
      let seen = this.hits;
      for (const { key } of this.toHash) if (known.has(key) && this.files.has(key)) seen++;
      if (seen === known.size) return;
      for (const key of known.keys()) if (!this.files.has(key)) gone.push(key);
    }
    if (gone.length === 0) return;
    const cache = this.opts.hashCache;
    for (let i = 0; i < gone.length; i += CACHE_BATCH) {
      if (i > 0) await this.slice.yield();
      const batch = gone.slice(i, i + CACHE_BATCH);
      if (cache.deleteMany) cache.deleteMany(batch);
      else for (const key of batch) cache.delete(key);
    }
  }

  private progress(phase: ScanProgress['phase']): void {
    const { folders, files, toHash, hashed } = this;
    this.opts.onProgress?.({ phase, folders: folders.size, files: files.size + toHash.length - hashed + this.deferredFiles, toHash: toHash.length, hashed });
  }

  /** Takes in what a worker found in `folder`, and queues its subfolders. */
  private async take(folder: Folder, answer: ListAnswer, enqueue: (folder: Folder) => void): Promise<void> {
    if ('error' in answer) {
      // The root must be readable: an empty result would look like everything was deleted.
      if (folder.rel === '') throw errorFrom(answer.error);
      if (isGone(answer.error)) this.folders.delete(folder.key);
      else this.skipped.push({ path: folder.rel, reason: 'unreadable', error: errorText(answer.error) });
      return;
    }
    const { listing } = answer;
    const found = this.folders.get(folder.key);
    if (found !== undefined && listing.inode !== 0) found.inode = listing.inode;
    const plan = this.plans.plan(folder.prefix, listing, folder);
    plan.skipped.forEach((skipped, i) => this.skipped.push(this.withInode(skipped, folder, listing, plan.skippedAt[i] as number)));
    // By the worker's own lstat: a symlink or a folder with a temp name is not ours to delete.
    for (let i = 0; i < plan.tempAt.length; i++) if (fileAt(listing, plan.tempAt[i] as number)) this.temps.push(plan.tempRels[i] as string);
    const { kept, rels, keys } = plan;
    const before = this.deferredFiles;
    const cached = this.deferred ? undefined : this.folderwise?.getMany(fileKeys(listing, plan));
    for (let i = 0; i < kept.length; i++) {
      this.visit(folder, listing, kept[i] as number, rels[i] as string, keys[i] as string, enqueue, cached);
      if (i % 64 === 63 && this.slice.due()) await this.slice.yield();
    }
    if (this.deferredFiles > before) this.deferred?.push({ folder, listing, plan });
    this.progress('walk');
    if (this.slice.due()) await this.slice.yield();
  }

  /**
   * A skipped name with the inode of what it names, for names that lost a clash or that other
   * computers cannot hold: a synced file or folder renamed so is recognised by it. Files and
   * names that are not UTF-8 were lstat'ed by the worker; a folder with any other name is here.
   */
  private withInode(skipped: SkippedEntry, folder: Folder, listing: FolderListing, index: number): SkippedEntry {
    if (skipped.reason !== 'invalid_name' && skipped.reason !== 'case_clash') return { ...skipped };
    const bytes = listing.undecodable?.get(index);
    const isFolder = bytes === undefined ? listing.types[index] === EntryType.Folder : listing.stats[index] === StatResult.Folder;
    const at = bytes === undefined ? folder.prefix + skipped.path.slice(folder.rel === '' ? 0 : folder.rel.length + 1) : Buffer.concat([Buffer.from(folder.prefix), bytes]);
    let inode = listing.inodes[index] as number;
    if (inode === 0 && isFolder && typeof at === 'string') inode = inodeOf(at);
    const entry: SkippedEntry = inode > 0 ? { ...skipped, inode } : { ...skipped };
    if (isFolder) this.skippedFolders.push({ entry, at });
    return entry;
  }

  /** The inodes below the folders skipped for their name (`SkippedEntry.inodesBelow`). */
  async lookBelowSkippedFolders(): Promise<void> {
    if (this.skippedFolders.length === 0) return;
    const found = await fsWorkers().inodesBelow(this.skippedFolders.map((f) => f.at));
    this.skippedFolders.forEach(({ entry }, i) => (entry.inodesBelow = found[i] ?? []));
  }

  private visit(
    parent: Folder,
    listing: FolderListing,
    index: number,
    rel: string,
    key: string,
    enqueue: (folder: Folder) => void,
    cached: ReadonlyMap<string, HashCacheEntry | FolderEntry> | undefined,
  ): void {
    const type = listing.types[index];
    // A file's own lstat has the last word: it may have been replaced since the listing.
    const kind = type === EntryType.File ? listing.stats[index] : type;
    switch (kind) {
      case StatResult.File:
        this.stampPrint.file(key, rel, listing, index);
        if (this.deferred) return void this.deferredFiles++;
        return this.takeFile(parent, rel, key, listing, index, cached);
      case StatResult.Folder:
        this.folders.set(key, { path: rel });
        return enqueue({ rel, key, prefix: parent.prefix + rel.slice(parent.rel === '' ? 0 : parent.rel.length + 1) + path.sep });
      case StatResult.Symlink:
        return void this.skipped.push({ path: rel, reason: 'symlink' });
      case StatResult.Gone:
        return;
      case StatResult.Error:
        return void this.skipped.push({ path: rel, reason: 'unreadable', error: entryError(listing, index) });
      default:
        return void this.skipped.push({ path: rel, reason: 'special' });
    }
  }

  /** `inFolder`: the cache's entries of the folder's files, when it is asked a folder at a time. */
  private takeFile(parent: Folder, rel: string, key: string, listing: FolderListing, index: number, inFolder: ReadonlyMap<string, HashCacheEntry | FolderEntry> | undefined): void {
    const size = listing.sizes[index] as number;
    const inode = listing.inodes[index] as number;
    const cached = inFolder ? inFolder.get(key) : this.known ? this.known.get(key) : this.opts.hashCache.get(key);
    if (cached !== undefined && algorithmOf(cached.checksum) === this.algorithm && cached.size === size && cached.inode === inode && entryTimesAre(listing, index, cached.mtimeNs, cached.ctimeNs)) {
      let { ctimeNs } = cached;
      if (ctimeNs === undefined) {
        // An entry from before the ctime was kept: it vouched on the rest then, and does now.
        ctimeNs = entryTimes(listing, index).ctimeNs;
        this.cacheWriter.put(key, { ...cached, ctimeNs });
      }
      // An entry with this path and the ctime is the file as found (FolderEntry): it serves as is.
      const same = 'path' in cached && cached.path === rel && cached.ctimeNs !== undefined;
      this.files.set(key, same ? (cached as LocalFile) : { path: rel, size, mtimeNs: cached.mtimeNs, ctimeNs, inode, checksum: cached.checksum });
      this.hits++;
      this.withEntry++;
    } else {
      const absPath = parent.prefix + rel.slice(parent.rel === '' ? 0 : parent.rel.length + 1);
      const pending: PendingHash = { rel, key, stamp: { size, ...entryTimes(listing, index), inode }, absPath, sizeHint: size, known: cached !== undefined };
      const from = this.renamedFrom(key, pending.stamp);
      if (from !== undefined) {
        this.maybeRenamed.push({ pending, from: from.key, checksum: from.entry.checksum });
        return;
      }
      this.toHash.push(pending);
      this.hashing.add(pending);
    }
  }

  /**
   * The cache key of the file this one was renamed from, if the cache knows one with the same
   * inode, size and mtime: a rename keeps all three, so a folder of 10 GiB renamed is not read
   * again. Not the ctime: renaming a file changes it on most file systems (ext4, APFS). An
   * inode is reused once its file is deleted, so the old name must be gone as well
   * (`settleRenames`), and the mtime must carry sub-second digits: with whole seconds (FAT,
   * ext3), a new file in a reused inode could match by chance.
   */
  private renamedFrom(key: string, stamp: FileStamp): { key: string; entry: HashCacheEntry } | undefined {
    const { known, folderwise } = this;
    if ((known === undefined && folderwise === undefined) || stamp.inode <= 0 || stamp.mtimeNs.endsWith('000000000')) return undefined;
    if (this.byInode === undefined) {
      const byInode = new Map<number, string | null>();
      const add = (k: string, inode: number): void => void byInode.set(inode, byInode.has(inode) ? null : k);
      if (folderwise) for (const [k, inode] of folderwise.keysAndInodes()) add(k, inode);
      else if (known) for (const [k, entry] of known) add(k, entry.inode);
      this.byInode = byInode;
    }
    const from = this.byInode.get(stamp.inode);
    if (from === undefined || from === null || from === key) return undefined;
    const entry = known ? known.get(from) : this.opts.hashCache.get(from);
    if (entry === undefined) return undefined;
    return entry.size === stamp.size && entry.mtimeNs === stamp.mtimeNs && algorithmOf(entry.checksum) === this.algorithm ? { key: from, entry } : undefined;
  }

  /** Whether `key` lies below a folder the walk could not enter: it may still be there. */
  private skippedBelow(key: string): boolean {
    return this.skipped.some((s) => s.reason === 'unreadable' && key.startsWith(`${pathKey(s.path)}/`));
  }

  /**
   * After the walk: a file whose old name is gone takes that name's checksum; any other is read
   * (two names of one inode are hard links, but reading them is cheap insurance).
   */
  settleRenames(): void {
    if (this.maybeRenamed.length === 0) return;
    // Names still on disk: seen, being read, or skipped (unreadable, a clash...).
    const present = new Set([...this.toHash.map((p) => p.key), ...this.skipped.map((s) => pathKey(s.path))]);
    for (const { pending, from, checksum } of this.maybeRenamed) {
      if (!this.files.has(from) && !present.has(from) && !this.skippedBelow(from)) {
        this.renamed++;
        this.withEntry++;
        this.cacheWriter.put(pending.key, { ...pending.stamp, checksum });
        this.files.set(pending.key, { path: pending.rel, ...pending.stamp, checksum });
      } else {
        this.toHash.push(pending);
        this.hashing.add(pending);
      }
    }
  }

  private record(pending: PendingHash, answer: HashAnswer): void {
    const { rel, key, stamp } = pending;
    if ('error' in answer) {
      this.unvouched++;
      if (!isGone(answer.error)) this.skipped.push({ path: rel, reason: 'unreadable', error: errorText(answer.error) });
      return;
    }
    this.hashed++;
    // The stamp was taken before reading, so a write during the read changes the stamp seen by
    // the next scan and the file is read again; only a write within the same mtime tick could
    // go unnoticed, hence no caching for files modified just before the scan.
    if (answer.size === stamp.size && !isRecentlyModified(stamp.mtimeNs, this.startedMs, RACY_WINDOW_MS)) {
      this.cacheWriter.put(key, { ...stamp, checksum: answer.checksum });
      this.withEntry++;
    } else {
      // Read again by the next scan: its checksum may then differ under the same stamp.
      this.unvouched++;
      if (pending.known) this.withEntry++;
    }
    this.files.set(key, { path: rel, ...stamp, checksum: answer.checksum });
    this.progress('hash');
  }
}

/** Whether entry `index` of `listing` is a file by its own lstat (a listing may be older). */
const fileAt = (listing: FolderListing, index: number): boolean => listing.types[index] === EntryType.File && listing.stats[index] === StatResult.File;

/** The keys of a folder's files, for one lookup in the cache. */
const fileKeys = (listing: FolderListing, { kept, keys }: FolderPlan): string[] => keys.filter((_, i) => listing.types[kept[i] as number] === EntryType.File);

/** 0 when it cannot be read: a folder without one holds nothing back. */
function inodeOf(absPath: string): number {
  try {
    return lstatSync(absPath, { throwIfNoEntry: false })?.ino ?? 0;
  } catch {
    return 0;
  }
}

function withSeparator(dir: string): string {
  return dir.endsWith(path.sep) ? dir : dir + path.sep;
}

/** Tells a synchronous loop when it has held the event loop long enough, and lets it go. */
class TimeSlice {
  private startedMs = performance.now();

  constructor(private readonly maxMs: number) {}

  due(): boolean {
    return performance.now() - this.startedMs >= this.maxMs;
  }

  async yield(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.startedMs = performance.now();
  }
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
function isGone(err: FsError): boolean {
  return err.code === 'ENOENT' || err.code === 'ENOTDIR';
}

function errorText(err: FsError): string {
  return err.code ?? err.message;
}

/** A worker's error as the Error the system call would have thrown here. */
function errorFrom(err: FsError): Error {
  return Object.assign(new Error(err.message), err.code === undefined ? {} : { code: err.code });
}
