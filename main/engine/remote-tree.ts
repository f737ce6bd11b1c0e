/**
 * The service's tree as this device places it on disk. The raw tree (ids, parents, names as the
 * service sends them) is kept as listed and patched by the changes feed; placing it is a pure
 * function that makes every name safe (main/local/paths.ts), disambiguates clashes per folder
 * deterministically, and leaves out what selective sync excludes. A folder rename on the service
 * thus moves every path below it, with no special case.
 */
import type { AssetEntry, Change, Folder, Hierarchy } from '../../shared/api/index.js';
import { MAX_PATH_BYTES, assignLocalNames, pathKey, utf8Length, type NamedItem } from '../local/paths.js';
import type { RemoteFile, RemoteFolder } from '../sync/model.js';

export interface RawRemoteTree {
  folders: Map<string, Folder>;
  assets: Map<string, AssetEntry>;
  sequence: number;
}

export function treeFromListing(listing: Hierarchy): RawRemoteTree {
  return {
    folders: new Map(listing.folders.filter((f) => f.isActive).map((f) => [f.id, f])),
    assets: new Map(listing.assets.filter((a) => a.isActive).map((a) => [a.id, a])),
    sequence: listing.sequence,
  };
}

/** Applies one page of the changes feed in place. */
export function applyChanges(tree: RawRemoteTree, changes: readonly Change[], sequence: number): void {
  for (const change of changes) {
    if (change.type === 'folder') {
      if (change.deleted || !change.folder || !change.folder.isActive) tree.folders.delete(change.id);
      else tree.folders.set(change.id, change.folder);
    } else if (change.deleted || !change.asset || !change.asset.isActive) {
      tree.assets.delete(change.id);
    } else {
      tree.assets.set(change.id, change.asset);
    }
  }
  tree.sequence = sequence;
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
}

/**
 * Places the raw tree under safe local paths. `excludedPaths` are local folder paths (as shown
 * to the user) whose whole subtree stays off this device.
 */
export function placeRemoteTree(tree: RawRemoteTree, excludedPaths: readonly string[] = []): PlacedRemoteTree {
  const excludedKeys = new Set(excludedPaths.map((p) => pathKey(p.replace(/^\/+|\/+$/g, ''))));
  const children = new Map<string, NamedItem[]>();
  const add = (parentId: string | null, item: NamedItem) => {
    const key = parentId ?? '';
    const list = children.get(key);
    if (list) list.push(item);
    else children.set(key, [item]);
  };
  for (const f of tree.folders.values()) add(f.parent_id, { id: `f:${f.id}`, parentKey: f.parent_id ?? '', name: f.name });
  for (const a of tree.assets.values()) add(a.folder_id, { id: `a:${a.id}`, parentKey: a.folder_id ?? '', name: a.file_name });

  const placed: PlacedRemoteTree = { files: new Map(), folders: new Map(), folderIds: new Map([['', null]]), excluded: 0, unplaced: new Set() };
  const excludedFolderIds = new Set<string>();
  // Breadth first from the top: an item whose parent is not in the tree is never reached.
  const queue: Array<{ parentId: string | null; path: string }> = [{ parentId: null, path: '' }];
  for (let next = 0; next < queue.length; next += 1) {
    const { parentId, path } = queue[next] as { parentId: string | null; path: string };
    const items = children.get(parentId ?? '') ?? [];
    const names = assignLocalNames(items);
    for (const item of items) {
      const name = names.get(item.id) ?? item.name;
      const childPath = path ? `${path}/${name}` : name;
      const id = item.id.slice(2);
      // A hostile or broken tree 10,000 folders deep would otherwise cost quadratic memory.
      if (utf8Length(childPath) > MAX_PATH_BYTES) continue;
      if (item.id.startsWith('f:')) {
        if (excludedKeys.has(pathKey(childPath))) {
          excludedFolderIds.add(id);
          continue;
        }
        placed.folders.set(pathKey(childPath), { path: childPath, folderId: id, parentId });
        placed.folderIds.set(pathKey(childPath), id);
        queue.push({ parentId: id, path: childPath });
      } else {
        const a = tree.assets.get(id);
        if (!a) continue;
        placed.files.set(pathKey(childPath), {
          path: childPath,
          assetId: a.id,
          folderId: a.folder_id,
          versionId: a.current_version_id,
          versionNumber: a.version_number,
          checksum: a.checksum,
          size: a.size,
          lockedByUserId: a.locked_by_user_id,
          sequence: a.sequence,
        });
      }
    }
  }
  placed.excluded = tree.folders.size + tree.assets.size - placed.folders.size - placed.files.size;
  const placedAssets = new Set([...placed.files.values()].map((f) => f.assetId));
  for (const a of tree.assets.values()) {
    if (!placedAssets.has(a.id) && !underFolder(tree, a.folder_id, excludedFolderIds)) placed.unplaced.add(a.id);
  }
  return placed;
}

/** Whether the chain of folders up from `folderId` meets one of `ids` (a cycle or a missing folder ends it). */
function underFolder(tree: RawRemoteTree, folderId: string | null, ids: ReadonlySet<string>): boolean {
  const seen = new Set<string>();
  for (let id = folderId; id !== null && !seen.has(id); id = tree.folders.get(id)?.parent_id ?? null) {
    if (ids.has(id)) return true;
    seen.add(id);
  }
  return false;
}
