/**
 * The order the executor runs a plan in: folders' case-only renames first,
 * shallow to deep, since everything after them names those folders by their new spelling (a
 * folder made below one beforehand would bring the new spelling into being as a second folder
 * on a case-sensitive disk); folders created shallow to deep, so every parent exists first;
 * then moves, so nothing is deleted or re-transferred that only changed its name; then
 * deletions deep to shallow, so a folder is emptied before it goes; then transfers; then base
 * bookkeeping and reports. Within a phase: by path, then by kind.
 * A folder that takes the place of a file (a file became a folder on the other side) is
 * created once that file is deleted, right after the deletions.
 */
import { actionPath, assertNever, type Action } from '../actions.js';
import { pathKey } from '../../local/paths.js';
import { compareStrings, depthOf } from '../rel-path.js';

const Phase = {
  renameFolders: 0,
  createFolders: 1,
  moves: 2,
  deletions: 3,
  replacingFolders: 4,
  transfers: 5,
  bookkeeping: 6,
} as const;

function phaseOf(action: Action, deletedFiles: ReadonlySet<string>): number {
  switch (action.kind) {
    case 'create-local-folder':
      return deletedFiles.has(`local:${pathKey(action.path)}`) ? Phase.replacingFolders : Phase.createFolders;
    case 'create-remote-folder':
      return deletedFiles.has(`remote:${pathKey(action.path)}`) ? Phase.replacingFolders : Phase.createFolders;
    case 'move-local':
    case 'move-remote':
      return action.item === 'folder' ? Phase.renameFolders : Phase.moves;
    // Base rows are dropped with the deletions, before the transfers: a transfer may write a
    // new row at the same path.
    case 'delete-local':
    case 'delete-remote':
    case 'delete-local-folder':
    case 'delete-remote-folder':
    case 'forget-base':
    case 'forget-folder-base':
      return Phase.deletions;
    case 'download':
    case 'upload-new':
    case 'upload-version':
    case 'conflict':
      return Phase.transfers;
    case 'record-base':
    case 'record-folder-base':
    case 'locked':
      return Phase.bookkeeping;
    default:
      return assertNever(action);
  }
}

export function orderActions(actions: readonly Action[]): Action[] {
  const deletedFiles = new Set(
    actions.flatMap((a) =>
      a.kind === 'delete-local' ? [`local:${pathKey(a.path)}`] : a.kind === 'delete-remote' ? [`remote:${pathKey(a.path)}`] : [],
    ),
  );
  const keyed = actions.map((action) => {
    const phase = phaseOf(action, deletedFiles);
    const path = actionPath(action);
    const depth = depthOf(path);
    const shallowFirst = phase === Phase.renameFolders || phase === Phase.createFolders || phase === Phase.replacingFolders;
    const byDepth = shallowFirst ? depth : phase === Phase.deletions ? -depth : 0;
    return { action, phase, path, byDepth };
  });
  keyed.sort(
    (a, b) =>
      a.phase - b.phase ||
      a.byDepth - b.byDepth ||
      compareStrings(a.path, b.path) ||
      compareStrings(a.action.kind, b.action.kind),
  );
  return keyed.map((k) => k.action);
}
