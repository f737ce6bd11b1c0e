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
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
