/**
 * The scanner's hash cache (main/local/hash-cache-contract.ts), kept in the index, one view per workspace.
 *
 * A whole-tree scan looks up every file: as 100,000 point queries that alone took longer than
 * listing the tree. So a scan asks one query per folder (`getMany`), and holds no more than that
 * folder's entries: a mirror of every entry cost 0.2 KiB a file for the life of the process.
 * `loadAll` still loads a workspace's rows, a page at a time, into a mirror that lives as long
 * as the index, for a caller that wants them all; every write through these views keeps it
 * current, and while it is loaded, lookups cost no query.
 */
import type { FolderEntry, HashCache, HashCacheEntry } from '../local/hash-cache-contract.js';
import { type Packed, WORKSPACE_NUMBER, checksumText, nsText, packChecksum, packNs, packOptionalNs } from './compact-values.js';
import type { Db } from './database.js';

interface EntryRow {
  size: number;
  mtime_ns: string;
  /** NULL in rows from before schema 6. */
  ctime_ns: string | null;
  inode: number;
  checksum: string;
}

const ENTRY_COLUMNS = `size, ${nsText('mtime_ns')} AS mtime_ns, ${nsText('ctime_ns')} AS ctime_ns, inode, ${checksumText('checksum')} AS checksum`;
const WHERE_WORKSPACE = `workspace = ${WORKSPACE_NUMBER}`;

interface KeyedRow extends EntryRow {
  path_key: string;
}

/** `path_key`, then the entry's columns as ENTRY_COLUMNS reads them: a page is read as arrays. */
type KeyedTuple = [pathKey: string, size: number, mtimeNs: string, ctimeNs: string | null, inode: number, checksum: string];
/** `getMany`'s row: the key's place among the keys asked for, then the entry's columns. */
type PlacedTuple = [at: number, size: number, mtimeNs: string, ctimeNs: string | null, inode: number, checksum: string];

/** One workspace's rows in memory, and what the database looked like when they were read. */
interface Mirror {
  entries: Map<string, HashCacheEntry>;
  /** SQLite's `data_version` then: it changes when another connection commits. */
  dataVersion: number;
  /** Set while pages are still being read. */
  loading?: {
    /** Keys written meanwhile: the mirror already has them newer than a page read later. */
    touched: Set<string>;
    done: Promise<void>;
  };
}

/** Rows per query while loading: about 10 ms each, then the event loop gets a turn. */
const PAGE_ROWS = 5000;

/** Statements shared by every workspace's view, prepared once per index, and the mirrors. */
export class HashCacheStatements {
  readonly get;
  readonly put;
  readonly delete;
  readonly putMany;
  readonly deleteMany;
  readonly page;
  readonly count;
  readonly many;
  readonly keysAndInodes;
  readonly below;
  readonly moveBelow;
  readonly mirrors = new Map<string, Mirror>();

  constructor(private readonly db: Db) {
    this.get = db.prepare<[string, string], EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM hash_cache WHERE ${WHERE_WORKSPACE} AND path_key = ?`);
    this.put = db.prepare<[string, string, number, bigint | string, bigint | string | null, number, Packed]>(
      `INSERT OR REPLACE INTO hash_cache (workspace, path_key, size, mtime_ns, ctime_ns, inode, checksum) VALUES (${WORKSPACE_NUMBER}, ?, ?, ?, ?, ?, ?)`,
    );
    this.delete = db.prepare<[string, string]>(`DELETE FROM hash_cache WHERE ${WHERE_WORKSPACE} AND path_key = ?`);
    // Arrays, not a row object per entry that is then copied into the entry.
    this.page = db
      .prepare<[string, string, number], KeyedTuple>(`SELECT path_key, ${ENTRY_COLUMNS} FROM hash_cache WHERE ${WHERE_WORKSPACE} AND path_key > ? ORDER BY path_key LIMIT ?`)
      .raw(true);
    this.count = db.prepare<[string], number>(`SELECT count(*) FROM hash_cache WHERE ${WHERE_WORKSPACE}`).pluck();
    // One folder's keys as a JSON array: one statement for any number of keys, each found by
    // the primary key. A row names its key by its place in the array, so the caller's key
    // strings serve as they are: no string is made per row only to be dropped. CROSS JOIN keeps
    // the keys the outer loop: without statistics (a new index) SQLite would otherwise walk the
    // workspace's whole cache and parse the keys again for each entry, at every folder.
    this.many = db
      .prepare<[string, string], PlacedTuple>(`SELECT keys.key, ${ENTRY_COLUMNS} FROM json_each(?) AS keys CROSS JOIN hash_cache ON ${WHERE_WORKSPACE} AND path_key = keys.value`)
      .raw(true);
    this.keysAndInodes = db.prepare<[string], [string, number]>(`SELECT path_key, inode FROM hash_cache WHERE ${WHERE_WORKSPACE}`).raw(true);
    // [`k/`, `k0`) holds exactly the keys below `k` (`0` follows `/`), served by the key index.
    this.below = db.prepare<[string, string, string], KeyedRow>(
      `SELECT path_key, ${ENTRY_COLUMNS} FROM hash_cache WHERE ${WHERE_WORKSPACE} AND path_key >= ? AND path_key < ?`,
    );
    this.moveBelow = db.transaction((workspaceId: string, rows: readonly KeyedRow[], rekey: (key: string) => string) => {
      for (const row of rows) {
        this.delete.run(workspaceId, row.path_key);
        this.putEntry(workspaceId, rekey(row.path_key), entryOf(row));
      }
    });
    this.putMany = db.transaction((workspaceId: string, entries: Iterable<readonly [string, HashCacheEntry]>) => {
      for (const [key, e] of entries) this.putEntry(workspaceId, key, e);
    });
    this.deleteMany = db.transaction((workspaceId: string, keys: Iterable<string>) => {
      for (const key of keys) this.delete.run(workspaceId, key);
    });
  }

  putEntry(workspaceId: string, key: string, e: HashCacheEntry): void {
    this.put.run(workspaceId, key, e.size, packNs(e.mtimeNs), packOptionalNs(e.ctimeNs), e.inode, packChecksum(e.checksum));
  }

  dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }
}

/** What a loaded entry may share its strings with: the remote tree of the cycle, by path key. */
export type HashCacheAlike = ReadonlyMap<string, { path: string; checksum: string }>;

export class SqliteHashCache implements HashCache {
  constructor(
    private readonly statements: HashCacheStatements,
    readonly workspaceId: string,
    /**
     * A synced file's key is its remote path (most paths are their own key) and its checksum the
     * remote one: a loaded entry takes those strings rather than keep equal copies (0.1 KiB a file).
     */
    private readonly alike?: HashCacheAlike,
  ) {}

  get(key: string): HashCacheEntry | undefined {
    const mirror = this.statements.mirrors.get(this.workspaceId);
    if (mirror && !mirror.loading) return mirror.entries.get(key);
    const row = this.statements.get.get(this.workspaceId, key);
    return row && entryOf(row);
  }

  /**
   * The entries of `keys`, in one query and always from the database (a mirror, if one is
   * loaded, may predate another connection's commit): a scan asks per folder, so a workspace's
   * entries are never all in memory at once (0.2 KiB a file).
   */
  getMany(keys: readonly string[]): Map<string, FolderEntry> {
    const found = new Map<string, FolderEntry>();
    if (keys.length === 0) return found;
    for (const row of this.statements.many.iterate(JSON.stringify(keys), this.workspaceId)) {
      const key = keys[row[0]] as string;
      found.set(key, this.folderEntry(key, row));
    }
    return found;
  }

  count(): number {
    return this.statements.count.get(this.workspaceId) ?? 0;
  }

  keysAndInodes(): IterableIterator<[string, number]> {
    return this.statements.keysAndInodes.iterate(this.workspaceId);
  }

  put(key: string, entry: HashCacheEntry): void {
    this.statements.putEntry(this.workspaceId, key, entry);
    this.mirror(key, entry);
  }

  delete(key: string): void {
    this.statements.delete.run(this.workspaceId, key);
    this.mirror(key, undefined);
  }

  /** A whole scan's results in one transaction (one commit instead of one per file). */
  putMany(entries: Iterable<readonly [string, HashCacheEntry]>): void {
    const list = [...entries];
    this.statements.putMany.immediate(this.workspaceId, list);
    for (const [key, entry] of list) this.mirror(key, entry);
  }

  /** Forgets files that are gone, in one transaction. */
  deleteMany(keys: Iterable<string>): void {
    const list = [...keys];
    if (list.length === 0) return;
    this.statements.deleteMany.immediate(this.workspaceId, list);
    for (const key of list) this.mirror(key, undefined);
  }

  /** Re-keys the entries below folder key `fromKey` to below `toKey`: the folder moved on disk. */
  moveBelow(fromKey: string, toKey: string): void {
    const rows = this.statements.below.all(this.workspaceId, `${fromKey}/`, `${fromKey}0`);
    if (rows.length === 0) return;
    const rekey = (key: string): string => toKey + key.slice(fromKey.length);
    this.statements.moveBelow.immediate(this.workspaceId, rows, rekey);
    for (const row of rows) {
      this.mirror(row.path_key, undefined);
      this.mirror(rekey(row.path_key), entryOf(row));
    }
  }

  /**
   * Every entry of the workspace, from the mirror while it still matches the database. Writes
   * that bypass these views make it reload: another connection's commits (they change
   * `data_version`), and rows the database removed by itself, as when the workspace is removed
   * (its rows go by ON DELETE CASCADE) or a transaction that wrote through a view rolled back
   * (the counts then differ). Counting costs a few milliseconds per 100,000 rows.
   */
  async loadAll(): Promise<ReadonlyMap<string, HashCacheEntry>> {
    const { mirrors, count } = this.statements;
    const current = mirrors.get(this.workspaceId);
    if (current?.loading) {
      await current.loading.done;
      return this.loadAll();
    }
    const dataVersion = this.statements.dataVersion();
    if (current && current.dataVersion === dataVersion && current.entries.size === count.get(this.workspaceId)) return current.entries;

    let finished = (): void => {};
    const loading = { touched: new Set<string>(), done: new Promise<void>((resolve) => (finished = resolve)) };
    const mirror: Mirror = { entries: new Map(), dataVersion, loading };
    mirrors.set(this.workspaceId, mirror);
    try {
      for (let after = ''; ; ) {
        const rows = this.statements.page.all(this.workspaceId, after, PAGE_ROWS);
        for (const row of rows) if (!loading.touched.has(row[0])) this.keep(mirror.entries, row);
        const last = rows.at(-1);
        if (!last || rows.length < PAGE_ROWS) break;
        after = last[0];
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      mirror.loading = undefined;
      return mirror.entries;
    } catch (error) {
      if (mirrors.get(this.workspaceId) === mirror) mirrors.delete(this.workspaceId);
      throw error;
    } finally {
      finished();
    }
  }

  /** Sets the row's entry under its key, with the strings of `alike` where equal. */
  private keep(entries: Map<string, HashCacheEntry>, [key, size, mtimeNs, ctimeNs, inode, checksum]: KeyedTuple): void {
    const same = this.alike?.get(key);
    const entry: HashCacheEntry = { size, mtimeNs, inode, checksum: same?.checksum === checksum ? same.checksum : checksum };
    if (ctimeNs !== null) entry.ctimeNs = ctimeNs;
    entries.set(same?.path === key ? same.path : key, entry);
  }

  /** The row as a fresh entry with the synced path (else the key), with the strings of `alike` where equal. */
  private folderEntry(key: string, [, size, mtimeNs, ctimeNs, inode, checksum]: PlacedTuple): FolderEntry {
    const same = this.alike?.get(key);
    const path = same?.path ?? key;
    const shared = same?.checksum === checksum ? same.checksum : checksum;
    // The property order of a scanned file (LocalFile), so that both share one shape.
    return ctimeNs === null ? { path, size, mtimeNs, inode, checksum: shared } : { path, size, mtimeNs, ctimeNs, inode, checksum: shared };
  }

  /** Keeps the mirror, if any, as the database now is. */
  private mirror(key: string, entry: HashCacheEntry | undefined): void {
    const mirror = this.statements.mirrors.get(this.workspaceId);
    if (!mirror) return;
    mirror.loading?.touched.add(key);
    if (entry) mirror.entries.set(key, copyOf(entry));
    else mirror.entries.delete(key);
  }
}

function entryOf(row: EntryRow): HashCacheEntry {
  const entry: HashCacheEntry = { size: row.size, mtimeNs: row.mtime_ns, inode: row.inode, checksum: row.checksum };
  if (row.ctime_ns !== null) entry.ctimeNs = row.ctime_ns;
  return entry;
}

/** Only the entry's own fields: callers may pass a richer object (a LocalFile) and keep mutating it. */
function copyOf(e: HashCacheEntry): HashCacheEntry {
  const entry: HashCacheEntry = { size: e.size, mtimeNs: e.mtimeNs, inode: e.inode, checksum: e.checksum };
  if (e.ctimeNs !== undefined) entry.ctimeNs = e.ctimeNs;
  return entry;
}
