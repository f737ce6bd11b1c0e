/**
 * Opens the index's SQLite connection with the settings every other module relies on.
 *
 * The index never holds secrets (API key, secret, tokens): those live in the OS keychain.
 * Nothing in this folder may store one.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

export const MEMORY = ':memory:';

/**
 * Each connection's page cache, in KiB: SQLite's own default, not the 16 MiB better-sqlite3
 * compiles in. An engine reads its index once at start-up into its model, so a larger cache only
 * held pages already copied into the heap: a no-op start-up of 100,000 assets peaked 11 MiB
 * lower with it (about 20 MiB with the young generation's cap too), and neither that, a first
 * sync of 100,000 files over the same files on disk (one transaction writes the whole listing)
 * nor a download of 20,000 took more CPU time. Pages it does not hold are in the OS's cache.
 */
export const PAGE_CACHE_KIB = 2048;

export interface DatabaseOptions {
  /** How long a statement waits for another connection's lock before failing with SQLITE_BUSY. */
  busyTimeoutMs?: number;
}

export function openDatabase(filePath: string, options: DatabaseOptions = {}): Db {
  if (filePath !== MEMORY) mkdirSync(path.dirname(path.resolve(filePath)), { recursive: true });
  const db = new Database(filePath);
  try {
    // WAL: readers (the UI's status queries) never block the engine's writes, and a commit is an
    // append to the log, so a process killed mid-transaction leaves the last committed state.
    // An in-memory database answers 'memory' and has nothing to make durable.
    db.pragma('journal_mode = WAL');
    // With WAL, NORMAL syncs the log at checkpoints instead of at every commit. A killed process
    // loses nothing committed (the log is in the OS cache); a power cut may undo the last few
    // commits but never corrupts the file. The engine tolerates that: it re-derives lost base
    // rows by comparing checksums, and commits on the service are conditional and idempotent.
    // FULL would add an fsync to each of the thousands of small commits a sync makes.
    db.pragma('synchronous = NORMAL');
    db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
    db.pragma('foreign_keys = ON');
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
