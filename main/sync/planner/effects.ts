/**
 * Which files exist on each side once a list of file actions has run: what the folder
 * decisions ("is anything left in this folder?") are made against.
 */
import { pathKey } from '../../local/paths.js';
import { assertNever, type Action } from '../actions.js';
import type { BaseFile, LocalFile, RemoteFile, SyncState } from '../../model/views.js';

/** What the actions change on each side, by key: the path a file then has, or null where none is left. */
interface Changes {
  local: Map<string, string | null>;
  remote: Map<string, string | null>;
}

/**
 * The path of every file on either side once `actions` ran (the same path may come twice).
 * Only what the actions change is held apart: the views are not copied, which at 100,000
 * files would be two maps of 100,000 entries for a plan of a few actions.
 */
export function* filePathsAfter(files: SyncState<LocalFile, BaseFile, RemoteFile>, actions: readonly Action[]): Generator<string> {
  const changes: Changes = { local: new Map(), remote: new Map() };
  for (const action of actions) apply(changes, action);
  for (const [side, views] of [
    [changes.local, files.local],
    [changes.remote, files.remote],
  ] as const) {
    for (const [key, item] of views) if (!side.has(key)) yield item.path;
    for (const path of side.values()) if (path !== null) yield path;
  }
}

function apply(after: Changes, action: Action): void {
  const put = (side: Map<string, string | null>, path: string): void => void side.set(pathKey(path), path);
  const drop = (side: Map<string, string | null>, path: string): void => void side.set(pathKey(path), null);
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
