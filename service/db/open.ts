import Database from 'better-sqlite3';
import { SCHEMA, SCHEMA_VERSION } from './schema.js';
import { seedReferenceData } from './reference-data.js';
import type { Db } from './db.js';

export function openServiceDb(file: string): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // WAL with NORMAL loses at most the last transactions on power loss, never consistency.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  cacheStatements(db);
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version < SCHEMA_VERSION) {
    db.transaction(() => {
      db.exec(SCHEMA);
      seedReferenceData(db);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    })();
  }
  return db;
}

/**
 * Compiling SQL costs more than running these small queries, and the code prepares its statements
 * where it uses them: keep each compiled statement by its text. Statements are never put into
 * raw/pluck/expand mode here, so one shared statement serves every caller.
 */
function cacheStatements(db: Db): void {
  const compile = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      // Queries built with a variable number of placeholders would grow the cache without end.
      if (cache.size >= 2_000) cache.clear();
      statement = compile(source);
      cache.set(source, statement);
    }
    return statement;
  }) as Db['prepare'];
}
