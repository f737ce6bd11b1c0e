/**
 * The service's tree as this device places it on disk. The raw tree (ids, parents, names as the
 * service sends them) is kept as listed and patched by the changes feed; placing it is a pure
 * function that makes every name safe (main/local/paths.ts), disambiguates clashes per folder
 * deterministically, and leaves out what selective sync excludes. A folder rename on the service
 * thus moves every path below it, with no special case.
 *
 * An item the service sent that this device cannot read is unknown, never absent: the tree keeps
 * what it knew of it (its place, so names around it stay put) and says so (`unknown`), and
 * placing it holds its path, so that neither side deletes or overwrites it.
 */
import { sequenceNumber, type FeedChange, type ListedAsset, type ListedFolder, type Listing, type Sequence, type UnreadableEntry } from '../service-client/index.js';
import type { PlacedItem, RawAsset, RawFolder, StoredPlacement, TreeWrite } from '../index/remote-state.js';
import { MAX_PATH_BYTES, assignLocalNames, pathKey, sanitizeName, utf8Length, type NamedItem } from '../local/paths.js';
import { remoteFile, type RemoteFile, type RemoteFolder } from '../model/views.js';

export type { RawAsset, RawFolder };

/**
 * Only what placing and syncing need: the parsed answer's other fields (display names, dates,
 * whatever else the service adds) would be held for every one of 100,000 assets.
 */
export interface RawRemoteTree {
  folders: Map<string, RawFolder>;
  assets: Map<string, RawAsset>;
  sequence: Sequence;
  /**
   * Items the service sent that could not be read, by id (by `?folder/name` when they have none):
   * unknown, not gone. An asset among them that the tree knew stays in `assets` as it was known.
   */
  unknown: Map<string, UnreadableEntry>;
}

/** The ids a page of the changes feed set or removed. */
export interface TreeChanges {
  folders: Set<string>;
  assets: Set<string>;
}

export const noChanges = (): TreeChanges => ({ folders: new Set(), assets: new Set() });

const rawFolder = (f: ListedFolder): RawFolder => ({ id: f.id, parentId: f.parent_id, name: f.name });

/** Fields the service may leave out are kept as 0 or null: shown to the user at most, never decided with. */
const rawAsset = (a: ListedAsset): RawAsset => ({
  id: a.id,
  folderId: a.folder_id,
  fileName: a.file_name,
  versionId: a.current_version_id,
  versionNumber: a.version_number ?? 0,
  checksum: a.checksum,
  size: a.size,
  lockedByUserId: a.locked_by_user_id ?? null,
  sequence: sequenceNumber(a.sequence),
});

/** An entry without `isActive` is active: the listing lists active items unless asked otherwise. */
const active = (entry: { isActive?: boolean | undefined }): boolean => entry.isActive !== false;

/**
 * The tree a listing describes. `known`: the tree as this device knew it before, whose state of
 * an item the listing sends unreadable is kept.
 */
export function treeFromListing(listing: Listing, known?: RawRemoteTree | null): RawRemoteTree {
  const tree: RawRemoteTree = { folders: new Map(), assets: new Map(), sequence: listing.sequence, unknown: new Map() };
  for (const f of listing.folders) if (active(f)) tree.folders.set(f.id, rawFolder(f));
  for (const a of listing.assets) if (active(a)) tree.assets.set(a.id, rawAsset(a));
  for (const entry of listing.unreadable) markUnknown(tree, entry, known);
  return tree;
}

/** An unreadable item: unknown in `tree`, as `known` knew it if it did. */
function markUnknown(tree: RawRemoteTree, entry: UnreadableEntry, known: RawRemoteTree | null | undefined): void {
  const key = entry.id ?? (entry.fileName === undefined ? undefined : `?${entry.folderId ?? ''}/${entry.fileName}`);
  if (key === undefined) return;
  tree.unknown.set(key, entry);
  if (entry.id === undefined) return;
  if (entry.type === 'folder') {
    const was = known?.folders.get(entry.id);
    if (was) tree.folders.set(entry.id, was);
  } else {
    const was = known?.assets.get(entry.id);
    if (was) tree.assets.set(entry.id, was);
  }
}

/** Applies one page of the changes feed in place; the ids it touched are added to `touched`. */
export function applyChanges(tree: RawRemoteTree, changes: readonly FeedChange[], sequence: Sequence, touched: TreeChanges = noChanges()): TreeChanges {
  for (const change of changes) {
    if (change.type === 'unreadable') {
      const { entry } = change;
      if (entry.id !== undefined) (entry.type === 'folder' ? touched.folders : touched.assets).add(entry.id);
      markUnknown(tree, entry, tree);
    } else if (change.type === 'folder') {
      touched.folders.add(change.id);
      tree.unknown.delete(change.id);
      if (change.deleted || !change.folder || !active(change.folder)) tree.folders.delete(change.id);
      else tree.folders.set(change.id, rawFolder(change.folder));
    } else {
      touched.assets.add(change.id);
      tree.unknown.delete(change.id);
      if (change.deleted || !change.asset || !active(change.asset)) tree.assets.delete(change.id);
      else tree.assets.set(change.id, rawAsset(change.asset));
    }
  }
  tree.sequence = sequence;
  return touched;
}

/** Where each item of a raw tree is placed on this device (null: not placed), by id. */
export interface TreePaths {
  folders: Map<string, string | null>;
  assets: Map<string, string | null>;
}

export interface PlacedRemoteTree {
  files: Map<string, RemoteFile>;
  folders: Map<string, RemoteFolder>;
  /** Folder id by the pathKey of its local path; '' is the workspace top level (null id). */
  folderIds: Map<string, string | null>;
  /** Items the service has that this device leaves out (selective sync, or unplaced). */
  excluded: number;
  /**
   * Assets the service lists as active that have no place here: their folder is missing from
   * the listing or part of a cycle, or the path would be too long for a disk. A listing that
   * cannot place them says nothing about them: they must not read as deleted.
   */
  unplaced: Set<string>;
  /**
   * Assets the service sent that could not be read (`RawRemoteTree.unknown`): by id, and by the
   * path key where the tree knows where they are. Neither what was synced of them nor a local
   * file at their path takes part in a plan: nothing there is deleted, uploaded or replaced.
   */
  held: {
    assetIds: Set<string>;
    pathKeys: Set<string>;
    /**
     * A folder the service sent could not be read: whatever the tree lacks may be inside it, so
     * nothing missing from the tree is taken as deleted while this holds.
     */
    incomplete: boolean;
  };
  /** Every item of the tree by id, with its path or null: what the index stores (treeDiff). */
  paths: TreePaths;
}

/**
 * The children of one folder: their claims on names, and beside them (same index) the raw item
 * behind each. Kept apart so the claims carry only what `assignLocalNames` copies.
 */
interface Children {
  claims: NamedItem[];
  items: Array<RawFolder | RawAsset>;
}

/** A placement with nothing in it yet, at `paths`. */
const nothingPlaced = (paths: TreePaths): PlacedRemoteTree => ({
  files: new Map(),
  folders: new Map(),
  folderIds: new Map([['', null]]),
  excluded: 0,
  unplaced: new Set(),
  held: { assetIds: new Set(), pathKeys: new Set(), incomplete: false },
  paths,
});

/**
 * The version of the placing rules (names made safe, clashes settled, paths too long left out):
 * raise it with any change to what `placeRemoteTree` gives, so that paths stored by an older
 * version are placed afresh rather than taken as they are (`placeAsStored`).
 */
const PLACING_RULES = 1;

const excludedKeysOf = (excludedPaths: readonly string[]): Set<string> => new Set(excludedPaths.map((p) => pathKey(p.replace(/^\/+|\/+$/g, ''))));

/** What a placement depends on besides the tree: the rules and the folders left out. Stored with the paths. */
export function placementOf(excludedPaths: readonly string[]): string {
  return JSON.stringify({ rules: PLACING_RULES, excluded: [...excludedKeysOf(excludedPaths)].sort() });
}

/**
 * The tree placed at the paths the index stored with it, without placing it again: the same
 * placement `placeRemoteTree` gives, as long as the tree is the one stored, placed the same way
 * (`placementOf`), with every item placed. Null when some item is not (left out by selective
 * sync, or unplaceable): telling those apart takes placing, which the caller then does.
 * Placing 100,000 assets costs most of a second and a copy of every path; this costs a lookup.
 */
export function placeAsStored(tree: RawRemoteTree, paths: TreePaths): PlacedRemoteTree | null {
  if (tree.unknown.size > 0 || paths.folders.size !== tree.folders.size || paths.assets.size !== tree.assets.size) return null;
  const placed = nothingPlaced(paths);
  for (const f of tree.folders.values()) {
    const path = paths.folders.get(f.id);
    if (path === undefined || path === null) return null;
    const key = pathKey(path);
    placed.folders.set(key, { path, folderId: f.id, parentId: f.parentId });
    placed.folderIds.set(key, f.id);
  }
  for (const a of tree.assets.values()) {
    const path = paths.assets.get(a.id);
    if (path === undefined || path === null) return null;
    placed.files.set(pathKey(path), remoteFile(path, a.id, a));
  }
  return placed;
}

/**
 * A tree whose every item is placed, held as its placement alone: the placed file is the one
 * object per asset, and the raw tree is derived from it again (`expandTree`) when the feed or a
 * listing needs it. Holding both would cost a second object, a second map and a copy of every
 * name for each of 100,000 assets, for the moments between two placements that use them.
 */
export interface CompactTree {
  sequence: Sequence;
  /** The raw folders, by id: few beside the assets, and their names are not the placed ones. */
  folders: Map<string, RawFolder>;
  /** The service's name of each asset placed under another name (made safe, numbered), by id. */
  names: Map<string, string>;
  placed: PlacedRemoteTree;
}

/** The last segment of a placed path: its asset's name, unless `CompactTree.names` says otherwise. */
const lastSegment = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/**
 * A placement whose paths by id are worked out from its files and folders when first asked for
 * (a write of differences asks): every item of the tree is placed in it.
 */
function placedWithPaths(parts: Omit<PlacedRemoteTree, 'paths'>): PlacedRemoteTree {
  let paths: TreePaths | undefined;
  const { files, folders } = parts;
  return {
    ...parts,
    get paths(): TreePaths {
      if (paths === undefined) {
        paths = { folders: new Map(), assets: new Map() };
        for (const f of folders.values()) paths.folders.set(f.folderId, f.path);
        for (const f of files.values()) paths.assets.set(f.assetId, f.path);
      }
      return paths;
    },
  };
}

/**
 * The tree held as its placement, or null when the placement is not all of it: some item is
 * left out, unplaced or unreadable, and only the raw tree knows it.
 */
export function compactTree(tree: RawRemoteTree, placed: PlacedRemoteTree): CompactTree | null {
  const { held } = placed;
  if (tree.unknown.size > 0 || placed.excluded > 0 || placed.unplaced.size > 0 || held.incomplete || held.assetIds.size > 0 || held.pathKeys.size > 0) return null;
  if (placed.files.size !== tree.assets.size || placed.folders.size !== tree.folders.size) return null;
  const names = new Map<string, string>();
  for (const file of placed.files.values()) {
    const raw = tree.assets.get(file.assetId);
    if (raw === undefined) return null;
    if (raw.fileName !== lastSegment(file.path)) names.set(raw.id, raw.fileName);
  }
  const { paths: _paths, ...parts } = placed;
  return { sequence: tree.sequence, folders: tree.folders, names, placed: placedWithPaths(parts) };
}

/** The tree the index stored, held as its placement (`RemoteStateStore.loadPlacement`). */
export function compactFromStore(stored: StoredPlacement): CompactTree {
  const folderIds = new Map<string, string | null>([['', null]]);
  for (const [key, f] of stored.placedFolders) folderIds.set(key, f.folderId);
  const placed = placedWithPaths({
    files: stored.files,
    folders: stored.placedFolders,
    folderIds,
    excluded: 0,
    unplaced: new Set(),
    held: { assetIds: new Set(), pathKeys: new Set(), incomplete: false },
  });
  return { sequence: stored.sequence, folders: stored.folders, names: stored.names, placed };
}

/** The raw tree a compact one holds, as it was before it was placed. It takes over the folders' map. */
export function expandTree(compact: CompactTree): RawRemoteTree {
  const assets = new Map<string, RawAsset>();
  for (const f of compact.placed.files.values()) {
    assets.set(f.assetId, {
      id: f.assetId,
      folderId: f.folderId,
      fileName: compact.names.get(f.assetId) ?? lastSegment(f.path),
      versionId: f.versionId,
      versionNumber: f.versionNumber,
      checksum: f.checksum,
      size: f.size,
      lockedByUserId: f.lockedByUserId,
      sequence: f.sequence,
    });
  }
  return { folders: compact.folders, assets, sequence: compact.sequence, unknown: new Map() };
}

/**
 * Places the raw tree under safe local paths. `excludedPaths` are local folder paths (as shown
 * to the user) whose whole subtree stays off this device.
 */
export function placeRemoteTree(tree: RawRemoteTree, excludedPaths: readonly string[] = []): PlacedRemoteTree {
  const excludedKeys = excludedKeysOf(excludedPaths);
  const children = new Map<string, Children>();
  const add = (claim: NamedItem, item: RawFolder | RawAsset) => {
    const list = children.get(claim.parentKey);
    if (list) {
      list.claims.push(claim);
      list.items.push(item);
    } else {
      children.set(claim.parentKey, { claims: [claim], items: [item] });
    }
  };
  // The "f:"/"a:" ids decide who keeps a contested name: they must stay as they are, or a
  // clash would be settled the other way after an update and files renamed on disk.
  for (const f of tree.folders.values()) add({ id: `f:${f.id}`, parentKey: f.parentId ?? '', name: f.name }, f);
  for (const a of tree.assets.values()) add({ id: `a:${a.id}`, parentKey: a.folderId ?? '', name: a.fileName }, a);

  const paths: TreePaths = { folders: new Map(), assets: new Map() };
  const placed = nothingPlaced(paths);
  const excludedFolderIds = new Set<string>();
  // Breadth first from the top: an item whose parent is not in the tree is never reached.
  const queue: Array<{ parentId: string | null; path: string }> = [{ parentId: null, path: '' }];
  for (let next = 0; next < queue.length; next += 1) {
    const { parentId, path } = queue[next] as { parentId: string | null; path: string };
    const { claims, items } = children.get(parentId ?? '') ?? { claims: [], items: [] };
    const names = assignLocalNames(claims);
    for (let i = 0; i < claims.length; i += 1) {
      const claim = claims[i] as NamedItem;
      const item = items[i] as RawFolder | RawAsset;
      const name = names.get(claim.id) ?? claim.name;
      const childPath = path ? `${path}/${name}` : name;
      // A hostile or broken tree 10,000 folders deep would otherwise cost quadratic memory.
      // (A UTF-16 code unit is at most 3 UTF-8 bytes: most paths need no count.)
      if (childPath.length * 3 > MAX_PATH_BYTES && utf8Length(childPath) > MAX_PATH_BYTES) continue;
      const key = pathKey(childPath);
      if (claim.id.startsWith('f:')) {
        const id = item.id;
        if (excludedKeys.has(key)) {
          excludedFolderIds.add(id);
          continue;
        }
        placed.folders.set(key, { path: childPath, folderId: id, parentId });
        placed.folderIds.set(key, id);
        paths.folders.set(id, childPath);
        queue.push({ parentId: id, path: childPath });
      } else {
        const a = item as RawAsset;
        paths.assets.set(a.id, childPath);
        // Known as it was, but unreadable now: its name stays taken, its path held.
        if (tree.unknown.has(a.id)) {
          placed.held.assetIds.add(a.id);
          placed.held.pathKeys.add(key);
          continue;
        }
        placed.files.set(key, remoteFile(childPath, a.id, a));
      }
    }
  }
  holdUnknown(tree, placed);
  placed.excluded = tree.folders.size + tree.assets.size - placed.folders.size - placed.files.size;
  if (paths.folders.size < tree.folders.size) for (const id of tree.folders.keys()) if (!paths.folders.has(id)) paths.folders.set(id, null);
  if (paths.assets.size < tree.assets.size) {
    for (const a of tree.assets.values()) {
      if (paths.assets.has(a.id)) continue;
      paths.assets.set(a.id, null);
      if (!underFolder(tree, a.folderId, excludedFolderIds)) placed.unplaced.add(a.id);
    }
  }
  return placed;
}

/** The ids and paths of unreadable assets the tree did not know: held where they say they are. */
function holdUnknown(tree: RawRemoteTree, placed: PlacedRemoteTree): void {
  for (const entry of tree.unknown.values()) {
    if (entry.type === 'folder') placed.held.incomplete = true;
    if (entry.type !== 'asset' || (entry.id !== undefined && tree.assets.has(entry.id))) continue;
    if (entry.id !== undefined) placed.held.assetIds.add(entry.id);
    if (entry.fileName === undefined) continue;
    const folderPath = entry.folderId === null || entry.folderId === undefined ? '' : placed.paths.folders.get(entry.folderId);
    if (folderPath === undefined || folderPath === null) continue;
    const name = sanitizeName(entry.fileName);
    placed.held.pathKeys.add(pathKey(folderPath ? `${folderPath}/${name}` : name));
  }
}

/** Whether the chain of folders up from `folderId` meets one of `ids` (a cycle or a missing folder ends it). */
function underFolder(tree: RawRemoteTree, folderId: string | null, ids: ReadonlySet<string>): boolean {
  const seen = new Set<string>();
  for (let id = folderId; id !== null && !seen.has(id); id = tree.folders.get(id)?.parentId ?? null) {
    if (ids.has(id)) return true;
    seen.add(id);
  }
  return false;
}

/**
 * The rows that bring the index from what it holds (`stored`) to `tree` placed at `paths`:
 * items the feed `touched` and items placed elsewhere than stored (a renamed folder moves every
 * path below it) are written, items gone from the tree are deleted, the rest is left alone.
 */
export function treeDiff(tree: RawRemoteTree, paths: TreePaths, stored: TreePaths, touched: TreeChanges): Omit<TreeWrite, 'sequence'> {
  const write = { folders: [] as Array<PlacedItem<RawFolder>>, assets: [] as Array<PlacedItem<RawAsset>>, deletedFolderIds: [] as string[], deletedAssetIds: [] as string[] };
  for (const [id, item] of tree.folders) {
    const path = paths.folders.get(id) ?? null;
    if (touched.folders.has(id) || stored.folders.get(id) !== path) write.folders.push({ item, path });
  }
  for (const [id, item] of tree.assets) {
    const path = paths.assets.get(id) ?? null;
    if (touched.assets.has(id) || stored.assets.get(id) !== path) write.assets.push({ item, path });
  }
  for (const id of stored.folders.keys()) if (!tree.folders.has(id)) write.deletedFolderIds.push(id);
  for (const id of stored.assets.keys()) if (!tree.assets.has(id)) write.deletedAssetIds.push(id);
  return write;
}

/** Every item with its place: what a full listing stores. */
export function treeRows(tree: RawRemoteTree, paths: TreePaths): Pick<TreeWrite, 'folders' | 'assets'> {
  return {
    folders: [...tree.folders.values()].map((item) => ({ item, path: paths.folders.get(item.id) ?? null })),
    assets: [...tree.assets.values()].map((item) => ({ item, path: paths.assets.get(item.id) ?? null })),
  };
}

/**
 * The ids whose raw item differs between two trees, either way (set, changed or gone): what a
 * full listing says the tree built from the feed got wrong.
 */
export function treeDifferences(kept: RawRemoteTree, listed: RawRemoteTree): TreeChanges {
  const differ = noChanges();
  for (const [id, f] of listed.folders) {
    const k = kept.folders.get(id);
    if (!k || k.parentId !== f.parentId || k.name !== f.name) differ.folders.add(id);
  }
  for (const id of kept.folders.keys()) if (!listed.folders.has(id)) differ.folders.add(id);
  for (const [id, a] of listed.assets) {
    const k = kept.assets.get(id);
    if (!k || !sameAsset(k, a)) differ.assets.add(id);
  }
  for (const id of kept.assets.keys()) if (!listed.assets.has(id)) differ.assets.add(id);
  return differ;
}

function sameAsset(a: RawAsset, b: RawAsset): boolean {
  return (
    a.folderId === b.folderId &&
    a.fileName === b.fileName &&
    a.versionId === b.versionId &&
    a.versionNumber === b.versionNumber &&
    a.checksum === b.checksum &&
    a.size === b.size &&
    a.lockedByUserId === b.lockedByUserId &&
    a.sequence === b.sequence
  );
}
