/**
 * Move detection: pairs a base file with where it went on each side, so that a rename is
 * planned as a rename (no re-upload, no delete + create, the asset keeps its history) and the
 * content comparison then happens at the new path.
 *
 * - Remote: the base's asset id is found at another path.
 * - Local: the base path is empty and a file the base does not know has the same inode
 *   (a rename), or else the same checksum and size (a copy-and-delete), with exactly one
 *   candidate on each side.
 * - Both: if they agree, nothing moves; if not, the service's location wins (what teammates
 *   see stays put; the local file follows it).
 *
 * A move is only applied when its destination is free on the side that has to change; anything
 * else falls back to per-path reconciliation, which may upload or download more than needed
 * but never loses data.
 */
import type { BaseFile, LocalFile, RemoteFile, SyncState } from '../../model/views.js';
import type { MoveLocalFile, MoveRemoteAsset } from '../actions.js';
import { sortedEntries } from '../rel-path.js';

/** What sits at one path key once moves are applied. */
export interface FileSlot {
  local?: LocalFile;
  /** Its `path` is where the base row is; a key other than the slot's means the row must move. */
  base?: BaseFile;
  remote?: RemoteFile;
}

export interface AlignedFiles {
  /** Every path key with what sits there, in key order (code units): one slot at a time, none kept. */
  slots: Iterable<[string, FileSlot]>;
  moves: Array<MoveLocalFile | MoveRemoteAsset>;
}

/**
 * `localSpelling` turns a remote path into the path it takes on disk (existing folders' case);
 * `ownCopies` holds the path keys of the conflicted copies this client made (see `detectLocalMoves`).
 */
export function alignMoves(
  files: SyncState<LocalFile, BaseFile, RemoteFile>,
  localSpelling: (relPath: string) => string,
  ownCopies: { has(key: string): boolean } = new Set(),
): AlignedFiles {
  // Most cycles move nothing: every synced file is still at its key on both sides. Then no move
  // is applied, the views stay as they are, and nothing is copied or indexed.
  if (!anyMoved(files)) return { slots: slotsOf(files), moves: [] };
  const local = new Map(files.local);
  const base = new Map(files.base);
  const remote = new Map(files.remote);
  const remoteKeyByAsset = uniqueIndex(remote, (r) => r.assetId);
  const localMoves = detectLocalMoves(files.local, files.base, ownCopies);
  const moves: Array<MoveLocalFile | MoveRemoteAsset> = [];
  // A destination must be free before and after the moves planned so far: a move onto a path
  // another move empties would depend on the order the two run in (a chain), so it falls back.
  // Nor can a file move into a folder that takes its own name ("Notes" to "Notes/old.txt"):
  // the folder cannot be made while the file holds the name, so it is a delete and a new file.
  const free = (to: string, side: 'local' | 'remote', from: string): boolean => {
    const [before, now] = side === 'local' ? [files.local, local] : [files.remote, remote];
    return !to.startsWith(`${from}/`) && !before.has(to) && !now.has(to) && !files.base.has(to) && !base.has(to);
  };

  for (const [key, b] of sortedEntries(files.base)) {
    const lk = local.has(key) ? key : localMoves.get(key);
    const rk = remote.get(key)?.assetId === b.assetId ? key : remoteKeyByAsset.get(b.assetId);
    const localMoved = lk !== undefined && lk !== key;
    const remoteMoved = rk !== undefined && rk !== key;
    if (!localMoved && !remoteMoved) continue;

    const relocate = (to: string, basePath: string): void => {
      base.delete(key);
      base.set(to, { ...b, path: basePath });
    };

    if (localMoved && (!remoteMoved || rk === lk)) {
      const l = local.get(lk);
      if (rk === lk) {
        // Both sides made the same move: nothing to do but carry the base along (the slot
        // sees a base row at the old path and re-records it).
        relocate(lk, b.path);
        continue;
      }
      const r = rk === undefined ? undefined : remote.get(rk);
      // Deleted on the service: nothing to move there; the new local file is uploaded instead.
      if (l === undefined || r === undefined || !free(lk, 'remote', key)) continue;
      moves.push({
        kind: 'move-remote',
        from: r.path,
        to: l.path,
        assetId: r.assetId,
        basePath: b.path,
        reason: `moved locally from "${b.path}" to "${l.path}"`,
      });
      remote.delete(key);
      remote.set(lk, { ...r, path: l.path });
      relocate(lk, l.path);
      continue;
    }

    // The service moved it (alone, or to another place than the local move: the service wins).
    const r = rk === undefined ? undefined : remote.get(rk);
    if (r === undefined || rk === undefined || !free(rk, 'local', key)) continue;
    const to = localSpelling(r.path);
    const l = lk === undefined ? undefined : local.get(lk);
    if (l === undefined || lk === undefined) {
      // Deleted locally: follow the asset to its new path, where the deletion is reconciled.
      relocate(rk, b.path);
      continue;
    }
    moves.push({
      kind: 'move-local',
      from: l.path,
      to,
      basePath: b.path,
      reason: localMoved
        ? `moved to "${r.path}" on the service and to "${l.path}" locally: the service's location wins`
        : `moved on the service from "${b.path}" to "${r.path}"`,
    });
    local.delete(lk);
    local.set(rk, { ...l, path: to });
    relocate(rk, to);
  }

  return { slots: slotsOf({ local, base, remote }), moves };
}

/**
 * Whether any synced file may have moved: one missing at its key on disk, or whose key holds
 * another asset (or none) on the service. When none may have, the loop of `alignMoves` would
 * skip every file, so it is not run.
 */
function anyMoved(files: SyncState<LocalFile, BaseFile, RemoteFile>): boolean {
  for (const [key, b] of files.base) if (!files.local.has(key) || files.remote.get(key)?.assetId !== b.assetId) return true;
  return false;
}

function* slotsOf(files: SyncState<LocalFile, BaseFile, RemoteFile>): Generator<[string, FileSlot]> {
  const keys = new Set(files.base.keys());
  for (const key of files.local.keys()) keys.add(key);
  for (const key of files.remote.keys()) keys.add(key);
  for (const key of [...keys].sort()) {
    const slot: FileSlot = {};
    const local = files.local.get(key);
    const base = files.base.get(key);
    const remote = files.remote.get(key);
    if (local !== undefined) slot.local = local;
    if (base !== undefined) slot.base = base;
    if (remote !== undefined) slot.remote = remote;
    yield [key, slot];
  }
}

/**
 * Base key -> key of the new local file it became. A conflicted copy this client made
 * (`ownCopies`) is no candidate: it is the original's file, inode and all, moved aside by the
 * client, and until the conflict is through (the service's version downloaded in its place) the
 * original's base row still names that inode. Taken for a rename by the user, it would rename the
 * original asset on the service to the copy's name.
 */
export function detectLocalMoves(
  local: ReadonlyMap<string, LocalFile>,
  base: ReadonlyMap<string, BaseFile>,
  ownCopies: { has(key: string): boolean } = new Set(),
): Map<string, string> {
  const missing = new Map(sortedEntries(onlyIn(base, (key) => !local.has(key))));
  const fresh = new Map(sortedEntries(onlyIn(local, (key) => !base.has(key) && !ownCopies.has(key))));
  const pairs = new Map<string, string>();
  const pairBy = (baseId: (b: BaseFile) => string | null, localId: (l: LocalFile) => string | null): void => {
    const byBase = uniqueIndex(missing, baseId);
    for (const [id, localKey] of uniqueIndex(fresh, localId)) {
      const baseKey = byBase.get(id);
      if (baseKey === undefined) continue;
      pairs.set(baseKey, localKey);
      missing.delete(baseKey);
      fresh.delete(localKey);
    }
  };
  // Inode 0 or below means the file system gave none.
  pairBy(
    (b) => (b.inode > 0 ? String(b.inode) : null),
    (l) => (l.inode > 0 ? String(l.inode) : null),
  );
  pairBy(
    (b) => `${b.checksum}:${b.size}`,
    (l) => `${l.checksum}:${l.size}`,
  );
  return pairs;
}

/** The entries whose key passes `keep`: filtered before they are sorted, as most are left out. */
function onlyIn<V>(map: ReadonlyMap<string, V>, keep: (key: string) => boolean): Map<string, V> {
  const out = new Map<string, V>();
  for (const [key, value] of map) if (keep(key)) out.set(key, value);
  return out;
}

/** id -> key for ids held by exactly one entry (an ambiguous id pairs with nothing). */
function uniqueIndex<V>(map: ReadonlyMap<string, V>, idOf: (value: V) => string | null): Map<string, string> {
  const index = new Map<string, string | null>();
  for (const [key, value] of sortedEntries(map)) {
    const id = idOf(value);
    if (id === null) continue;
    index.set(id, index.has(id) ? null : key);
  }
  const unique = new Map<string, string>();
  for (const [id, key] of index) if (key !== null) unique.set(id, key);
  return unique;
}
