/**
 * The synced base: each path as both sides last agreed on it. Rows are keyed by `pathKey`, so a
 * case-only rename replaces the row instead of leaving a twin behind.
 */
import { pathKey } from '../local/paths.js';
import type { BaseFile, BaseFolder, LocalFile, RemoteFile } from '../model/views.js';
import { type Packed, WORKSPACE_NUMBER, checksumText, idText, nsText, packChecksum, packId, packNs, packPath, pathText } from './compact-values.js';
import type { Db } from './database.js';

export interface BaseTree {
  files: Map<string, BaseFile>;
  folders: Map<string, BaseFolder>;
}

interface FileRow {
  path: string;
  asset_id: string;
  version_id: string;
  checksum: string;
  size: number;
  mtime_ns: string;
  inode: number;
}

interface FolderRow {
  path: string;
  folder_id: string;
  inode: number | null;
}

/**
 * `path_key`, the path as stored (null where it is the key), then the rest of FILE_COLUMNS: the
 * whole base is read as arrays (see `load`).
 */
type FileTuple = [pathKey: string, path: string | null, assetId: string, versionId: string, checksum: string, size: number, mtimeNs: string, inode: number];
type FolderTuple = [pathKey: string, path: string, folderId: string, inode: number | null];

/** Reads the compact columns (compact-values.ts) back as the text that was stored. */
const VALUE_COLUMNS = [
  `${idText('asset_id')} AS asset_id`,
  `${idText('version_id')} AS version_id`,
  `${checksumText('checksum')} AS checksum`,
  'size',
  `${nsText('mtime_ns')} AS mtime_ns`,
  'inode',
];
const FILE_COLUMNS = [`${pathText('path', 'path_key')} AS path`, ...VALUE_COLUMNS].join(', ');
const WHERE_WORKSPACE = `workspace = ${WORKSPACE_NUMBER}`;

const toFile = (row: FileRow): BaseFile => ({
  path: row.path,
  assetId: row.asset_id,
  versionId: row.version_id,
  checksum: row.checksum,
  size: row.size,
  mtimeNs: row.mtime_ns,
  inode: row.inode,
});

const toFolder = (row: FolderRow): BaseFolder => folderOf(row.path, row.folder_id, row.inode);

const folderOf = (path: string, folderId: string, inode: number | null): BaseFolder => (inode === null ? { path, folderId } : { path, folderId, inode });

/**
 * Bounds of the keys strictly below folder key `k`: every such key starts with `k/`, and `0` is
 * the character right after `/`, so [`k/`, `k0`) holds exactly them and the primary key index
 * serves the range (a LIKE would need escaping of `%` and `_` in names).
 */
function subtreeRange(folderPath: string): [string, string] {
  const key = pathKey(folderPath);
  return [`${key}/`, `${key}0`];
}

export class BaseStateStore {
  private readonly putFileStmt;
  private readonly putFolderStmt;
  private readonly deleteFileStmt;
  private readonly deleteFolderStmt;
  private readonly deleteFilesBelowStmt;
  private readonly deleteFoldersBelowStmt;
  private readonly getFileStmt;
  private readonly getFolderStmt;
  private readonly allFilesStmt;
  private readonly allFoldersStmt;
  private readonly countFilesStmt;
  private readonly hasFilesStmt;
  private readonly putFilesTx;
  private readonly putFoldersTx;
  private readonly deleteTreeTx;
  private readonly filesBelowStmt;
  private readonly foldersBelowStmt;
  private readonly moveTreeTx;

  constructor(db: Db) {
    this.putFileStmt = db.prepare<[string, string, string | null, Packed, Packed, Packed, number, bigint | string, number]>(
      `INSERT OR REPLACE INTO base_files (workspace, path_key, path, asset_id, version_id, checksum, size, mtime_ns, inode)
       VALUES (${WORKSPACE_NUMBER}, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.putFolderStmt = db.prepare<[string, string, string, string, number | null]>(
      'INSERT OR REPLACE INTO base_folders (workspace_id, path_key, path, folder_id, inode) VALUES (?, ?, ?, ?, ?)',
    );
    this.deleteFileStmt = db.prepare<[string, string]>(`DELETE FROM base_files WHERE ${WHERE_WORKSPACE} AND path_key = ?`);
    this.deleteFolderStmt = db.prepare<[string, string]>('DELETE FROM base_folders WHERE workspace_id = ? AND path_key = ?');
    this.deleteFilesBelowStmt = db.prepare<[string, string, string]>(
      `DELETE FROM base_files WHERE ${WHERE_WORKSPACE} AND path_key >= ? AND path_key < ?`,
    );
    this.deleteFoldersBelowStmt = db.prepare<[string, string, string]>(
      'DELETE FROM base_folders WHERE workspace_id = ? AND path_key >= ? AND path_key < ?',
    );
    this.getFileStmt = db.prepare<[string, string], FileRow>(
      `SELECT ${FILE_COLUMNS} FROM base_files WHERE ${WHERE_WORKSPACE} AND path_key = ?`,
    );
    this.getFolderStmt = db.prepare<[string, string], FolderRow>(
      'SELECT path, folder_id, inode FROM base_folders WHERE workspace_id = ? AND path_key = ?',
    );
    // Every cycle reads the whole base (100,000 rows at scale): as arrays, with the key the row
    // is stored under, it costs no row object and no NFC pass per row.
    this.allFilesStmt = db.prepare<[string], FileTuple>(`SELECT path_key, path, ${VALUE_COLUMNS.join(', ')} FROM base_files WHERE ${WHERE_WORKSPACE}`).raw(true);
    this.allFoldersStmt = db.prepare<[string], FolderTuple>('SELECT path_key, path, folder_id, inode FROM base_folders WHERE workspace_id = ?').raw(true);
    this.countFilesStmt = db.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM base_files WHERE ${WHERE_WORKSPACE}`);
    this.hasFilesStmt = db.prepare<[string], { any: number }>(`SELECT EXISTS (SELECT 1 FROM base_files WHERE ${WHERE_WORKSPACE}) AS any`);

    this.putFilesTx = db.transaction((workspaceId: string, files: Iterable<BaseFile>) => {
      for (const file of files) this.putFile(workspaceId, file);
    });
    this.putFoldersTx = db.transaction((workspaceId: string, folders: Iterable<BaseFolder>) => {
      for (const folder of folders) this.putFolder(workspaceId, folder);
    });
    this.filesBelowStmt = db.prepare<[string, string, string], FileRow>(
      `SELECT ${FILE_COLUMNS} FROM base_files WHERE ${WHERE_WORKSPACE} AND path_key >= ? AND path_key < ?`,
    );
    this.foldersBelowStmt = db.prepare<[string, string, string], FolderRow>(
      'SELECT path, folder_id, inode FROM base_folders WHERE workspace_id = ? AND path_key >= ? AND path_key < ?',
    );
    this.moveTreeTx = db.transaction((workspaceId: string, from: string, to: string, folderId: string) => {
      const range = subtreeRange(from);
      // A rename keeps the folder's inode, on whichever side it was made.
      const inode = this.getFolderStmt.get(workspaceId, pathKey(from))?.inode ?? null;
      const files = this.filesBelowStmt.all(workspaceId, ...range).map(toFile);
      const folders = this.foldersBelowStmt.all(workspaceId, ...range).map(toFolder);
      this.deleteFilesBelowStmt.run(workspaceId, ...range);
      this.deleteFoldersBelowStmt.run(workspaceId, ...range);
      this.deleteFolderStmt.run(workspaceId, pathKey(from));
      const depth = from.split('/').length;
      const moved = (p: string): string => [to, ...p.split('/').slice(depth)].join('/');
      for (const f of files) this.putFile(workspaceId, { ...f, path: moved(f.path) });
      for (const f of folders) this.putFolder(workspaceId, { ...f, path: moved(f.path) });
      this.putFolder(workspaceId, folderOf(to, folderId, inode));
    });
    this.deleteTreeTx = db.transaction((workspaceId: string, folderPath: string) => {
      const [from, to] = subtreeRange(folderPath);
      this.deleteFilesBelowStmt.run(workspaceId, from, to);
      this.deleteFoldersBelowStmt.run(workspaceId, from, to);
      this.deleteFolderStmt.run(workspaceId, pathKey(folderPath));
    });
  }

  /** How many files are synced: for status lines, without loading the rows. */
  countFiles(workspaceId: string): number {
    return this.countFilesStmt.get(workspaceId)?.n ?? 0;
  }

  /** Whether any file is synced: stops at the first row, where a count reads them all. */
  hasFiles(workspaceId: string): boolean {
    return this.hasFilesStmt.get(workspaceId)?.any === 1;
  }

  /**
   * Every file and folder of the workspace, one query each, keyed by `pathKey` (as stored: every
   * write computes the key from the path, and lookups by key depend on it already).
   *
   * `alike`: the views of the same cycle, whose strings a row takes where its values are equal
   * (a synced file has the path, ids and checksum the remote tree and the scan have): the copies
   * read from the database are then dropped at once rather than kept, which at 100,000 files is
   * about a quarter of a kilobyte each. The key is the path's string where they are equal.
   */
  load(workspaceId: string, alike: { remote?: ReadonlyMap<string, RemoteFile>; local?: ReadonlyMap<string, LocalFile> } = {}): BaseTree {
    const files = new Map<string, BaseFile>();
    const { remote, local } = alike;
    for (const [key, storedPath, assetId, versionId, checksum, size, mtimeNs, inode] of this.allFilesStmt.iterate(workspaceId)) {
      const r = remote?.get(key);
      const l = local?.get(key);
      // Most paths are their own key (stored as null): one string for both.
      const path = storedPath ?? key;
      const shared = l?.path === path ? l.path : r?.path === path ? r.path : path;
      files.set(storedPath === null ? shared : key, {
        path: shared,
        assetId: r?.assetId === assetId ? r.assetId : assetId,
        versionId: r?.versionId === versionId ? r.versionId : versionId,
        checksum: l?.checksum === checksum ? l.checksum : r?.checksum === checksum ? r.checksum : checksum,
        size,
        mtimeNs: l?.mtimeNs === mtimeNs ? l.mtimeNs : mtimeNs,
        inode,
      });
    }
    const folders = new Map<string, BaseFolder>();
    for (const [key, path, folderId, inode] of this.allFoldersStmt.iterate(workspaceId)) folders.set(key, folderOf(path, folderId, inode));
    return { files, folders };
  }

  getFile(workspaceId: string, path: string): BaseFile | undefined {
    const row = this.getFileStmt.get(workspaceId, pathKey(path));
    return row && toFile(row);
  }

  getFolder(workspaceId: string, path: string): BaseFolder | undefined {
    const row = this.getFolderStmt.get(workspaceId, pathKey(path));
    return row && toFolder(row);
  }

  putFile(workspaceId: string, f: BaseFile): void {
    const key = pathKey(f.path);
    this.putFileStmt.run(workspaceId, key, packPath(f.path, key), packId(f.assetId), packId(f.versionId), packChecksum(f.checksum), f.size, packNs(f.mtimeNs), f.inode);
  }

  /** Many rows in one transaction: 100,000 rows cost one commit, not 100,000. */
  putFiles(workspaceId: string, files: Iterable<BaseFile>): void {
    this.putFilesTx.immediate(workspaceId, files);
  }

  deleteFile(workspaceId: string, path: string): void {
    this.deleteFileStmt.run(workspaceId, pathKey(path));
  }

  putFolder(workspaceId: string, f: BaseFolder): void {
    this.putFolderStmt.run(workspaceId, pathKey(f.path), f.path, f.folderId, f.inode ?? null);
  }

  putFolders(workspaceId: string, folders: Iterable<BaseFolder>): void {
    this.putFoldersTx.immediate(workspaceId, folders);
  }

  /** Removes only the folder's own row; see `deleteTree` for everything below it. */
  deleteFolder(workspaceId: string, path: string): void {
    this.deleteFolderStmt.run(workspaceId, pathKey(path));
  }

  /**
   * Moves a folder's row and every row below it from `from` to `to` (a folder renamed or moved
   * on one side and followed on the other), in one transaction.
   */
  moveTree(workspaceId: string, from: string, to: string, folderId: string): void {
    this.moveTreeTx.immediate(workspaceId, from, to, folderId);
  }

  /** Removes a folder and every file and folder below it, e.g. once a deleted folder is gone on both sides. */
  deleteTree(workspaceId: string, folderPath: string): void {
    this.deleteTreeTx.immediate(workspaceId, folderPath);
  }
}
