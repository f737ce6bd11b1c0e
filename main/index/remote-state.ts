/**
 * The remote tree as last seen, so the engine applies the changes feed to it instead of listing
 * the whole workspace again. Each write moves the workspace's change cursor in the same
 * transaction as the rows it describes: after a crash, cursor and rows still agree, so no
 * change is skipped or applied twice.
 *
 * Each row holds an item both as the service lists it (ids, parent, name: the raw tree) and
 * where this device places it (`path`, NULL when it is not placed). The engine writes both
 * (`saveTree`) and, on its next start, rebuilds the raw tree from them (`loadTree`); the
 * placed-only writes (`replaceAll`, `applyChanges`) leave the raw tree incomplete, so they
 * mark it unusable and the next start lists in full.
 */
import { pathKey } from '../local/paths.js';
import { remoteFile, type AssetFacts, type RemoteFile, type RemoteFolder } from '../model/views.js';
import { type Packed, WORKSPACE_NUMBER, checksumText, idText, packChecksum, packId, packOptionalId } from './compact-values.js';
import type { Db } from './database.js';
import { UnknownWorkspaceError } from './workspaces.js';

export interface RemoteListing {
  folders: Iterable<RemoteFolder>;
  files: Iterable<RemoteFile>;
  /** The listing's cursor (`sequence` at the top of the hierarchy answer). */
  sequence: string;
}

export interface RemoteChanges {
  /** Folders created or changed (renames and moves included), in their latest state. */
  folders?: Iterable<RemoteFolder>;
  files?: Iterable<RemoteFile>;
  deletedFolderIds?: Iterable<string>;
  deletedAssetIds?: Iterable<string>;
  /** The feed's cursor once `has_more` is false. */
  sequence: string;
}

export interface RemoteTree {
  files: Map<string, RemoteFile>;
  folders: Map<string, RemoteFolder>;
}

/** A folder as the service lists it, reduced to what placing it needs. */
export interface RawFolder {
  id: string;
  parentId: string | null;
  /** As the service spells it (not made safe for disk). */
  name: string;
}

/** An asset as the service lists it, reduced to what placing and syncing it need. */
export interface RawAsset extends AssetFacts {
  id: string;
  /** As the service spells it (not made safe for disk). */
  fileName: string;
}

/** An item of the raw tree and where this device places it (null: not placed). */
export interface PlacedItem<T> {
  item: T;
  path: string | null;
}

/** The raw tree as stored, with where each item was placed when it was stored. */
export interface StoredTree {
  sequence: string;
  /** What the stored paths were placed with (`TreeWrite.placement`); null: not recorded. */
  placement: string | null;
  /** When the workspace was last listed in full (ms since the epoch); null if never recorded. */
  listedAt: number | null;
  folders: Map<string, RawFolder>;
  assets: Map<string, RawAsset>;
  /** By id; null: stored as not placed. */
  folderPaths: Map<string, string | null>;
  assetPaths: Map<string, string | null>;
}

/**
 * The stored tree as its placement alone, when every item of it is placed and named, placed as
 * `loadPlacement` was asked: one object per asset (the placed file), the service's name of an
 * asset kept apart only where it is not the last segment of its path (made safe or numbered).
 */
export interface StoredPlacement {
  sequence: string;
  listedAt: number | null;
  /** The raw folders by id. */
  folders: Map<string, RawFolder>;
  /** By `pathKey`, as `load` gives them. */
  placedFolders: Map<string, RemoteFolder>;
  files: Map<string, RemoteFile>;
  /** The service's names of assets placed under another name, by id. */
  names: Map<string, string>;
}

export interface TreeWrite {
  /** The cursor the stored tree is at once this write commits. */
  sequence: string;
  /**
   * False: the tree holds items this device could not read; a restart must list in full rather
   * than follow the feed from this cursor, which would never tell them again.
   */
  resumable?: boolean;
  /** Every row of the workspace is replaced by `folders` and `assets`. */
  full?: boolean;
  /**
   * What the stored paths were placed with (the rules and the folders left out), kept with the
   * rows so that a restart may take the paths as placed only while it places the same way.
   * Absent: not recorded, and the next start places the tree afresh.
   */
  placement?: string;
  /**
   * For a write of differences: the cursor of the stored tree they were computed against. If
   * the index holds another (a second process wrote meanwhile), nothing is written.
   */
  since?: string;
  /** Rows to insert or replace. */
  folders?: Iterable<PlacedItem<RawFolder>>;
  assets?: Iterable<PlacedItem<RawAsset>>;
  deletedFolderIds?: Iterable<string>;
  deletedAssetIds?: Iterable<string>;
}

interface FolderRow {
  id: string;
  parent_id: string | null;
  path: string;
}

/** ASSET_SELECT's row: the facts under their own names (AssetFacts), the id and the path. */
interface AssetRow extends AssetFacts {
  id: string;
  path: string;
}

/** `id, parent_id, path, name`; `name` is NULL in rows a placed-only write left. */
type TreeFolderRow = [id: string, parentId: string | null, path: string | null, name: string | null];

/** ASSET_SELECT's columns as a raw row; `path` is NULL in a row this device does not place. */
type AssetColumns<Path extends string | null> = [
  id: string,
  folderId: string | null,
  path: Path,
  versionId: string,
  versionNumber: number,
  checksum: string,
  size: number,
  lockedByUserId: string | null,
  sequence: number,
];

/** ASSET_COLUMNS, then `file_name` (NULL in rows a placed-only write left). */
type TreeAssetRow = [...AssetColumns<string | null>, fileName: string | null];

/** ASSET_SELECT's columns of a placed row. */
type PlacedAssetRow = AssetColumns<string>;

/** ASSET_SELECT, then `file_name` where it is not the path's last segment (NULL where it is). */
type PlacementAssetRow = [...PlacedAssetRow, otherName: string | null];

const ASSET_COLUMNS = 'id, folder_id, path, version_id, version_number, checksum, size, locked_by_user_id, sequence';
/** ASSET_COLUMNS read back as the text that was stored (compact-values.ts). */
const ASSET_SELECT = [
  `${idText('id')} AS id`,
  `${idText('folder_id')} AS folderId`,
  'path',
  `${idText('version_id')} AS versionId`,
  'version_number AS versionNumber',
  `${checksumText('checksum')} AS checksum`,
  'size',
  `${idText('locked_by_user_id')} AS lockedByUserId`,
  'sequence',
].join(', ');
/** Rows a device does not place have no path: they are part of the raw tree only. */
const PLACED = 'path IS NOT NULL';
const ASSETS_OF_WORKSPACE = `workspace = ${WORKSPACE_NUMBER}`;

/** An asset's values as `ASSET_COLUMNS` stores them. */
type AssetValues = [Packed, Packed | null, string | null, Packed, number, Packed, number, Packed | null, number];
const assetValues = (id: string, path: string | null, a: AssetFacts): AssetValues => [
  packId(id),
  packOptionalId(a.folderId),
  path,
  packId(a.versionId),
  a.versionNumber,
  packChecksum(a.checksum),
  a.size,
  packOptionalId(a.lockedByUserId),
  a.sequence,
];

const toFolder = (row: FolderRow): RemoteFolder => ({ path: row.path, folderId: row.id, parentId: row.parent_id });

const toFile = (row: AssetRow): RemoteFile => remoteFile(row.path, row.id, row);

/**
 * The file a placed row describes, built as `remoteFile` builds it (same fields, same order)
 * without a row object between; ids that repeat come as the strings `same` keeps.
 */
const placedFile = (row: PlacedAssetRow | PlacementAssetRow, same: (id: string | null) => string | null): RemoteFile => ({
  path: row[2],
  assetId: row[0],
  folderId: same(row[1]),
  versionId: row[3],
  versionNumber: row[4],
  checksum: row[5],
  size: row[6],
  lockedByUserId: same(row[7]),
  sequence: row[8],
});

/** The setting that holds what a workspace's stored paths were placed with. */
const placementSetting = (workspaceId: string): string => `tree-placement:${workspaceId}`;

/** Thrown inside `loadTree`'s read when a row lacks what the raw tree needs. */
class IncompleteTree extends Error {}

/**
 * One string per distinct value, `known` ones first: ids that repeat across rows (a folder's, a
 * lock holder's) are read as a new string each time.
 */
function interner(known: Iterable<string>): (value: string | null) => string | null {
  const seen = new Map<string, string>();
  for (const value of known) seen.set(value, value);
  return (value) => {
    if (value === null) return null;
    const known = seen.get(value);
    if (known !== undefined) return known;
    seen.set(value, value);
    return value;
  };
}

export class RemoteStateStore {
  private readonly upsertFolderStmt;
  private readonly upsertAssetStmt;
  private readonly putTreeFolderStmt;
  private readonly putTreeAssetStmt;
  private readonly deleteFolderStmt;
  private readonly deleteAssetStmt;
  private readonly clearFoldersStmt;
  private readonly clearAssetsStmt;
  private readonly cursorStmt;
  private readonly listingStmt;
  private readonly treeCursorStmt;
  private readonly getPlacementStmt;
  private readonly setPlacementStmt;
  private readonly deletePlacementStmt;
  private readonly listedAtStmt;
  private readonly treeSequenceStmt;
  private readonly allFoldersStmt;
  private readonly allAssetsStmt;
  private readonly treeFoldersStmt;
  private readonly treeAssetsStmt;
  private readonly unplacedRowsStmt;
  private readonly placementAssetsStmt;
  private readonly getFolderStmt;
  private readonly getAssetStmt;
  private readonly countBehindStmt;
  private readonly pathsBehindStmt;
  private readonly replaceTx;
  private readonly applyTx;
  private readonly saveTreeTx;
  private readonly loadTreeTx;
  private readonly loadPlacementTx;
  private readonly storedCursorTx;

  constructor(db: Db) {
    this.upsertFolderStmt = db.prepare<[string, string, string | null, string]>(
      `INSERT INTO remote_folders (workspace_id, id, parent_id, path) VALUES (?, ?, ?, ?)
       ON CONFLICT (workspace_id, id) DO UPDATE SET parent_id = excluded.parent_id, path = excluded.path`,
    );
    this.upsertAssetStmt = db.prepare<[string, ...AssetValues]>(
      `INSERT INTO remote_assets (workspace, ${ASSET_COLUMNS}) VALUES (${WORKSPACE_NUMBER}, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (workspace, id) DO UPDATE SET folder_id = excluded.folder_id, path = excluded.path,
         version_id = excluded.version_id, version_number = excluded.version_number, checksum = excluded.checksum,
         size = excluded.size, locked_by_user_id = excluded.locked_by_user_id, sequence = excluded.sequence`,
    );
    this.putTreeFolderStmt = db.prepare<[string, string, string | null, string | null, string]>(
      'INSERT OR REPLACE INTO remote_folders (workspace_id, id, parent_id, path, name) VALUES (?, ?, ?, ?, ?)',
    );
    this.putTreeAssetStmt = db.prepare<[string, ...AssetValues, string]>(
      `INSERT OR REPLACE INTO remote_assets (workspace, ${ASSET_COLUMNS}, file_name) VALUES (${WORKSPACE_NUMBER}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.deleteFolderStmt = db.prepare<[string, string]>('DELETE FROM remote_folders WHERE workspace_id = ? AND id = ?');
    this.deleteAssetStmt = db.prepare<[string, Packed]>(`DELETE FROM remote_assets WHERE ${ASSETS_OF_WORKSPACE} AND id = ?`);
    this.clearFoldersStmt = db.prepare<[string]>('DELETE FROM remote_folders WHERE workspace_id = ?');
    this.clearAssetsStmt = db.prepare<[string]>(`DELETE FROM remote_assets WHERE ${ASSETS_OF_WORKSPACE}`);
    // Placed-only writes leave rows without the service's names: the raw tree is no longer whole.
    this.cursorStmt = db.prepare<[string, string]>('UPDATE workspaces SET cursor = ?, tree_cursor = NULL WHERE id = ?');
    this.listingStmt = db.prepare<[string, number, string]>(
      'UPDATE workspaces SET cursor = ?, last_full_listing_at = ?, tree_cursor = NULL WHERE id = ?',
    );
    this.treeCursorStmt = db.prepare<[string, string | null, string]>('UPDATE workspaces SET cursor = ?, tree_cursor = ? WHERE id = ?');
    // Kept among the settings (a JSON string), written and read in the transactions of the rows.
    this.getPlacementStmt = db.prepare<[string], string>('SELECT value FROM settings WHERE key = ?').pluck();
    this.setPlacementStmt = db.prepare<[string, string]>('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)');
    this.deletePlacementStmt = db.prepare<[string]>('DELETE FROM settings WHERE key = ?');
    this.listedAtStmt = db.prepare<[number, string]>('UPDATE workspaces SET last_full_listing_at = ? WHERE id = ?');
    this.treeSequenceStmt = db.prepare<[string], { cursor: string | null; tree_cursor: string | null; last_full_listing_at: number | null }>(
      'SELECT cursor, tree_cursor, last_full_listing_at FROM workspaces WHERE id = ?',
    );
    this.allFoldersStmt = db.prepare<[string], FolderRow>(`SELECT id, parent_id, path FROM remote_folders WHERE workspace_id = ? AND ${PLACED}`);
    this.allAssetsStmt = db.prepare<[string], PlacedAssetRow>(`SELECT ${ASSET_SELECT} FROM remote_assets WHERE ${ASSETS_OF_WORKSPACE} AND ${PLACED}`).raw(true);
    // Rows as arrays: 100,000 of them are read at every start, and one object fewer each is
    // a tenth of a second less.
    this.treeFoldersStmt = db.prepare<[string], TreeFolderRow>('SELECT id, parent_id, path, name FROM remote_folders WHERE workspace_id = ?').raw(true);
    this.treeAssetsStmt = db
      .prepare<[string], TreeAssetRow>(`SELECT ${ASSET_SELECT}, file_name FROM remote_assets WHERE ${ASSETS_OF_WORKSPACE}`)
      .raw(true);
    this.unplacedRowsStmt = db
      .prepare<[string, string], number>(
        `SELECT EXISTS (SELECT 1 FROM remote_folders WHERE workspace_id = ? AND (path IS NULL OR name IS NULL))
           OR EXISTS (SELECT 1 FROM remote_assets WHERE ${ASSETS_OF_WORKSPACE} AND (path IS NULL OR file_name IS NULL))`,
      )
      .pluck();
    // The service's name is sent back only where placing changed it: most are the path's end
    // (never one holding a slash, which placing always changes).
    this.placementAssetsStmt = db
      .prepare<[string], PlacementAssetRow>(
        `SELECT ${ASSET_SELECT}, iif(instr(file_name, '/') = 0 AND (path = file_name OR substr(path, -length(file_name) - 1) = '/' || file_name), NULL, file_name)
         FROM remote_assets WHERE ${ASSETS_OF_WORKSPACE}`,
      )
      .raw(true);
    this.getFolderStmt = db.prepare<[string, string], FolderRow>(
      `SELECT id, parent_id, path FROM remote_folders WHERE workspace_id = ? AND id = ? AND ${PLACED}`,
    );
    this.getAssetStmt = db.prepare<[string, Packed], AssetRow>(
      `SELECT ${ASSET_SELECT} FROM remote_assets WHERE ${ASSETS_OF_WORKSPACE} AND id = ? AND ${PLACED}`,
    );

    // Answered in SQL: `status` asks at every call, and comparing the two trees in memory cost a
    // 100,000-asset workspace a second and 200 MiB. base_files has no index by asset (at 100,000
    // assets it would add 4 to 6 MiB to the index), so the count matches the pairs as two sorted
    // lists: the placed assets come in key order, the base's pairs go through one sort, and
    // EXCEPT with ORDER BY merges them, a fifth less CPU than NOT IN, which builds a temporary
    // index of the base's pairs one random insert at a time. The pairs are NOT NULL and an
    // asset's id is unique in its workspace, so both count the same. The paths keep NOT IN: from
    // the merge, each path would be one more lookup by key, dearer when many files are behind.
    const behind = `FROM remote_assets WHERE ${ASSETS_OF_WORKSPACE} AND ${PLACED}
       AND (id, version_id) NOT IN (SELECT asset_id, version_id FROM base_files WHERE workspace = ${WORKSPACE_NUMBER})`;
    this.countBehindStmt = db
      .prepare<[string, string], number>(
        `SELECT count(*) FROM (SELECT id, version_id FROM remote_assets WHERE ${ASSETS_OF_WORKSPACE} AND ${PLACED}
           EXCEPT SELECT asset_id, version_id FROM base_files WHERE workspace = ${WORKSPACE_NUMBER}
           ORDER BY 1, 2)`,
      )
      .pluck();
    this.pathsBehindStmt = db.prepare<[string, string], string>(`SELECT path ${behind}`).pluck();

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
      for (const id of changes.deletedAssetIds ?? []) this.deleteAssetStmt.run(workspaceId, packId(id));
      this.upsert(workspaceId, changes.folders ?? [], changes.files ?? []);
    });
    this.saveTreeTx = db.transaction((workspaceId: string, write: TreeWrite, listedAt: number | undefined): boolean => {
      if (write.since !== undefined && this.treeSequenceStmt.get(workspaceId)?.tree_cursor !== write.since) return false;
      const treeCursor = write.resumable === false ? null : write.sequence;
      if (this.treeCursorStmt.run(write.sequence, treeCursor, workspaceId).changes === 0) throw new UnknownWorkspaceError(workspaceId);
      if (listedAt !== undefined) this.listedAtStmt.run(listedAt, workspaceId);
      if (write.placement === undefined) this.deletePlacementStmt.run(placementSetting(workspaceId));
      else this.setPlacementStmt.run(placementSetting(workspaceId), JSON.stringify(write.placement));
      if (write.full) {
        this.clearFoldersStmt.run(workspaceId);
        this.clearAssetsStmt.run(workspaceId);
      }
      for (const id of write.deletedFolderIds ?? []) this.deleteFolderStmt.run(workspaceId, id);
      for (const id of write.deletedAssetIds ?? []) this.deleteAssetStmt.run(workspaceId, packId(id));
      for (const { item: f, path } of write.folders ?? []) this.putTreeFolderStmt.run(workspaceId, f.id, f.parentId, path, f.name);
      for (const { item: a, path } of write.assets ?? []) {
        const values = assetValues(a.id, path, a);
        this.putTreeAssetStmt.run(workspaceId, ...values, a.fileName);
      }
      return true;
    });
    // One read transaction: cursor and rows from the same commit, even with a writer beside us.
    this.loadTreeTx = db.transaction((workspaceId: string): StoredTree | null => {
      const cursor = this.treeSequenceStmt.get(workspaceId);
      if (!cursor || cursor.cursor === null || cursor.tree_cursor !== cursor.cursor) return null;
      const placement = this.getPlacementStmt.get(placementSetting(workspaceId));
      const tree: StoredTree = {
        sequence: cursor.cursor,
        placement: placement === undefined ? null : (JSON.parse(placement) as string),
        listedAt: cursor.last_full_listing_at,
        folders: new Map(),
        assets: new Map(),
        folderPaths: new Map(),
        assetPaths: new Map(),
      };
      for (const [id, parentId, path, name] of this.treeFoldersStmt.iterate(workspaceId)) {
        if (name === null) throw new IncompleteTree();
        tree.folders.set(id, { id, parentId, name });
        tree.folderPaths.set(id, path);
      }
      const holder = interner([]);
      for (const [id, folderId, path, versionId, versionNumber, checksum, size, lockedByUserId, sequence, fileName] of this.treeAssetsStmt.iterate(workspaceId)) {
        if (fileName === null) throw new IncompleteTree();
        // One string per folder id, the folder's own, rather than one per asset in it.
        const folder = folderId === null ? undefined : tree.folders.get(folderId);
        tree.assets.set(id, { id, folderId: folder?.id ?? folderId, fileName, versionId, versionNumber, checksum, size, lockedByUserId: holder(lockedByUserId), sequence });
        tree.assetPaths.set(id, path);
      }
      return tree;
    });
    this.storedCursorTx = db.transaction((workspaceId: string, placement: string) => {
      const cursor = this.treeSequenceStmt.get(workspaceId);
      if (!cursor || cursor.cursor === null || cursor.tree_cursor !== cursor.cursor) return null;
      const stored = this.getPlacementStmt.get(placementSetting(workspaceId));
      if (stored === undefined || (JSON.parse(stored) as string) !== placement) return null;
      return { sequence: cursor.cursor, listedAt: cursor.last_full_listing_at };
    });
    this.loadPlacementTx = db.transaction((workspaceId: string, placement: string): StoredPlacement | null => {
      const cursor = this.treeSequenceStmt.get(workspaceId);
      if (!cursor || cursor.cursor === null || cursor.tree_cursor !== cursor.cursor) return null;
      const stored = this.getPlacementStmt.get(placementSetting(workspaceId));
      if (stored === undefined || (JSON.parse(stored) as string) !== placement) return null;
      if (this.unplacedRowsStmt.get(workspaceId, workspaceId) !== 0) return null;
      const tree: StoredPlacement = {
        sequence: cursor.cursor,
        listedAt: cursor.last_full_listing_at,
        folders: new Map(),
        placedFolders: new Map(),
        files: new Map(),
        names: new Map(),
      };
      for (const [id, parentId, path, name] of this.treeFoldersStmt.iterate(workspaceId)) {
        tree.folders.set(id, { id, parentId, name: name as string });
        tree.placedFolders.set(pathKey(path as string), { path: path as string, folderId: id, parentId });
      }
      const same = interner(tree.folders.keys());
      for (const row of this.placementAssetsStmt.iterate(workspaceId)) {
        tree.files.set(pathKey(row[2]), placedFile(row, same));
        if (row[9] !== null) tree.names.set(row[0], row[9]);
      }
      return tree;
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

  /**
   * Stores the raw tree (or what changed in it) with where each item is placed, and moves the
   * cursor: all together or not at all. `listedAt`: the tree comes from a full listing taken
   * then. False when `since` no longer matches the stored tree: nothing was written.
   */
  saveTree(workspaceId: string, write: TreeWrite, listedAt?: number): boolean {
    return this.saveTreeTx.immediate(workspaceId, write, listedAt);
  }

  /**
   * The raw tree as `saveTree` left it, or null when there is none to trust: never stored, or
   * overwritten since by a placed-only write (the caller then lists in full).
   */
  loadTree(workspaceId: string): StoredTree | null {
    try {
      return this.loadTreeTx.deferred(workspaceId);
    } catch (error) {
      if (error instanceof IncompleteTree) return null;
      throw error;
    }
  }

  /**
   * The stored tree as its placement, or null when that is not all of it: the raw tree cannot be
   * trusted (`loadTree`), it was placed otherwise than `placement` says (`placementOf`), or some
   * item is not placed (left out by selective sync, unplaceable). The caller then loads the tree.
   */
  loadPlacement(workspaceId: string, placement: string): StoredPlacement | null {
    return this.loadPlacementTx.deferred(workspaceId, placement);
  }

  /**
   * The cursor of the stored tree and when it was last listed, without reading a row: null when
   * `loadTree` would find none to trust or it was placed otherwise than `placement` says.
   */
  storedCursor(workspaceId: string, placement: string): { sequence: string; listedAt: number | null } | null {
    return this.storedCursorTx.deferred(workspaceId, placement);
  }

  /** The whole remote tree keyed by `pathKey`, as the planner takes it. */
  load(workspaceId: string): RemoteTree {
    const folders = new Map<string, RemoteFolder>();
    for (const row of this.allFoldersStmt.iterate(workspaceId)) folders.set(pathKey(row.path), toFolder(row));
    const files = new Map<string, RemoteFile>();
    const same = interner([...folders.values()].map((f) => f.folderId));
    for (const row of this.allAssetsStmt.iterate(workspaceId)) files.set(pathKey(row[2]), placedFile(row, same));
    return { files, folders };
  }

  /** How many placed files no synced base row holds in their listed version (see `pathsBehind`). */
  countBehind(workspaceId: string): number {
    return this.countBehindStmt.get(workspaceId, workspaceId) ?? 0;
  }

  /**
   * The paths of the placed files that no synced base row holds in their listed version: not on
   * disk yet, or there in another version. A file renamed on the service and still held under
   * its old name is not among them: the base row of the same version counts wherever it is.
   */
  pathsBehind(workspaceId: string): IterableIterator<string> {
    return this.pathsBehindStmt.iterate(workspaceId, workspaceId);
  }

  getFolder(workspaceId: string, folderId: string): RemoteFolder | undefined {
    const row = this.getFolderStmt.get(workspaceId, folderId);
    return row && toFolder(row);
  }

  getFile(workspaceId: string, assetId: string): RemoteFile | undefined {
    const row = this.getAssetStmt.get(workspaceId, packId(assetId));
    return row && toFile(row);
  }

  private upsert(workspaceId: string, folders: Iterable<RemoteFolder>, files: Iterable<RemoteFile>): void {
    for (const f of folders) this.upsertFolderStmt.run(workspaceId, f.folderId, f.parentId, f.path);
    for (const f of files) {
      this.upsertAssetStmt.run(workspaceId, ...assetValues(f.assetId, f.path, f));
    }
  }
}
