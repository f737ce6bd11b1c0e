/**
 * Folder reconciliation, after the file actions are known. A folder new on one side is created
 * on the other; a folder deleted on one side (known to the base) is deleted on the other only
 * if nothing will be left in it once the file actions ran; otherwise it is re-created where it
 * was deleted, so that what is kept has somewhere to live.
 */
import type {
  CreateLocalFolder,
  CreateRemoteFolder,
  DeleteLocalFolder,
  DeleteRemoteFolder,
  ForgetFolderBase,
  RecordFolderBase,
} from '../actions.js';
import type { BaseFolder, LocalFolder, RemoteFolder, SyncState } from '../../model/views.js';
import { ancestorKeys, compareStrings, depthOf, parentOf } from '../rel-path.js';

export type FolderAction =
  | CreateLocalFolder
  | CreateRemoteFolder
  | DeleteLocalFolder
  | DeleteRemoteFolder
  | RecordFolderBase
  | ForgetFolderBase;

/**
 * `occupied`: keys of folders that hold a file on either side once the file actions ran, asked
 * for only if a folder was deleted on one side (finding them reads every file).
 * `localSpelling` turns a remote path into the path it takes on disk.
 */
export function planFolders(
  folders: SyncState<LocalFolder, BaseFolder, RemoteFolder>,
  occupied: () => ReadonlySet<string>,
  localSpelling: (relPath: string) => string,
): FolderAction[] {
  const keys = new Set([...folders.local.keys(), ...folders.base.keys(), ...folders.remote.keys()]);
  // Deepest first, so a kept child is known before its parent is judged.
  const ordered = [...keys].sort((a, b) => depthOf(b) - depthOf(a) || compareStrings(a, b));
  /** Folders kept so far, with their ancestors: needed, as the occupied ones are. */
  const kept = new Set<string>();
  let occupiedKeys: ReadonlySet<string> | undefined;
  const needed = (key: string): boolean => kept.has(key) || (occupiedKeys ??= occupied()).has(key);
  const keep = (key: string, path: string): void => {
    kept.add(key);
    for (const ancestor of ancestorKeys(path)) kept.add(ancestor);
  };
  const actions: FolderAction[] = [];

  for (const key of ordered) {
    const l = folders.local.get(key);
    const b = folders.base.get(key);
    const r = folders.remote.get(key);
    if (l !== undefined && r !== undefined) {
      keep(key, l.path);
      // A folder made again under the same name (or a row from before inodes were kept) is
      // recorded again, so that its inode can tell its rename later.
      if (b === undefined || b.folderId !== r.folderId || b.path !== l.path || (l.inode !== undefined && b.inode !== l.inode)) {
        actions.push({
          kind: 'record-folder-base',
          base: { path: l.path, folderId: r.folderId },
          reason: 'the folder exists on both sides',
        });
      }
    } else if (l !== undefined) {
      if (b === undefined || needed(key)) {
        keep(key, l.path);
        actions.push({
          kind: 'create-remote-folder',
          path: l.path,
          reason: b === undefined ? 'new local folder' : 'deleted on the service, but it still holds files to keep',
        });
      } else {
        actions.push({ kind: 'delete-local-folder', path: l.path, reason: 'deleted on the service and nothing is left in it' });
      }
    } else if (r !== undefined) {
      if (b === undefined || needed(key)) {
        const path = localSpelling(r.path);
        keep(key, path);
        actions.push({
          kind: 'create-local-folder',
          path,
          folderId: r.folderId,
          reason: b === undefined ? 'new folder on the service' : 'deleted locally, but it still holds files to keep',
        });
      } else {
        actions.push({ kind: 'delete-remote-folder', path: r.path, folderId: r.folderId, reason: 'deleted locally and nothing is left in it' });
      }
    } else if (b !== undefined) {
      actions.push({ kind: 'forget-folder-base', path: b.path, reason: 'deleted on both sides' });
    }
  }
  return actions;
}

/** Keys of every folder that holds one of `filePaths`. */
export function foldersHolding(filePaths: Iterable<string>): Set<string> {
  const keys = new Set<string>();
  // Files share their folders: each folder path is keyed once, not once per file in it.
  const seen = new Set<string>();
  for (const path of filePaths) {
    const parent = parentOf(path);
    if (seen.has(parent)) continue;
    seen.add(parent);
    for (const key of ancestorKeys(path)) keys.add(key);
  }
  return keys;
}
