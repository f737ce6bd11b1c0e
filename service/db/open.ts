import Database from 'better-sqlite3';
import { SCHEMA, SCHEMA_VERSION } from './schema.js';
import { seedReferenceData } from './reference-data.js';

export type Db = Database.Database;

export function openServiceDb(file: string): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // WAL with NORMAL loses at most the last transactions on power loss, never consistency.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
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
