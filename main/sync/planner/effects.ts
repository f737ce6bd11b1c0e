/**
 * Which files exist on each side once a list of file actions has run: what the folder
 * decisions ("is anything left in this folder?") are made against.
 */
import { pathKey } from '../../local/paths.js';
import { assertNever, type Action } from '../actions.js';
import type { BaseFile, LocalFile, RemoteFile, SyncState } from '../../model/views.js';

export interface FilesAfter {
  /** Key -> path of every file on disk afterwards. */
  local: Map<string, string>;
  /** Key -> path of every asset on the service afterwards. */
  remote: Map<string, string>;
}

export function filesAfter(files: SyncState<LocalFile, BaseFile, RemoteFile>, actions: readonly Action[]): FilesAfter {
  const after: FilesAfter = {
    local: new Map([...files.local].map(([key, l]) => [key, l.path])),
    remote: new Map([...files.remote].map(([key, r]) => [key, r.path])),
  };
  for (const action of actions) apply(after, action);
  return after;
}

function apply(after: FilesAfter, action: Action): void {
  const put = (side: Map<string, string>, path: string): void => void side.set(pathKey(path), path);
  const drop = (side: Map<string, string>, path: string): void => void side.delete(pathKey(path));
  switch (action.kind) {
    case 'move-local':
      drop(after.local, action.from);
      put(after.local, action.to);
      return;
    case 'move-remote':
      drop(after.remote, action.from);
      put(after.remote, action.to);
      return;
    case 'delete-local':
      drop(after.local, action.path);
      return;
    case 'delete-remote':
      drop(after.remote, action.path);
      return;
    case 'download':
      put(after.local, action.path);
      return;
    case 'upload-new':
      put(after.remote, action.path);
      return;
    case 'conflict':
      for (const step of action.steps) apply(after, step);
      return;
    case 'upload-version':
    case 'record-base':
    case 'forget-base':
    case 'locked':
    case 'create-local-folder':
    case 'create-remote-folder':
    case 'delete-local-folder':
    case 'delete-remote-folder':
    case 'record-folder-base':
    case 'forget-folder-base':
      return;
    default:
      assertNever(action);
  }
}
