/** The scanner's hash cache (main/local/hash-cache.ts), kept in the index, one view per workspace. */
import type { HashCache, HashCacheEntry } from '../local/hash-cache.js';
import type { Db } from './database.js';

interface EntryRow {
  size: number;
  mtime_ns: string;
  inode: number;
  checksum: string;
}

/** Statements shared by every workspace's view, prepared once per index. */
export class HashCacheStatements {
  readonly get;
  readonly put;
  readonly delete;
  readonly putMany;

  constructor(db: Db) {
    this.get = db.prepare<[string, string], EntryRow>(
      'SELECT size, mtime_ns, inode, checksum FROM hash_cache WHERE workspace_id = ? AND path_key = ?',
    );
    this.put = db.prepare<[string, string, number, string, number, string]>(
      'INSERT OR REPLACE INTO hash_cache (workspace_id, path_key, size, mtime_ns, inode, checksum) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.delete = db.prepare<[string, string]>('DELETE FROM hash_cache WHERE workspace_id = ? AND path_key = ?');
    this.putMany = db.transaction((workspaceId: string, entries: Iterable<readonly [string, HashCacheEntry]>) => {
      for (const [key, e] of entries) this.put.run(workspaceId, key, e.size, e.mtimeNs, e.inode, e.checksum);
    });
  }
}

export class SqliteHashCache implements HashCache {
  constructor(
    private readonly statements: HashCacheStatements,
    readonly workspaceId: string,
  ) {}

  get(key: string): HashCacheEntry | undefined {
    const row = this.statements.get.get(this.workspaceId, key);
    return row && { size: row.size, mtimeNs: row.mtime_ns, inode: row.inode, checksum: row.checksum };
  }

  put(key: string, entry: HashCacheEntry): void {
    this.statements.put.run(this.workspaceId, key, entry.size, entry.mtimeNs, entry.inode, entry.checksum);
  }

  delete(key: string): void {
    this.statements.delete.run(this.workspaceId, key);
  }

  /** A whole scan's results in one transaction (one commit instead of one per file). */
  putMany(entries: Iterable<readonly [string, HashCacheEntry]>): void {
    this.statements.putMany.immediate(this.workspaceId, entries);
  }
}
