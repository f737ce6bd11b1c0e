/**
 * The remote tree as last seen, so the engine applies the changes feed to it instead of listing
 * the whole workspace again. Each write moves the workspace's change cursor in the same
 * transaction as the rows it describes: after a crash, cursor and rows still agree, so no
 * change is skipped or applied twice.
 */
import { pathKey } from '../local/paths.js';
import type { RemoteFile, RemoteFolder } from '../sync/model.js';
import type { Db } from './database.js';
import { UnknownWorkspaceError } from './workspaces.js';

export interface RemoteListing {
  folders: Iterable<RemoteFolder>;
  files: Iterable<RemoteFile>;
  /** The listing's cursor (`sequence` at the top of the hierarchy answer). */
  sequence: number;
}

export interface RemoteChanges {
  /** Folders created or changed (renames and moves included), in their latest state. */
  folders?: Iterable<RemoteFolder>;
  files?: Iterable<RemoteFile>;
  deletedFolderIds?: Iterable<string>;
  deletedAssetIds?: Iterable<string>;
  /** The feed's cursor once `has_more` is false. */
  sequence: number;
}

export interface RemoteTree {
  files: Map<string, RemoteFile>;
  folders: Map<string, RemoteFolder>;
}

interface FolderRow {
  id: string;
  parent_id: string | null;
  path: string;
}

interface AssetRow {
  id: string;
  folder_id: string | null;
  path: string;
  version_id: string;
  version_number: number;
  checksum: string;
  size: number;
  locked_by_user_id: string | null;
  sequence: number;
}

const ASSET_COLUMNS = 'id, folder_id, path, version_id, version_number, checksum, size, locked_by_user_id, sequence';

const toFolder = (row: FolderRow): RemoteFolder => ({ path: row.path, folderId: row.id, parentId: row.parent_id });

const toFile = (row: AssetRow): RemoteFile => ({
  path: row.path,
  assetId: row.id,
  folderId: row.folder_id,
  versionId: row.version_id,
  versionNumber: row.version_number,
  checksum: row.checksum,
  size: row.size,
  lockedByUserId: row.locked_by_user_id,
  sequence: row.sequence,
});

export class RemoteStateStore {
  private readonly upsertFolderStmt;
  private readonly upsertAssetStmt;
  private readonly deleteFolderStmt;
  private readonly deleteAssetStmt;
  private readonly clearFoldersStmt;
  private readonly clearAssetsStmt;
  private readonly cursorStmt;
  private readonly listingStmt;
  private readonly allFoldersStmt;
  private readonly allAssetsStmt;
  private readonly getFolderStmt;
  private readonly getAssetStmt;
  private readonly replaceTx;
  private readonly applyTx;

  constructor(db: Db) {
    this.upsertFolderStmt = db.prepare<[string, string, string | null, string]>(
      `INSERT INTO remote_folders (workspace_id, id, parent_id, path) VALUES (?, ?, ?, ?)
       ON CONFLICT (workspace_id, id) DO UPDATE SET parent_id = excluded.parent_id, path = excluded.path`,
    );
    this.upsertAssetStmt = db.prepare<
      [string, string, string | null, string, string, number, string, number, string | null, number]
    >(
      `INSERT INTO remote_assets (workspace_id, ${ASSET_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (workspace_id, id) DO UPDATE SET folder_id = excluded.folder_id, path = excluded.path,
         version_id = excluded.version_id, version_number = excluded.version_number, checksum = excluded.checksum,
         size = excluded.size, locked_by_user_id = excluded.locked_by_user_id, sequence = excluded.sequence`,
    );
    this.deleteFolderStmt = db.prepare<[string, string]>('DELETE FROM remote_folders WHERE workspace_id = ? AND id = ?');
    this.deleteAssetStmt = db.prepare<[string, string]>('DELETE FROM remote_assets WHERE workspace_id = ? AND id = ?');
    this.clearFoldersStmt = db.prepare<[string]>('DELETE FROM remote_folders WHERE workspace_id = ?');
    this.clearAssetsStmt = db.prepare<[string]>('DELETE FROM remote_assets WHERE workspace_id = ?');
    this.cursorStmt = db.prepare<[number, string]>('UPDATE workspaces SET sequence = ? WHERE id = ?');
    this.listingStmt = db.prepare<[number, number, string]>(
      'UPDATE workspaces SET sequence = ?, last_full_listing_at = ? WHERE id = ?',
    );
    this.allFoldersStmt = db.prepare<[string], FolderRow>('SELECT id, parent_id, path FROM remote_folders WHERE workspace_id = ?');
    this.allAssetsStmt = db.prepare<[string], AssetRow>(`SELECT ${ASSET_COLUMNS} FROM remote_assets WHERE workspace_id = ?`);
    this.getFolderStmt = db.prepare<[string, string], FolderRow>(
      'SELECT id, parent_id, path FROM remote_folders WHERE workspace_id = ? AND id = ?',
    );
    this.getAssetStmt = db.prepare<[string, string], AssetRow>(
      `SELECT ${ASSET_COLUMNS} FROM remote_assets WHERE workspace_id = ? AND id = ?`,
    );

    this.replaceTx = db.transaction((workspaceId: string, listing: RemoteListing, listedAt: number) => {
      if (this.listingStmt.run(listing.sequence, listedAt, workspaceId).changes === 0) {
        throw new UnknownWorkspaceError(workspaceId);
      }
      this.clearFoldersStmt.run(workspaceId);
      this.clearAssetsStmt.run(workspaceId);
      this.upsert(workspaceId, listing.folders, listing.files);
    });
    this.applyTx = db.transaction((workspaceId: string, changes: RemoteChanges) => {
      if (this.cursorStmt.run(changes.sequence, workspaceId).changes === 0) throw new UnknownWorkspaceError(workspaceId);
      for (const id of changes.deletedFolderIds ?? []) this.deleteFolderStmt.run(workspaceId, id);
      for (const id of changes.deletedAssetIds ?? []) this.deleteAssetStmt.run(workspaceId, id);
      this.upsert(workspaceId, changes.folders ?? [], changes.files ?? []);
    });
  }

  /** A full listing replaces whatever was known, and records when it was taken. */
  replaceAll(workspaceId: string, listing: RemoteListing, listedAt: number = Date.now()): void {
    this.replaceTx.immediate(workspaceId, listing, listedAt);
  }

  /** One or more pages of the changes feed, applied all together or not at all. */
  applyChanges(workspaceId: string, changes: RemoteChanges): void {
    this.applyTx.immediate(workspaceId, changes);
  }

  /** The whole remote tree keyed by `pathKey`, as the planner takes it. */
  load(workspaceId: string): RemoteTree {
    const folders = new Map<string, RemoteFolder>();
    for (const row of this.allFoldersStmt.iterate(workspaceId)) folders.set(pathKey(row.path), toFolder(row));
    const files = new Map<string, RemoteFile>();
    for (const row of this.allAssetsStmt.iterate(workspaceId)) files.set(pathKey(row.path), toFile(row));
    return { files, folders };
  }

  getFolder(workspaceId: string, folderId: string): RemoteFolder | undefined {
    const row = this.getFolderStmt.get(workspaceId, folderId);
    return row && toFolder(row);
  }

  getFile(workspaceId: string, assetId: string): RemoteFile | undefined {
    const row = this.getAssetStmt.get(workspaceId, assetId);
    return row && toFile(row);
  }

  private upsert(workspaceId: string, folders: Iterable<RemoteFolder>, files: Iterable<RemoteFile>): void {
    for (const f of folders) this.upsertFolderStmt.run(workspaceId, f.folderId, f.parentId, f.path);
    for (const f of files) {
      this.upsertAssetStmt.run(
        workspaceId,
        f.assetId,
        f.folderId,
        f.path,
        f.versionId,
        f.versionNumber,
        f.checksum,
        f.size,
        f.lockedByUserId,
        f.sequence,
      );
    }
  }
}
