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
import { isSettled } from './settled.js';

/** What sits at one path key once moves are applied. */
export interface FileSlot {
  local?: LocalFile;
  /** Its `path` is where the base row is; a key other than the slot's means the row must move. */
  base?: BaseFile;
  remote?: RemoteFile;
}

export interface AlignedFiles {
  /**
   * Every path key where anything may need doing, with what sits there, in key order (code
   * units): one slot at a time, none kept. A key whose file is settled on all three sides
   * (settled.ts), where the plan would do nothing, is left out: most cycles have only those.
   */
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
  const unsettled = unsettledFiles(files, ownCopies);
  // Most cycles move nothing: every synced file is still at its key on both sides. Then no move
  // is applied, the views stay as they are, and nothing is copied or indexed.
  if (unsettled.moveCandidates.length === 0) return { slots: slotsAt(unsettled.keys, files), moves: [] };
  // What the moves change is held apart from the views (which are never copied, nor mutated).
  const local = new Overlay(files.local);
  const base = new Overlay(files.base);
  const remote = new Overlay(files.remote);
  const remoteKeyByAsset = remoteKeysOf(files, unsettled);
  const localMoves = pairLocalMoves(unsettled.missing, unsettled.fresh);
  const moves: Array<MoveLocalFile | MoveRemoteAsset> = [];
  // A destination must be free before and after the moves planned so far: a move onto a path
  // another move empties would depend on the order the two run in (a chain), so it falls back.
  // Nor can a file move into a folder that takes its own name ("Notes" to "Notes/old.txt"):
  // the folder cannot be made while the file holds the name, so it is a delete and a new file.
  const free = (to: string, side: 'local' | 'remote', from: string): boolean => {
    const [before, now] = side === 'local' ? [files.local, local] : [files.remote, remote];
    return !to.startsWith(`${from}/`) && !before.has(to) && !now.has(to) && !files.base.has(to) && !base.has(to);
  };

  // Only a candidate can have moved; a move changes only its own key and keys no base file holds,
  // so no other base file becomes one.
  for (const key of unsettled.moveCandidates.sort()) {
    const b = files.base.get(key) as BaseFile;
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

  // Every key a move changes was unsettled already: the one it leaves, or one no base file holds.
  return { slots: slotsAt(unsettled.keys, { local, base, remote }), moves };
}

/** The files that are not settled, found in one pass over the base and, only if needed, the sides. */
interface Unsettled {
  /** Each key once: a base file not settled, or a path the base does not know. */
  keys: string[];
  /** Base keys whose file is missing on disk, or whose key holds another asset (or none) on the service. */
  moveCandidates: string[];
  /** Base files missing on disk, by key. */
  missing: Map<string, BaseFile>;
  /** Local files the base does not know (a conflicted copy of ours aside), by key. */
  fresh: Map<string, LocalFile>;
  /** Service files at a key where the base has another asset or none. */
  strayRemote: Array<[string, RemoteFile]>;
}

function unsettledFiles(files: SyncState<LocalFile, BaseFile, RemoteFile>, ownCopies: { has(key: string): boolean }): Unsettled {
  const found: Unsettled = { keys: [], moveCandidates: [], missing: new Map(), fresh: new Map(), strayRemote: [] };
  let localAtBase = 0;
  let remoteAtBase = 0;
  // forEach, not for-of: an entry array per file is most of what a no-op plan would allocate.
  files.base.forEach((b, key) => {
    const l = files.local.get(key);
    const r = files.remote.get(key);
    if (l !== undefined) localAtBase++;
    if (r !== undefined) remoteAtBase++;
    if (l !== undefined && r !== undefined && isSettled(key, l, b, r)) return;
    found.keys.push(key);
    if (l === undefined) found.missing.set(key, b);
    if (r !== undefined && r.assetId !== b.assetId) found.strayRemote.push([key, r]);
    if (l === undefined || r?.assetId !== b.assetId) found.moveCandidates.push(key);
  });
  // Every local (remote) file at a base key was counted: the side holds no other unless it is larger.
  if (localAtBase < files.local.size) {
    files.local.forEach((l, key) => {
      if (files.base.has(key)) return;
      found.keys.push(key);
      if (!ownCopies.has(key)) found.fresh.set(key, l);
    });
  }
  if (remoteAtBase < files.remote.size) {
    files.remote.forEach((r, key) => {
      if (files.base.has(key)) return;
      if (!files.local.has(key)) found.keys.push(key);
      found.strayRemote.push([key, r]);
    });
  }
  return found;
}

/**
 * Asset id -> the key of the one service file holding it, for the assets of the move candidates
 * (an asset at two keys is at neither). Only stray service files can hold a candidate's asset
 * elsewhere, unless the base records that asset at two keys: those are counted too.
 */
function remoteKeysOf(files: SyncState<LocalFile, BaseFile, RemoteFile>, unsettled: Unsettled): Map<string, string> {
  const wanted = new Set<string>();
  for (const key of unsettled.moveCandidates) wanted.add((files.base.get(key) as BaseFile).assetId);
  const holders = new Map<string, string | null>();
  const hold = (id: string, key: string): void => void holders.set(id, holders.has(id) ? null : key);
  for (const [key, r] of unsettled.strayRemote) if (wanted.has(r.assetId)) hold(r.assetId, key);
  files.base.forEach((b, key) => {
    if (wanted.has(b.assetId) && files.remote.get(key)?.assetId === b.assetId) hold(b.assetId, key);
  });
  const unique = new Map<string, string>();
  for (const [id, key] of holders) if (key !== null) unique.set(id, key);
  return unique;
}

/** The slots at `keys` (sorted here), empty ones left out. */
function* slotsAt(
  keys: string[],
  files: { local: Lookup<LocalFile>; base: Lookup<BaseFile>; remote: Lookup<RemoteFile> },
): Generator<[string, FileSlot]> {
  // The default sort compares by code unit without calling back into JavaScript.
  for (const key of keys.sort()) {
    const slot: FileSlot = {};
    const local = files.local.get(key);
    const base = files.base.get(key);
    const remote = files.remote.get(key);
    if (local === undefined && base === undefined && remote === undefined) continue;
    if (local !== undefined) slot.local = local;
    if (base !== undefined) slot.base = base;
    if (remote !== undefined) slot.remote = remote;
    yield [key, slot];
  }
}

interface Lookup<V> {
  get(key: string): V | undefined;
  has(key: string): boolean;
}

/** A view with changes held apart: reads see them, the view underneath stays as it is. */
class Overlay<V> implements Lookup<V> {
  /** Key -> its value now; undefined where deleted. */
  private readonly changed = new Map<string, V | undefined>();

  constructor(private readonly under: ReadonlyMap<string, V>) {}

  get(key: string): V | undefined {
    return this.changed.has(key) ? this.changed.get(key) : this.under.get(key);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: V): void {
    this.changed.set(key, value);
  }

  delete(key: string): void {
    this.changed.set(key, undefined);
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
  return pairLocalMoves(
    onlyIn(base, (key) => !local.has(key)),
    onlyIn(local, (key) => !base.has(key) && !ownCopies.has(key)),
  );
}

/** `detectLocalMoves` from the base files missing on disk and the local files new to the base. */
function pairLocalMoves(missingFiles: ReadonlyMap<string, BaseFile>, freshFiles: ReadonlyMap<string, LocalFile>): Map<string, string> {
  const missing = new Map(sortedEntries(missingFiles));
  const fresh = new Map(sortedEntries(freshFiles));
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
