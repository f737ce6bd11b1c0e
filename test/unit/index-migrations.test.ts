import { lstatSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/index/database.js';
import { MIGRATIONS, SchemaTooNewError, migrate, schemaVersion } from '../../main/index/migrations.js';
import { openIndex } from '../../main/index/sync-index.js';
import { hashBuffer } from '../../main/local/hash.js';
import { createIgnoreMatcher } from '../../main/local/ignore.js';
import { pathKey } from '../../main/local/paths.js';
import { scanTree } from '../../main/local/scanner.js';
import { WorkspaceStore } from '../../main/index/workspaces.js';
import { baseFile, useTempIndex, workspace } from './index-fixtures.js';

const { file: indexFile } = useTempIndex();

function tableNames(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all()
      .map((r) => r.name);
  } finally {
    db.close();
  }
}

describe('index schema', () => {
  it('creates every table in an empty file and records the latest version', () => {
    openIndex(indexFile()).close();

    const db = new Database(indexFile());
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    expect(tableNames(indexFile())).toEqual([
      'activity',
      'base_files',
      'base_folders',
      'hash_cache',
      'journal',
      'notifications',
      'path_errors',
      'remote_assets',
      'remote_folders',
      'settings',
      'workspaces',
    ]);
  });

  it('sets the durability and safety pragmas on each connection', () => {
    const db = openDatabase(indexFile(), { busyTimeoutMs: 1234 });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(1234);
    db.close();
  });

  it('migrates a version 1 database and keeps its data', () => {
    const old = openDatabase(indexFile());
    expect(migrate(old, MIGRATIONS.slice(0, 1))).toBe(1);
    new WorkspaceStore(old).add(workspace());
    // Rows as version 1 wrote them (today's store names columns added since).
    const putFile = old.prepare('INSERT INTO base_files (workspace_id, path_key, path, asset_id, version_id, checksum, size, mtime_ns, inode) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    for (const f of [baseFile(1), baseFile(2)]) putFile.run('ws-1', pathKey(f.path), f.path, f.assetId, f.versionId, f.checksum, f.size, f.mtimeNs, f.inode);
    old.prepare('INSERT INTO base_folders (workspace_id, path_key, path, folder_id) VALUES (?, ?, ?, ?)').run('ws-1', 'drafts', 'Drafts', 'folder-1');
    old.close();
    expect(tableNames(indexFile())).not.toContain('path_errors');

    const index = openIndex(indexFile());
    expect(index.workspaces.get('ws-1')?.name).toBe('Workspace ws-1');
    expect([...index.base.load('ws-1').files.values()]).toEqual(expect.arrayContaining([baseFile(1), baseFile(2)]));
    // A folder row from before inodes were kept has none until it is recorded again.
    expect(index.base.getFolder('ws-1', 'Drafts')).toEqual({ path: 'Drafts', folderId: 'folder-1' });
    index.base.putFolder('ws-1', { path: 'Drafts', folderId: 'folder-1', inode: 42 });
    expect(index.base.load('ws-1').folders.get('drafts')).toEqual({ path: 'Drafts', folderId: 'folder-1', inode: 42 });
    // The tables version 2 added work on the migrated file.
    index.errors.record('ws-1', 'a.txt', { code: 'EACCES', message: 'permission denied' }, 0);
    index.settings.set('theme', 'dark');
    index.close();

    const reopened = openIndex(indexFile());
    expect(reopened.errors.list('ws-1').map((e) => e.code)).toEqual(['EACCES']);
    expect(reopened.settings.get('theme')).toBe('dark');
    reopened.close();
  });

  it('migrates a version 2 journal so its open entries are found by path, whatever the case', () => {
    const old = openDatabase(indexFile());
    expect(migrate(old, MIGRATIONS.slice(0, 2))).toBe(2);
    new WorkspaceStore(old).add(workspace());
    old
      .prepare("INSERT INTO journal (workspace_id, kind, path, state, started_at, updated_at) VALUES ('ws-1', 'download', 'Art/Hero.PSD', '{}', 1, 1)")
      .run();
    old.close();

    const index = openIndex(indexFile());
    expect(index.journal.openAt('ws-1', 'download', 'art/hero.psd').map((e) => e.path)).toEqual(['Art/Hero.PSD']);
    expect(index.journal.openAt('ws-1', 'upload', 'art/hero.psd')).toEqual([]);
    const moved = index.journal.begin({ workspaceId: 'ws-1', kind: 'move', path: 'a.txt' });
    index.journal.update(moved.id, { path: 'B.txt' });
    expect(index.journal.openAt('ws-1', 'move', 'b.txt').map((e) => e.id)).toEqual([moved.id]);
    expect(index.journal.openAt('ws-1', 'move', 'a.txt')).toEqual([]);
    index.close();
  });

  it('migrates a version 5 hash cache: its rows vouch without a ctime until a scan fills it in, reading nothing', async () => {
    const dir = path.join(path.dirname(indexFile()), 'files');
    mkdirSync(dir);
    const names = ['a.txt', 'b.txt', 'c.txt'];
    for (const name of names) {
      writeFileSync(path.join(dir, name), `bytes of ${name}`);
      utimesSync(path.join(dir, name), 1_700_000_000.25, 1_700_000_000.25);
    }
    const old = openDatabase(indexFile());
    expect(migrate(old, MIGRATIONS.slice(0, 5))).toBe(5);
    new WorkspaceStore(old).add(workspace());
    const putRow = old.prepare('INSERT INTO hash_cache (workspace_id, path_key, size, mtime_ns, inode, checksum) VALUES (?, ?, ?, ?, ?, ?)');
    for (const name of names) {
      const stats = lstatSync(path.join(dir, name), { bigint: true });
      putRow.run('ws-1', name, Number(stats.size), stats.mtimeNs.toString(), Number(stats.ino), hashBuffer(`bytes of ${name}`));
    }
    old.close();

    const index = openIndex(indexFile());
    try {
      const scan = () => scanTree(dir, { hashCache: index.hashCache('ws-1'), ignore: createIgnoreMatcher() });
      expect((await scan()).hashed).toBe(0);
      for (const name of names) expect(index.hashCache('ws-1').get(name)?.ctimeNs).toBe(lstatSync(path.join(dir, name), { bigint: true }).ctimeNs.toString());
      // From now on the ctime counts: a rewrite that keeps size and mtime is read.
      writeFileSync(path.join(dir, 'b.txt'), 'BYTES of b.txt');
      utimesSync(path.join(dir, 'b.txt'), 1_700_000_000.25, 1_700_000_000.25);
      const after = await scan();
      expect(after.hashed).toBe(1);
      expect(after.files.get('b.txt')?.checksum).toBe(hashBuffer('BYTES of b.txt'));
    } finally {
      index.close();
    }
  });

  it('rolls a failing migration back entirely and stays at the last good version', () => {
    openIndex(indexFile()).close();
    const db = openDatabase(indexFile());
    const broken = [...MIGRATIONS, 'CREATE TABLE half_done (a INTEGER); INSERT INTO no_such_table VALUES (1);'];

    expect(() => migrate(db, broken)).toThrow(/no_such_table/);
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    db.close();
    expect(tableNames(indexFile())).not.toContain('half_done');
  });

  it('runs migrations given as functions', () => {
    const db = openDatabase(indexFile());
    migrate(db, [...MIGRATIONS, (d) => d.exec("INSERT INTO settings (key, value) VALUES ('migrated', 'true')")]);
    expect(schemaVersion(db)).toBe(MIGRATIONS.length + 1);
    expect(db.prepare('SELECT value FROM settings WHERE key = ?').pluck().get('migrated')).toBe('true');
    db.close();
  });

  it('refuses a database written by a newer version of the app', () => {
    const db = openDatabase(indexFile());
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();

    expect(() => openIndex(indexFile())).toThrow(SchemaTooNewError);
  });

  it('opens in memory for quick use', () => {
    const index = openIndex(':memory:');
    index.workspaces.add(workspace());
    expect(index.workspaces.list()).toHaveLength(1);
    index.close();
    expect(index.isOpen).toBe(false);
  });
});
