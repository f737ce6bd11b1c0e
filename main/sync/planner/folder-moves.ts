/**
 * Folder renames and moves, on either side. A folder renamed on the service
 * is renamed on disk with one rename(2), and a folder renamed here is renamed on the service
 * with one call: the folder keeps its id, and what is in it, however much, is neither moved one
 * file at a time nor read nor transferred. Everything below the folder, and anything the engine
 * does not sync (ignored files, symlinks), moves with it.
 *
 * - Service side: a folder of the base is listed under its id at another key, and the folder is
 *   still at its old key on disk.
 * - Local side: a folder of the base is gone from disk, the service still has it in place, and
 *   most of the files synced below it are found under one new folder with the same relative
 *   paths (paired by inode, or by checksum: file-moves.ts), or a new folder has its inode.
 *
 * When there are any, the plan holds these moves alone (plan.ts): every other decision is
 * taken once they ran, on the views as they then are, so a move that fails leaves nothing
 * planned on the assumption that it happened. A folder below one that moves waits for that next
 * plan, and so does a folder moved here into a new folder: the plan makes that folder on the
 * service first. Anything that does not fit (the destination taken on the side that follows, its parent
 * missing there, both sides moved it, the move failing lately) is left to the per-file
 * reconciliation, which keeps ids and versions but moves file by file.
 */
import { pathKey } from '../../local/paths.js';
import type { CreateRemoteFolder, MoveLocalFolder, MoveRemoteFolder } from '../actions.js';
import type { PlannerInput } from '../../model/views.js';
import { detectLocalMoves } from './file-moves.js';
import { ancestorKeys, depthOf, compareStrings, parentOf, sortedEntries } from '../rel-path.js';

/** A folder move, or a folder the service needs before a move into it can run. */
export type FolderMove = MoveLocalFolder | MoveRemoteFolder | CreateRemoteFolder;

/**
 * `localSpelling` turns a remote path into the path it takes on disk; `failing`: path keys whose
 * last attempt failed and is not due again yet.
 */
export function planFolderMoves(
  input: PlannerInput,
  localSpelling: (relPath: string) => string,
  failing: ReadonlySet<string> = new Set(),
): FolderMove[] {
  const { local, base, remote } = input.folders;
  const remoteKeyById = new Map<string, string>();
  for (const [key, r] of remote) remoteKeyById.set(r.folderId, key);
  const moves: FolderMove[] = [];
  /** Keys of the folders that move (the old key and the new one): nothing below them moves now. */
  const moving = new Set<string>();
  // Runs for every folder at every cycle: nothing to look up while nothing moves.
  const belowMoving = (key: string): boolean => moving.size > 0 && ancestorKeys(`${key}/x`).some((k) => moving.has(k));
  const localMoveTarget = lazy(() => localFolderTargets(input));
  /** Keys of the new local folders created on the service first (`newLocalFolders`). */
  const creating = new Set<string>();

  const shallowFirst = sortedEntries(base).sort(([a], [b]) => depthOf(a) - depthOf(b) || compareStrings(a, b));
  for (const [key, b] of shallowFirst) {
    if (belowMoving(key)) continue;
    const remoteKey = remoteKeyById.get(b.folderId);
    if (remoteKey === undefined) continue;
    const r = remote.get(remoteKey);
    if (r === undefined) continue;
    const l = local.get(key);

    if (remoteKey !== key && l !== undefined) {
      // Moved on the service; here it is where it was.
      const to = localSpelling(r.path);
      const parent = pathKey(parentOf(r.path));
      const parentThere = parent === '' || local.has(parent) || (remote.has(parent) && !base.has(parent) && !input.files.local.has(parent));
      if (!parentThere || taken(input, 'local', remoteKey) || remote.has(key) || failing.has(key) || failing.has(remoteKey)) continue;
      if (belowMoving(remoteKey) || remoteKey.startsWith(`${key}/`)) continue;
      moves.push({ kind: 'move-local', item: 'folder', from: l.path, to, folderId: r.folderId, reason: `folder moved on the service from "${b.path}" to "${r.path}"` });
      moving.add(key).add(remoteKey);
      continue;
    }

    if (remoteKey === key && l === undefined) {
      // Gone from here, in place on the service: renamed or moved here if its files went one way.
      const localKey = localMoveTarget().get(key);
      if (localKey === undefined) continue;
      const to = local.get(localKey);
      const parent = pathKey(parentOf(to?.path ?? ''));
      if (to === undefined || base.has(localKey) || taken(input, 'remote', localKey) || failing.has(key) || failing.has(localKey)) continue;
      if (moving.has(parent) || failing.has(parent) || belowMoving(localKey) || localKey.startsWith(`${key}/`)) continue;
      if (parent !== '' && !remote.has(parent)) {
        // Moved into a folder made here: that folder goes up first, and the move follows in
        // the next plan (a move and the folder it needs in one plan would not be ordered).
        const chain = newLocalFolders(input, parent);
        if (chain === null) continue;
        for (const folder of chain) {
          if (creating.has(pathKey(folder))) continue;
          creating.add(pathKey(folder));
          moves.push({ kind: 'create-remote-folder', path: folder, reason: `new local folder, made first so that "${b.path}" can move into it` });
        }
        moving.add(key);
        continue;
      }
      moves.push({ kind: 'move-remote', item: 'folder', from: r.path, to: to.path, folderId: r.folderId, reason: `folder moved locally from "${b.path}" to "${to.path}"` });
      moving.add(key).add(localKey);
    }
  }
  return moves;
}

/**
 * The local folders from the top down to `folderKey` that the service lacks, shallow first; null
 * unless each is new here (the base never had it: one it had was deleted on the service).
 */
function newLocalFolders(input: PlannerInput, folderKey: string): string[] | null {
  const chain: string[] = [];
  for (const key of ancestorKeys(`${folderKey}/x`)) {
    if (input.folders.remote.has(key)) break;
    const l = input.folders.local.get(key);
    if (l === undefined || input.folders.base.has(key) || input.files.remote.has(key)) return null;
    chain.unshift(l.path);
  }
  return chain;
}

/** Whether a file or folder holds `key` on that side (a move never replaces anything). */
function taken(input: PlannerInput, side: 'local' | 'remote', key: string): boolean {
  return input.folders[side].has(key) || input.files[side].has(key);
}

/**
 * Base folder key -> the key of the local folder its files went to, for base folders whose
 * synced files mostly (more than half) sit under one new folder, as deep as they were below it
 * (a subfolder renamed too still counts: its own move is planned once this one ran); failing
 * that, the new folder with its inode.
 */
function localFolderTargets(input: PlannerInput): Map<string, string> {
  const pairs = detectLocalMoves(input.files.local, input.files.base, input.ownCopies);
  const votes = new Map<string, Map<string, number>>();
  const totals = new Map<string, number>();
  for (const baseKey of input.files.base.keys()) {
    const localKey = pairs.get(baseKey);
    const localFolders = localKey === undefined ? [] : ancestorKeys(localKey);
    ancestorKeys(baseKey).forEach((folderKey, levelsUp) => {
      if (input.folders.local.has(folderKey)) return;
      totals.set(folderKey, (totals.get(folderKey) ?? 0) + 1);
      // The local folder as many levels above the file as this one was.
      const target = localFolders[levelsUp];
      if (target === undefined) return;
      const tally = votes.get(folderKey) ?? new Map<string, number>();
      tally.set(target, (tally.get(target) ?? 0) + 1);
      votes.set(folderKey, tally);
    });
  }
  const targets = new Map<string, string>();
  for (const [folderKey, tally] of votes) {
    const [target, count] = [...tally].sort(([a, x], [b, y]) => y - x || compareStrings(a, b))[0] as [string, number];
    if (count * 2 > (totals.get(folderKey) ?? 0) && input.folders.local.has(target)) targets.set(folderKey, target);
  }
  followInodes(input, targets);
  return targets;
}

/**
 * Adds the base folders gone from here that no file points after (an empty folder, or one whose
 * files went different ways) but whose inode a new local folder has: a rename keeps the inode.
 */
function followInodes(input: PlannerInput, targets: Map<string, string>): void {
  const { local, base } = input.folders;
  const byInode = new Map<number, string>();
  for (const [key, l] of local) if (l.inode !== undefined && !base.has(key)) byInode.set(l.inode, key);
  if (byInode.size === 0) return;
  for (const [key, b] of base) {
    if (b.inode === undefined || targets.has(key) || local.has(key)) continue;
    const target = byInode.get(b.inode);
    if (target !== undefined) targets.set(key, target);
  }
}

function lazy<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: make() }).v;
}
