/**
 * The disk cache of pictures and fetched versions, under the state folder: files named by a hash
 * of their key (content checksums, never paths), one SQLite row per entry with its size, when it
 * was last used and what is known of its source. Past the size cap the least recently used
 * entries go, down to 90% of the cap, except those pinned while they are read.
 *
 * Crash-safe by order: a file is written under `tmp/`, renamed into place, and only then gets
 * its row; eviction deletes the row before the file. A crash can leave a file without a row
 * (removed by the sweep at the next open) or a temp file (temp folders an hour old are removed
 * at open), never a row naming a half-written file. A row whose file is gone (deleted by hand) is dropped when read.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { openDatabase, type Db } from '../index/database.js';

export interface CacheEntry<M = unknown> {
  key: string;
  /** Absolute path of the entry's file, or null for an entry that is only metadata. */
  file: string | null;
  bytes: number;
  meta: M;
}

interface Row {
  key: string;
  file: string | null;
  bytes: number;
  used_at: number;
  meta: string;
}

/** Reading an entry rewrites its row at most this often: a grid of pictures is not a stream of writes. */
const TOUCH_EVERY_MS = 60_000;
const STALE_TEMP_MS = 60 * 60_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS entries (
  key TEXT PRIMARY KEY,
  file TEXT,
  bytes INTEGER NOT NULL,
  used_at INTEGER NOT NULL,
  meta TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_by_use ON entries (used_at);
`;

export interface CacheOptions {
  /** Most bytes of files kept (metadata rows are not counted). */
  capBytes: number;
  now?: () => number;
}

export class MediaCache {
  private readonly db: Db;
  private readonly filesDir: string;
  private readonly tmpDir: string;
  private readonly now: () => number;
  private readonly pins = new Map<string, number>();
  private total: number;
  readonly capBytes: number;
  /** The sweep of files left without a row by a crash, started at open. */
  readonly swept: Promise<number>;

  constructor(
    readonly dir: string,
    options: CacheOptions,
  ) {
    this.capBytes = options.capBytes;
    this.now = options.now ?? Date.now;
    this.filesDir = join(dir, 'files');
    // One temp folder per open cache: two processes (the app and a `sync --ui` of another
    // folder) may share the cache, and neither may empty the other's.
    this.tmpDir = join(dir, 'tmp', randomBytes(8).toString('hex'));
    mkdirSync(this.filesDir, { recursive: true, mode: 0o700 });
    removeStaleTemp(join(dir, 'tmp'), this.now());
    mkdirSync(this.tmpDir, { recursive: true, mode: 0o700 });
    this.db = openDatabase(join(dir, 'cache.db'));
    this.db.exec(SCHEMA);
    this.total = (this.db.prepare('SELECT coalesce(sum(bytes), 0) AS n FROM entries').get() as { n: number }).n;
    this.swept = this.sweep();
  }

  get totalBytes(): number {
    return this.total;
  }

  get<M>(key: string): CacheEntry<M> | undefined {
    const row = this.db.prepare<[string], Row>('SELECT key, file, bytes, used_at, meta FROM entries WHERE key = ?').get(key);
    if (!row) return undefined;
    const file = row.file === null ? null : join(this.filesDir, row.file);
    if (file !== null && !existsSync(file)) {
      this.remove(row);
      return undefined;
    }
    const now = this.now();
    if (now - row.used_at >= TOUCH_EVERY_MS) this.db.prepare('UPDATE entries SET used_at = ? WHERE key = ?').run(now, key);
    return { key, file, bytes: row.bytes, meta: JSON.parse(row.meta) as M };
  }

  /** Stores `bytes` (or only `meta` when null) under `key`, replacing what was there. */
  put<M>(key: string, bytes: Uint8Array | null, meta: M): CacheEntry<M> {
    if (bytes === null) return this.record(key, null, 0, meta);
    const temp = this.tempPath();
    writeFileSync(temp, bytes, { mode: 0o600 });
    return this.adopt(key, temp, meta);
  }

  /** Moves a finished file from `tempPath()` into the cache under `key`. */
  adopt<M>(key: string, tempFile: string, meta: M, bytes?: number): CacheEntry<M> {
    if (dirname(tempFile) !== this.tmpDir) throw new Error('only files from the cache\'s own temp folder are adopted');
    const name = fileNameOf(key);
    const target = join(this.filesDir, name);
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    renameSync(tempFile, target);
    const size = bytes ?? statSync(target).size;
    return this.record(key, name, size, meta);
  }

  /** A fresh path in the cache's temp folder (emptied at every open). */
  tempPath(): string {
    // Made again if another process took it for stale after an hour without a write.
    mkdirSync(this.tmpDir, { recursive: true, mode: 0o700 });
    return join(this.tmpDir, randomBytes(12).toString('hex'));
  }

  /** Keeps `key` from eviction until the returned function is called. */
  pin(key: string): () => void {
    this.pins.set(key, (this.pins.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.pins.get(key) ?? 1) - 1;
      if (left <= 0) this.pins.delete(key);
      else this.pins.set(key, left);
    };
  }

  delete(key: string): void {
    const row = this.db.prepare<[string], Row>('SELECT key, file, bytes, used_at, meta FROM entries WHERE key = ?').get(key);
    if (row) this.remove(row);
  }

  close(): void {
    this.db.close();
    rmSync(this.tmpDir, { recursive: true, force: true });
  }

  private record<M>(key: string, name: string | null, bytes: number, meta: M): CacheEntry<M> {
    const old = this.db.prepare<[string], Row>('SELECT key, file, bytes, used_at, meta FROM entries WHERE key = ?').get(key);
    this.db.prepare('INSERT OR REPLACE INTO entries (key, file, bytes, used_at, meta) VALUES (?, ?, ?, ?, ?)').run(key, name, bytes, this.now(), JSON.stringify(meta));
    this.total += bytes - (old?.bytes ?? 0);
    if (old?.file && old.file !== name) unlinkQuietly(join(this.filesDir, old.file));
    this.evict(key);
    return { key, file: name === null ? null : join(this.filesDir, name), bytes, meta };
  }

  /** Least recently used first, down to 90% of the cap; never `keep` or a pinned entry. */
  private evict(keep: string): void {
    if (this.total <= this.capBytes) return;
    const target = this.capBytes * 0.9;
    const oldest = this.db.prepare<[number], Row>('SELECT key, file, bytes, used_at, meta FROM entries WHERE bytes > 0 ORDER BY used_at LIMIT ?');
    for (let batch = 64; this.total > target; batch *= 2) {
      const rows = oldest.all(batch).filter((r) => r.key !== keep && !this.pins.has(r.key));
      if (rows.length === 0) return;
      for (const row of rows) {
        this.remove(row);
        if (this.total <= target) return;
      }
    }
  }

  private remove(row: Row): void {
    this.db.prepare('DELETE FROM entries WHERE key = ?').run(row.key);
    this.total -= row.bytes;
    if (row.file) unlinkQuietly(join(this.filesDir, row.file));
  }

  /** Files no row names: left by a crash between a rename and its row, or an eviction's two steps. */
  private async sweep(): Promise<number> {
    const known = new Set(this.db.prepare<[], { file: string }>('SELECT file FROM entries WHERE file IS NOT NULL').all().map((r) => r.file));
    let removed = 0;
    for (const folder of await readdir(this.filesDir).catch(() => [] as string[])) {
      for (const name of await readdir(join(this.filesDir, folder)).catch(() => [] as string[])) {
        if (!this.db.open) return removed;
        if (known.has(`${folder}/${name}`)) continue;
        // Written after `known` was read: a row is on its way, or came just before.
        if (this.db.prepare('SELECT 1 FROM entries WHERE file = ?').get(`${folder}/${name}`)) continue;
        await rm(join(this.filesDir, folder, name), { force: true });
        removed += 1;
      }
    }
    return removed;
  }
}

/** `ab/abcdef…`: spread over 256 folders, so none grows to tens of thousands of names. */
function fileNameOf(key: string): string {
  const hash = createHash('sha256').update(key).digest('hex');
  return `${hash.slice(0, 2)}/${hash}`;
}

/** Temp folders of caches opened more than an hour ago: their process crashed or is long done with them. */
function removeStaleTemp(tmpRoot: string, now: number): void {
  let names: string[];
  try {
    names = readdirSync(tmpRoot);
  } catch {
    return;
  }
  for (const name of names) {
    const folder = join(tmpRoot, name);
    try {
      if (now - statSync(folder).mtimeMs > STALE_TEMP_MS) rmSync(folder, { recursive: true, force: true });
    } catch {
      // Another process removed it first.
    }
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Gone already, or held open on Windows: the sweep at the next open takes it.
  }
}
