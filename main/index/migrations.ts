/**
 * Schema versions, tracked in `PRAGMA user_version`. Migration i (0-based) takes a database from
 * version i to version i + 1. Entries are append-only: once shipped, a migration never changes,
 * because users' databases already went through it.
 */
import { pathKey } from '../local/paths.js';
import { type Packed, packChecksum, packId, packNs, packOptionalId, packOptionalNs, packPath } from './compact-values.js';
import type { Db } from './database.js';

export type Migration = string | ((db: Db) => void);

// Tables keyed by (workspace, key) are WITHOUT ROWID: rows sit in primary key order, so loading
// one workspace's 100,000 rows is a range scan instead of 100,000 lookups through an index.
const STATE_SCHEMA = `
CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  name TEXT NOT NULL,
  local_path TEXT NOT NULL UNIQUE,
  -- Remote change cursor; NULL until the first full listing.
  sequence INTEGER,
  last_full_listing_at INTEGER,
  excluded_paths TEXT NOT NULL DEFAULT '[]',
  paused INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1))
) STRICT;

CREATE TABLE remote_folders (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  parent_id TEXT,
  path TEXT NOT NULL,
  PRIMARY KEY (workspace_id, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE remote_assets (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  folder_id TEXT,
  path TEXT NOT NULL,
  version_id TEXT NOT NULL,
  version_number INTEGER NOT NULL,
  checksum TEXT NOT NULL,
  size INTEGER NOT NULL,
  locked_by_user_id TEXT,
  sequence INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE base_files (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  path_key TEXT NOT NULL,
  path TEXT NOT NULL,
  asset_id TEXT NOT NULL,
  version_id TEXT NOT NULL,
  checksum TEXT NOT NULL,
  size INTEGER NOT NULL,
  -- Nanoseconds as a decimal string: they do not fit a double.
  mtime_ns TEXT NOT NULL,
  inode INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, path_key)
) STRICT, WITHOUT ROWID;

CREATE TABLE base_folders (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  path_key TEXT NOT NULL,
  path TEXT NOT NULL,
  folder_id TEXT NOT NULL,
  PRIMARY KEY (workspace_id, path_key)
) STRICT, WITHOUT ROWID;

-- Keyed by pathKey, as the scanner asks (main/local/hash-cache.ts).
CREATE TABLE hash_cache (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  path_key TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ns TEXT NOT NULL,
  inode INTEGER NOT NULL,
  checksum TEXT NOT NULL,
  PRIMARY KEY (workspace_id, path_key)
) STRICT, WITHOUT ROWID;

CREATE TABLE journal (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  path TEXT NOT NULL,
  asset_id TEXT,
  state TEXT NOT NULL DEFAULT '{}',
  started_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX journal_by_workspace ON journal (workspace_id, id);
`;

const USER_FACING_SCHEMA = `
CREATE TABLE path_errors (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  path_key TEXT NOT NULL,
  path TEXT NOT NULL,
  code TEXT NOT NULL,
  message TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  first_failed_at INTEGER NOT NULL,
  last_failed_at INTEGER NOT NULL,
  next_retry_at INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, path_key)
) STRICT, WITHOUT ROWID;
CREATE INDEX path_errors_by_retry ON path_errors (workspace_id, next_retry_at);

-- Account-wide: review and change requests span every workspace of the account.
CREATE TABLE notifications (
  kind TEXT NOT NULL CHECK (kind IN ('review_request', 'change_request')),
  remote_key TEXT NOT NULL,
  first_seen_at INTEGER NOT NULL,
  read INTEGER NOT NULL DEFAULT 0 CHECK (read IN (0, 1)),
  PRIMARY KEY (kind, remote_key)
) STRICT, WITHOUT ROWID;

CREATE TABLE activity (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  workspace_id TEXT REFERENCES workspaces(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  path TEXT,
  message TEXT NOT NULL,
  details TEXT
) STRICT;
CREATE INDEX activity_by_workspace ON activity (workspace_id, id);

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT, WITHOUT ROWID;
`;

/**
 * Version 3: the journal is looked up by path for every transfer; reading every open entry each
 * time made a plan of n transfers cost n² (a 10,000-file sync spent most of its time there).
 */
const journalByPathKey: Migration = (db) => {
  db.exec(`ALTER TABLE journal ADD COLUMN path_key TEXT NOT NULL DEFAULT ''`);
  const rows = db.prepare<[], { id: number; path: string }>('SELECT id, path FROM journal').all();
  const setKey = db.prepare<[string, number]>('UPDATE journal SET path_key = ? WHERE id = ?');
  for (const row of rows) setKey.run(pathKey(row.path), row.id);
  db.exec('CREATE INDEX journal_by_path ON journal (workspace_id, kind, path_key, id)');
};

/**
 * Version 4: the remote tables hold the service's tree as listed (names as the service spells
 * them, and the items this device does not place, with a NULL path), so a restart rebuilds the
 * tree from them and asks the changes feed for what happened since, instead of listing 100,000
 * assets again. `tree_sequence` is the cursor at which the tables last held that whole tree; rows
 * copied from version 3 lack the names, so it starts NULL and the next start lists in full once.
 * SQLite cannot drop a NOT NULL: the tables are rebuilt.
 */
const REMOTE_TREE_SCHEMA = `
CREATE TABLE remote_folders_v4 (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  parent_id TEXT,
  -- NULL: not placed on this device (selective sync, or no place for it).
  path TEXT,
  name TEXT,
  PRIMARY KEY (workspace_id, id)
) STRICT, WITHOUT ROWID;
INSERT INTO remote_folders_v4 (workspace_id, id, parent_id, path) SELECT workspace_id, id, parent_id, path FROM remote_folders;
DROP TABLE remote_folders;
ALTER TABLE remote_folders_v4 RENAME TO remote_folders;

CREATE TABLE remote_assets_v4 (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  folder_id TEXT,
  path TEXT,
  version_id TEXT NOT NULL,
  version_number INTEGER NOT NULL,
  checksum TEXT NOT NULL,
  size INTEGER NOT NULL,
  locked_by_user_id TEXT,
  sequence INTEGER NOT NULL,
  file_name TEXT,
  PRIMARY KEY (workspace_id, id)
) STRICT, WITHOUT ROWID;
INSERT INTO remote_assets_v4 (workspace_id, id, folder_id, path, version_id, version_number, checksum, size, locked_by_user_id, sequence)
  SELECT workspace_id, id, folder_id, path, version_id, version_number, checksum, size, locked_by_user_id, sequence FROM remote_assets;
DROP TABLE remote_assets;
ALTER TABLE remote_assets_v4 RENAME TO remote_assets;

ALTER TABLE workspaces ADD COLUMN tree_sequence INTEGER;
`;

/** Version 5: the inode of each synced folder, to follow an empty folder renamed here. */
const FOLDER_INODES = 'ALTER TABLE base_folders ADD COLUMN inode INTEGER;';

/**
 * Version 6: the change time in each hash cache row, so that a file rewritten with its size and
 * mtime kept is read again. Older rows keep NULL: they vouched on size, mtime and inode before,
 * and still do until the next scan that finds them so fills the ctime in, without a read.
 */
const HASH_CACHE_CTIME = 'ALTER TABLE hash_cache ADD COLUMN ctime_ns TEXT;';

/**
 * Version 7: the change cursor as the text the service gave. A sequence may be a string of
 * digits beyond 64 bits, or an opaque token, which the INTEGER columns of a STRICT table cannot
 * hold; `cursor` and `tree_cursor` replace `sequence` and `tree_sequence`, which stay unused.
 */
const TEXT_CURSORS = `
ALTER TABLE workspaces ADD COLUMN cursor TEXT;
ALTER TABLE workspaces ADD COLUMN tree_cursor TEXT;
UPDATE workspaces SET cursor = CAST(sequence AS TEXT), tree_cursor = CAST(tree_sequence AS TEXT);
`;

/**
 * Version 8: the three tables with a row per asset hold their values in the fewest bytes that
 * give back the same text (compact-values.ts): the workspace's number instead of its id, UUIDs
 * and hex checksums as bytes, nanosecond times as integers, and no copy of a path that is its
 * own key. A 100,000-asset index was 80 MiB. The rows are copied in key order, which fills the
 * new tables' pages.
 */
const COMPACT_TABLES = `
ALTER TABLE workspaces ADD COLUMN num INTEGER;
UPDATE workspaces SET num = rowid;
CREATE UNIQUE INDEX workspaces_by_num ON workspaces (num);

CREATE TABLE remote_assets_v8 (
  workspace INTEGER NOT NULL REFERENCES workspaces(num) ON DELETE CASCADE,
  id ANY NOT NULL,
  folder_id ANY,
  path TEXT,
  version_id ANY NOT NULL,
  version_number INTEGER NOT NULL,
  checksum ANY NOT NULL,
  size INTEGER NOT NULL,
  locked_by_user_id ANY,
  sequence INTEGER NOT NULL,
  file_name TEXT,
  PRIMARY KEY (workspace, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE base_files_v8 (
  workspace INTEGER NOT NULL REFERENCES workspaces(num) ON DELETE CASCADE,
  path_key TEXT NOT NULL,
  -- NULL: the same as path_key.
  path TEXT,
  asset_id ANY NOT NULL,
  version_id ANY NOT NULL,
  checksum ANY NOT NULL,
  size INTEGER NOT NULL,
  mtime_ns ANY NOT NULL,
  inode INTEGER NOT NULL,
  PRIMARY KEY (workspace, path_key)
) STRICT, WITHOUT ROWID;

CREATE TABLE hash_cache_v8 (
  workspace INTEGER NOT NULL REFERENCES workspaces(num) ON DELETE CASCADE,
  path_key TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ns ANY NOT NULL,
  ctime_ns ANY,
  inode INTEGER NOT NULL,
  checksum ANY NOT NULL,
  PRIMARY KEY (workspace, path_key)
) STRICT, WITHOUT ROWID;
`;

type Row = Record<string, string | number | null>;
const text = (v: string | number | null | undefined): string => String(v);
const optionalText = (v: string | number | null | undefined): string | null => (v === null || v === undefined ? null : String(v));

/** Rows per read: a statement cannot write while another still reads. */
const COPY_PAGE = 5000;

function copyRows(db: Db, from: string, to: string, columns: string[], key: string, pack: (row: Row) => (Packed | bigint | number | null | undefined)[]): void {
  const insert = db.prepare(`INSERT INTO ${to} (workspace, ${columns.join(', ')}) VALUES (?, ${columns.map(() => '?').join(', ')})`);
  const page = db.prepare<[string, string, number], Row>(`SELECT * FROM ${from} WHERE workspace_id = ? AND ${key} > ? ORDER BY ${key} LIMIT ?`);
  for (const { id, num } of db.prepare<[], { id: string; num: number }>('SELECT id, num FROM workspaces ORDER BY num').all()) {
    for (let after = ''; ; ) {
      const rows = page.all(id, after, COPY_PAGE);
      for (const row of rows) insert.run(num, ...pack(row));
      if (rows.length < COPY_PAGE) break;
      after = text(rows.at(-1)?.[key]);
    }
  }
  db.exec(`DROP TABLE ${from}; ALTER TABLE ${to} RENAME TO ${from};`);
}

const compactTables: Migration = (db) => {
  db.exec(COMPACT_TABLES);
  // Ids sort as their bytes do only when they are UUIDs; the order just fills pages.
  copyRows(
    db,
    'remote_assets',
    'remote_assets_v8',
    ['id', 'folder_id', 'path', 'version_id', 'version_number', 'checksum', 'size', 'locked_by_user_id', 'sequence', 'file_name'],
    'id',
    (r) => [
      packId(text(r.id)),
      packOptionalId(optionalText(r.folder_id)),
      r.path,
      packId(text(r.version_id)),
      r.version_number,
      packChecksum(text(r.checksum)),
      r.size,
      packOptionalId(optionalText(r.locked_by_user_id)),
      r.sequence,
      r.file_name,
    ],
  );
  copyRows(
    db,
    'base_files',
    'base_files_v8',
    ['path_key', 'path', 'asset_id', 'version_id', 'checksum', 'size', 'mtime_ns', 'inode'],
    'path_key',
    (r) => [
      r.path_key,
      packPath(text(r.path), text(r.path_key)),
      packId(text(r.asset_id)),
      packId(text(r.version_id)),
      packChecksum(text(r.checksum)),
      r.size,
      packNs(text(r.mtime_ns)),
      r.inode,
    ],
  );
  copyRows(db, 'hash_cache', 'hash_cache_v8', ['path_key', 'size', 'mtime_ns', 'ctime_ns', 'inode', 'checksum'], 'path_key', (r) => [
    r.path_key,
    r.size,
    packNs(text(r.mtime_ns)),
    packOptionalNs(optionalText(r.ctime_ns)),
    r.inode,
    packChecksum(text(r.checksum)),
  ]);
};

/**
 * Version 9: a count of the writes to what a sync cycle plans from, kept in the file, so that a
 * fresh process can tell the index holds exactly what it held when the last quiet cycle ended
 * (main/engine/quiet-start.ts): SQLite's own marks (`data_version`, `total_changes`) last only
 * as long as a connection. Triggers count every row written by any connection, so no writer can
 * forget to. Not counted: an update that changes no value (each start writes its workspaces
 * again), the activity log and notifications, the settings the app writes after every run, which
 * no cycle reads, and the quiet cycle's own record. A later migration that adds a column to a
 * counted table recreates its update trigger.
 */
const COUNTED_TABLES = ['workspaces', 'remote_folders', 'remote_assets', 'base_files', 'base_folders', 'hash_cache', 'journal', 'path_errors', 'settings'];
const UNCOUNTED_SETTINGS = `('lastSyncAt', 'workspaceProblems', 'service', 'decidedReviews')`;
const writeCount: Migration = (db) => {
  db.exec(`
    CREATE TABLE index_writes (n INTEGER NOT NULL) STRICT;
    INSERT INTO index_writes (n) VALUES (0);
    CREATE TABLE quiet_cycles (
      workspace_id TEXT PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
      memo TEXT NOT NULL
    ) STRICT, WITHOUT ROWID;
  `);
  const count = 'BEGIN UPDATE index_writes SET n = n + 1; END;';
  for (const table of COUNTED_TABLES) {
    const columns = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`).all().map((c) => c.name);
    const changed = columns.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ');
    const counted = (row: 'new' | 'old'): string => (table === 'settings' ? ` AND ${row}.key NOT IN ${UNCOUNTED_SETTINGS}` : '');
    db.exec(`
      CREATE TRIGGER ${table}_insert_counted AFTER INSERT ON ${table} WHEN 1${counted('new')} ${count}
      CREATE TRIGGER ${table}_update_counted AFTER UPDATE ON ${table} WHEN (${changed})${counted('new')} ${count}
      CREATE TRIGGER ${table}_delete_counted AFTER DELETE ON ${table} WHEN 1${counted('old')} ${count}
    `);
  }
};

/** Version 1 held the sync state; version 2 added what the user sees (errors, notices, log, settings). */
export const MIGRATIONS: readonly Migration[] = [
  STATE_SCHEMA,
  USER_FACING_SCHEMA,
  journalByPathKey,
  REMOTE_TREE_SCHEMA,
  FOLDER_INODES,
  HASH_CACHE_CTIME,
  TEXT_CURSORS,
  compactTables,
  writeCount,
];

export class SchemaTooNewError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(`index schema version ${found} is newer than this app understands (${known}); update the app`);
    this.name = 'SchemaTooNewError';
  }
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the database to `migrations.length`. Each step runs in its own transaction together
 * with its version bump, so a crash or a failing step leaves the database at the last complete
 * version, and the next start resumes from there.
 */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): number {
  const found = schemaVersion(db);
  if (found > migrations.length) throw new SchemaTooNewError(found, migrations.length);
  const step = db.transaction((migration: Migration, version: number) => {
    // Re-read under the write lock: another process may have run this step while we waited.
    if (schemaVersion(db) >= version) return;
    if (typeof migration === 'string') db.exec(migration);
    else migration(db);
    db.pragma(`user_version = ${version}`);
  });
  migrations.forEach((migration, i) => {
    if (i >= found) step.immediate(migration, i + 1);
  });
  return schemaVersion(db);
}
