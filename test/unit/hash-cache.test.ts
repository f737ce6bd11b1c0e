/**
 * The index's hash cache as the scanner uses it: all rows at once in an in-memory mirror that
 * every write keeps current and that reloads when the database changed behind its back.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { HashCacheStatements } from '../../main/index/hash-cache.js';
import { openIndex, type SyncIndex } from '../../main/index/sync-index.js';
import type { HashCacheEntry } from '../../main/local/hash-cache-contract.js';
import { checksumOf, useTempIndex, workspace } from './index-fixtures.js';

const { file } = useTempIndex();

const entry = (n: number): HashCacheEntry => ({ size: n, mtimeNs: `${1_700_000_000_000_000_000n + BigInt(n)}`, inode: n + 1, checksum: checksumOf(n) });

/** One app run: `withIndex` of the fixtures, for async bodies. */
async function withIndex(fn: (index: SyncIndex) => Promise<void>): Promise<void> {
  const index = openIndex(file());
  try {
    await fn(index);
  } finally {
    index.close();
  }
}

describe('the hash cache mirror', () => {
  it('loads every row of the workspace, and only its own', async () => {
    await withIndex(async (index) => {
      index.workspaces.add(workspace('ws-1'));
      index.workspaces.add(workspace('ws-2'));
      index.hashCache('ws-1').putMany([
        ['a.psd', entry(1)],
        ['brand/b.psd', entry(2)],
      ]);
      index.hashCache('ws-2').put('a.psd', entry(3));

      expect(new Map(await index.hashCache('ws-1').loadAll())).toEqual(
        new Map([
          ['a.psd', entry(1)],
          ['brand/b.psd', entry(2)],
        ]),
      );
      expect([...(await index.hashCache('ws-2').loadAll()).keys()]).toEqual(['a.psd']);
    });
  });

  it('loads many pages, and keeps what is written while it loads', async () => {
    await withIndex(async (index) => {
      index.workspaces.add(workspace('ws-1'));
      const cache = index.hashCache('ws-1');
      cache.putMany(Array.from({ length: 12_345 }, (_, i) => [`shots/${String(i).padStart(5, '0')}.jpg`, entry(i)] as const));
      const loading = cache.loadAll();
      // The first page is in; these land between pages.
      cache.put('shots/12344.jpg', entry(7));
      cache.delete('shots/12000.jpg');
      cache.put('zz-new.jpg', entry(8));
      // Until the load is complete, a lookup asks the database.
      expect(cache.get('shots/12344.jpg')).toEqual(entry(7));
      const all = await loading;
      expect(all.size).toBe(12_345);
      expect(all.get('shots/00000.jpg')).toEqual(entry(0));
      expect(all.get('shots/12344.jpg')).toEqual(entry(7));
      expect(all.has('shots/12000.jpg')).toBe(false);
      expect(all.get('zz-new.jpg')).toEqual(entry(8));
      expect(await cache.loadAll()).toBe(all);
    });
  });

  it('stays current through every write, from any view of the workspace', async () => {
    await withIndex(async (index) => {
      index.workspaces.add(workspace('ws-1'));
      const all = await index.hashCache('ws-1').loadAll();
      // Another view, as the executor takes one per action.
      const other = index.hashCache('ws-1');
      other.put('a.psd', entry(1));
      other.putMany([
        ['b.psd', entry(2)],
        ['c.psd', entry(3)],
      ]);
      other.delete('b.psd');
      other.deleteMany(['c.psd', 'never-there.psd']);

      expect(new Map(all)).toEqual(new Map([['a.psd', entry(1)]]));
      expect(index.hashCache('ws-1').get('a.psd')).toEqual(entry(1));
      expect(index.hashCache('ws-1').get('b.psd')).toBeUndefined();
    });
    await withIndex(async (index) => {
      expect(new Map(await index.hashCache('ws-1').loadAll())).toEqual(new Map([['a.psd', entry(1)]]));
    });
  });

  it('keeps only the entry fields of what it is given', async () => {
    await withIndex(async (index) => {
      index.workspaces.add(workspace('ws-1'));
      const cache = index.hashCache('ws-1');
      await cache.loadAll();
      const local = { ...entry(1), path: 'A.psd' };
      cache.put('a.psd', local);
      local.size = 99;
      expect(cache.get('a.psd')).toEqual(entry(1));
    });
  });

  it('reloads after rows went without it: a removed workspace, a rolled-back write', async () => {
    await withIndex(async (index) => {
      index.workspaces.add(workspace('ws-1'));
      index.hashCache('ws-1').put('a.psd', entry(1));
      expect((await index.hashCache('ws-1').loadAll()).size).toBe(1);

      // The rows go by ON DELETE CASCADE, which the mirror does not see.
      index.workspaces.remove('ws-1');
      index.workspaces.add(workspace('ws-1'));
      expect((await index.hashCache('ws-1').loadAll()).size).toBe(0);

      expect(() =>
        index.transaction(() => {
          index.hashCache('ws-1').put('b.psd', entry(2));
          throw new Error('the action failed');
        }),
      ).toThrow('the action failed');
      expect((await index.hashCache('ws-1').loadAll()).size).toBe(0);
    });
  });

  it('reloads after another connection wrote', async () => {
    await withIndex(async (index) => {
      index.workspaces.add(workspace('ws-1'));
      index.hashCache('ws-1').put('a.psd', entry(1));
      expect((await index.hashCache('ws-1').loadAll()).get('a.psd')).toEqual(entry(1));

      const other = openIndex(file());
      try {
        other.hashCache('ws-1').put('a.psd', entry(7));
      } finally {
        other.close();
      }
      expect((await index.hashCache('ws-1').loadAll()).get('a.psd')).toEqual(entry(7));
      expect(index.hashCache('ws-1').get('a.psd')).toEqual(entry(7));
    });
  });
});

describe("a folder's entries (getMany)", () => {
  /** How SQLite runs the folder query, step by step, on the index as it is now. */
  function folderQueryPlan(): string[] {
    const db = new Database(file());
    try {
      const { many } = new HashCacheStatements(db);
      return db
        .prepare<[string, string], { detail: string }>(`EXPLAIN QUERY PLAN ${many.source}`)
        .all('["a.psd"]', 'ws-1')
        .map((row) => row.detail);
    } finally {
      db.close();
    }
  }

  // Taking the cache as the outer loop reads every entry of the workspace for each folder, and
  // parses the folder's keys again for each entry: a scan of 100,000 files spun for minutes.
  const walksTheKeys = (plan: string[]): void => {
    const steps = plan.filter((step) => /^(SCAN|SEARCH)/.test(step));
    expect(steps[0]).toMatch(/^SCAN keys/);
    expect(steps[1]).toMatch(/^SEARCH hash_cache USING PRIMARY KEY \(workspace=\? AND path_key=\?\)/);
  };

  /** A workspace's cache of `count` entries in 5 folders, then `sql` run on the closed index. */
  async function cacheOf(count: number, sql: string): Promise<void> {
    await withIndex(async (index) => {
      index.workspaces.add(workspace('ws-1'));
      index.hashCache('ws-1').putMany(Array.from({ length: count }, (_, i) => [`d${i % 5}/f${i}.psd`, entry(i)] as const));
    });
    const db = new Database(file());
    db.exec(sql);
    db.close();
  }

  it('walks the keys asked for and finds each by the primary key, in a new index without statistics', async () => {
    // Closing the index may have gathered some (PRAGMA optimize): a first sync runs without.
    await cacheOf(50, 'DROP TABLE IF EXISTS sqlite_stat1; DROP TABLE IF EXISTS sqlite_stat4;');
    walksTheKeys(folderQueryPlan());
  });

  it('and once SQLite has gathered statistics of the tables', async () => {
    await cacheOf(500, 'ANALYZE');
    walksTheKeys(folderQueryPlan());
  });

  it('hands back the entries of the keys asked for that the cache holds, under those keys', async () => {
    await withIndex(async (index) => {
      index.workspaces.add(workspace('ws-1'));
      const cache = index.hashCache('ws-1');
      cache.putMany([
        ['a.psd', entry(1)],
        ['brand/b.psd', entry(2)],
        ['brand/c.psd', entry(3)],
      ]);
      const found = cache.getMany(['brand/c.psd', 'missing.psd', 'a.psd']);
      expect([...found.keys()].sort()).toEqual(['a.psd', 'brand/c.psd']);
      expect(found.get('a.psd')).toMatchObject({ path: 'a.psd', ...entry(1) });
      expect(found.get('brand/c.psd')).toMatchObject({ path: 'brand/c.psd', ...entry(3) });
    });
  });
});
