/** Folder creation on either side, recorded in the base and in the map of remote folder ids. */
import { lstatSync } from 'node:fs';
import { lstat, mkdir } from 'node:fs/promises';
import { pathKey, resolveInsideRoot } from '../../local/paths.js';
import { conflictDetails, isServiceError } from '../../service-client/index.js';
import type { CreateLocalFolder, CreateRemoteFolder } from '../actions.js';
import { nameOf, parentOf } from '../rel-path.js';
import { DONE, recordActivity, remoteFolderId, signalOpt, suppress, type ExecutorDeps, type Outcome } from './context.js';
import { writablePath } from './disk.js';

export async function createLocalFolder(action: CreateLocalFolder, deps: ExecutorDeps): Promise<Outcome> {
  const abs = await writablePath(deps, action.path);
  suppress(deps, action.path);
  await mkdir(abs, { recursive: true });
  if (!(await lstat(abs)).isDirectory()) throw new Error(`"${action.path}" exists and is not a folder`);
  recordFolder(deps, action.path, action.folderId);
  recordActivity(deps, 'created', action.path, `Created the folder ${action.path}`);
  return DONE;
}

export async function createRemoteFolder(action: CreateRemoteFolder, deps: ExecutorDeps): Promise<Outcome> {
  resolveInsideRoot(deps.root, action.path);
  const parentId = remoteFolderId(deps, parentOf(action.path));
  let folderId: string;
  try {
    folderId = (await deps.client.createFolder(deps.workspaceId, { name: nameOf(action.path), parent_id: parentId }, signalOpt(deps))).id;
  } catch (err) {
    // The folder exists already (made by someone else, or by our attempt whose answer was lost).
    const existing = isServiceError(err) && err.code === 'name_conflict' ? conflictDetails(err)?.id : undefined;
    if (existing === undefined) throw err;
    folderId = existing;
  }
  recordFolder(deps, action.path, folderId);
  recordActivity(deps, 'created', action.path, `Created the folder ${action.path} on the service`);
  return DONE;
}

/**
 * The folder is on both sides now: its base row, and its id for the files and folders below.
 * The row keeps the folder's inode: renamed here while empty, it is recognised by that alone.
 */
export function recordFolder(deps: ExecutorDeps, relPath: string, folderId: string): void {
  const inode = lstatSync(resolveInsideRoot(deps.root, relPath), { bigint: true, throwIfNoEntry: false })?.ino;
  deps.index.base.putFolder(deps.workspaceId, inode === undefined ? { path: relPath, folderId } : { path: relPath, folderId, inode: Number(inode) });
  deps.folderIds.set(pathKey(relPath), folderId);
}
