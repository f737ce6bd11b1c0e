/**
 * The order the executor runs a plan in (design notes §2): folders created shallow to deep, so
 * every parent exists first; then moves, so nothing is deleted or re-transferred that only
 * changed its name; then deletions deep to shallow, so a folder is emptied before it goes;
 * then transfers; then base bookkeeping and reports. Within a phase: by path, then by kind.
 */
import { actionPath, assertNever, type Action } from './actions.js';
import { compareStrings, depthOf } from './rel-path.js';

const Phase = {
  createFolders: 0,
  moves: 1,
  deletions: 2,
  transfers: 3,
  bookkeeping: 4,
} as const;

function phaseOf(action: Action): number {
  switch (action.kind) {
    case 'create-local-folder':
    case 'create-remote-folder':
      return Phase.createFolders;
    case 'move-local':
    case 'move-remote':
      return Phase.moves;
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
  const keyed = actions.map((action) => {
    const phase = phaseOf(action);
    const path = actionPath(action);
    const depth = depthOf(path);
    const byDepth = phase === Phase.createFolders ? depth : phase === Phase.deletions ? -depth : 0;
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
