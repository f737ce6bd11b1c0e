import { lstatSync, mkdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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
import { addOldWorkspace, baseFile, checksumOf, useTempIndex, workspace } from './index-fixtures.js';

const { file: indexFile } = useTempIndex();

/** Ids, checksums and times in every form the index must give back as they were, shuffled by `seed`. */
function oddValues(seed: number) {
  let state = seed || 1;
  const next = (n: number): number => {
    state = (state * 48271) % 2147483647;
    return state % n;
  };
  const pick = <T,>(list: readonly T[]): T => list[next(list.length)] as T;
  const hex = (length: number): string => Array.from({ length }, () => '0123456789abcdef'[next(16)]).join('');
  const uuid = (): string => `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
  const ids = (): string[] => [uuid(), uuid().toUpperCase(), uuid().replaceAll('-', ''), `asset-${next(1000)}`, '0001', 'x', uuid() + ' ', `{${uuid()}}`];
  const checksums = (): string[] => [hex(64), hex(32), hex(40), hex(64).toUpperCase(), 'q83vEjRWeJA=', `md5:${hex(32)}`, hex(63), '', hex(2)];
  const times = ['0', '1700000000123456789', '-5', '0012', '9223372036854775807', '9223372036854775808', '-9223372036854775809', '', '1.5', ' 7', '+3'];
  const taken = new Set<string>();
  const uniqueId = (i: number): string => {
    const id = pick(ids());
    const unique = taken.has(id) ? `${id}/${i}` : id;
    taken.add(unique);
    return unique;
  };
  return Array.from({ length: 60 }, (_, i) => ({
    assetId: uniqueId(i),
    folderId: next(3) === 0 ? null : pick(ids()),
    versionId: pick(ids()),
    checksum: pick(checksums()),
    lockedByUserId: next(3) === 0 ? null : pick(ids()),
    fileName: `file ${i}.bin`,
    // Lowercase paths are their own key: stored once.
    path: next(2) === 0 ? `brand/file-${i}.psd` : `Brand/File-${i}.PSD`,
    mtimeNs: pick(times),
    ctimeNs: next(3) === 0 ? undefined : pick(times),
  }));
}

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
      'index_writes',
      'journal',
      'notifications',
      'path_errors',
      'quiet_cycles',
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
    addOldWorkspace(old);
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
    addOldWorkspace(old);
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
    addOldWorkspace(old);
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

  it('migrates a version 7 index to compact rows that give back exactly the text stored, whatever its form', async () => {
    const seed = Number(process.env.SEED ?? Date.now() % 100_000);
    const odd = oddValues(seed);
    const old = openDatabase(indexFile());
    expect(migrate(old, MIGRATIONS.slice(0, 7))).toBe(7);
    for (const ws of ['ws-1', 'ws-2']) addOldWorkspace(old, ws);
    old.prepare("UPDATE workspaces SET cursor = '42', tree_cursor = '42'").run();
    const putAsset = old.prepare(
      `INSERT INTO remote_assets (workspace_id, id, folder_id, path, version_id, version_number, checksum, size, locked_by_user_id, sequence, file_name)
       VALUES (?, ?, ?, ?, ?, 1, ?, 10, ?, 7, ?)`,
    );
    const putBase = old.prepare('INSERT INTO base_files (workspace_id, path_key, path, asset_id, version_id, checksum, size, mtime_ns, inode) VALUES (?, ?, ?, ?, ?, ?, 10, ?, 3)');
    const putHash = old.prepare('INSERT INTO hash_cache (workspace_id, path_key, size, mtime_ns, ctime_ns, inode, checksum) VALUES (?, ?, 10, ?, ?, 3, ?)');
    for (const ws of ['ws-1', 'ws-2']) {
      for (const a of odd) {
        putAsset.run(ws, a.assetId, a.folderId, a.path, a.versionId, a.checksum, a.lockedByUserId, a.fileName);
        putBase.run(ws, pathKey(a.path), a.path, a.assetId, a.versionId, a.checksum, a.mtimeNs);
        putHash.run(ws, pathKey(a.path), a.mtimeNs, a.ctimeNs ?? null, a.checksum);
      }
    }
    old.close();

    const index = openIndex(indexFile());
    try {
      const replay = `(seed ${seed}: SEED=${seed} to replay)`;
      index.workspaces.remove('ws-2');
      const tree = index.remote.loadTree('ws-1');
      expect([...(tree?.assets.values() ?? [])].map((a) => [a.id, a.folderId, a.versionId, a.checksum, a.lockedByUserId, a.fileName]), replay).toEqual(
        expect.arrayContaining(odd.map((a) => [a.assetId, a.folderId, a.versionId, a.checksum, a.lockedByUserId, a.fileName])),
      );
      expect(tree?.assets.size, replay).toBe(odd.length);
      const base = index.base.load('ws-1').files;
      const cache = await index.hashCache('ws-1').loadAll();
      for (const a of odd) {
        expect(index.remote.getFile('ws-1', a.assetId), replay).toMatchObject({ assetId: a.assetId, versionId: a.versionId, checksum: a.checksum, path: a.path });
        expect(base.get(pathKey(a.path)), replay).toEqual({ path: a.path, assetId: a.assetId, versionId: a.versionId, checksum: a.checksum, size: 10, mtimeNs: a.mtimeNs, inode: 3 });
        expect(index.base.getFile('ws-1', a.path), replay).toEqual(base.get(pathKey(a.path)));
        const entry = { size: 10, mtimeNs: a.mtimeNs, inode: 3, checksum: a.checksum, ...(a.ctimeNs === undefined ? {} : { ctimeNs: a.ctimeNs }) };
        expect(cache.get(pathKey(a.path)), replay).toEqual(entry);
        expect(index.hashCache('ws-1').get(pathKey(a.path)), replay).toEqual(entry);
      }
      // Rows written after the migration give back the same text too, and a delete by id finds its row.
      const fresh = oddValues(seed + 1).map((a, i) => ({ ...a, path: `New/${i}/${a.path}` }));
      index.base.putFiles('ws-1', fresh.map((a) => ({ path: a.path, assetId: a.assetId, versionId: a.versionId, checksum: a.checksum, size: 1, mtimeNs: a.mtimeNs, inode: 1 })));
      for (const a of fresh) expect(index.base.getFile('ws-1', a.path), replay).toMatchObject({ path: a.path, assetId: a.assetId, versionId: a.versionId, checksum: a.checksum, mtimeNs: a.mtimeNs });
      const [gone, ...kept] = odd;
      index.remote.saveTree('ws-1', { sequence: '43', since: '42', deletedAssetIds: [gone?.assetId ?? ''] });
      expect(index.remote.loadTree('ws-1')?.assets.size, replay).toBe(kept.length);
      expect(index.remote.getFile('ws-1', gone?.assetId ?? ''), replay).toBeUndefined();
      // The removed workspace took its rows with it.
      expect(index.base.load('ws-2').files.size).toBe(0);
      expect(await index.hashCache('ws-2').loadAll()).toEqual(new Map());
    } finally {
      index.close();
    }
  });

  it('gives back the pages of the tables a migration rebuilt', () => {
    const old = openDatabase(indexFile());
    expect(migrate(old, MIGRATIONS.slice(0, 7))).toBe(7);
    addOldWorkspace(old);
    const putHash = old.prepare("INSERT INTO hash_cache (workspace_id, path_key, size, mtime_ns, ctime_ns, inode, checksum) VALUES ('ws-1', ?, 10, ?, ?, 3, ?)");
    old.transaction(() => {
      for (let i = 0; i < 20_000; i++) putHash.run(`brand/logos/logo-${i}.psd`, `${1_700_000_000_000_000_000n + BigInt(i)}`, '1700000000000000000', checksumOf(i));
    })();
    old.close();
    const before = statSync(indexFile()).size;

    openIndex(indexFile()).close();
    const db = new Database(indexFile(), { readonly: true });
    expect(db.pragma('freelist_count', { simple: true })).toBe(0);
    db.close();
    expect(statSync(indexFile()).size).toBeLessThan(before * 0.6);
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
