/**
 * Files someone else has locked are read-only here, as Perforce and Git LFS make them: the lock
 * says "I am editing this, and it cannot be merged", and a save here would only be held back
 * until the lock goes. Each cycle compares the service's locks with what this computer made
 * read-only (kept in the index, `lockedHere:<workspace>`):
 *
 * - a synced file locked by another user, holding the synced bytes, loses its write permission
 *   (a download of a new version while the lock holds arrives read-only too: download.ts);
 * - a file the user changed anyway (an editor that saves by renaming) keeps it: that is their
 *   work, and it waits for the lock (the planner's `locked` action);
 * - once the lock is released the file gets its write permission back, and the user is told
 *   ("hero.psd is unlocked: you can edit it now"), also when their held-back edit now goes up.
 *
 * A chmod moves the file's ctime: the stamp it leaves is recorded in the hash cache, so the next
 * scan does not read the file again.
 */
import { chmodSync, lstatSync } from 'node:fs';
import type { ActivityItem } from '../../shared/engine.js';
import type { SyncIndex } from '../index/sync-index.js';
import { cacheVouches } from '../local/hash-cache-contract.js';
import { pathKey, resolveInsideRoot } from '../local/paths.js';
import { afterOwnMove, stampOf, type FileStamp } from '../local/stamp.js';
import type { Logger } from '../logging.js';
import type { RemoteFile } from '../model/views.js';

/** A lock of another user's this computer knows of, on a file synced here. */
export interface LockedHere {
  path: string;
  assetId: string;
  holderId: string;
  /** The mode the file had before its write permission was taken away; null: it was not. */
  modeBefore: number | null;
  /** An edit of the user's waits for the lock: the file was left writable. */
  heldBack: boolean;
}

/** A file the service shows locked by someone other than this user. */
export interface ForeignLock {
  path: string;
  assetId: string;
  holderId: string;
}

export const lockedHereSetting = (workspaceId: string): string => `lockedHere:${workspaceId}`;

/** The service's locks held by others, among the files it lists. */
export function foreignLocks(remoteFiles: Iterable<RemoteFile>, selfUserId: string): ForeignLock[] {
  const locks: ForeignLock[] = [];
  for (const file of remoteFiles) {
    if (file.lockedByUserId && file.lockedByUserId !== selfUserId) locks.push({ path: file.path, assetId: file.assetId, holderId: file.lockedByUserId });
  }
  return locks;
}

/** What this computer knew locked that the service no longer shows so (released, or the file moved or went). */
export function releasedLocks(known: readonly LockedHere[], locks: readonly ForeignLock[]): LockedHere[] {
  const still = new Set(locks.map((l) => `${l.assetId}\n${pathKey(l.path)}`));
  return known.filter((k) => !still.has(`${k.assetId}\n${pathKey(k.path)}`));
}

export interface LockGuardDeps {
  index: SyncIndex;
  workspaceId: string;
  /** The workspace folder. */
  dir: string;
  logger: Logger;
  /** Paths whose edit the plan held back for a lock (its `locked` actions). */
  heldBack: ReadonlySet<string>;
  /** The holders' names, asked only when a lock is new here. */
  holderNames: (holderIds: ReadonlySet<string>) => Promise<ReadonlyMap<string, string>>;
  suppress?: ((relPath: string, stamp?: FileStamp) => void) | undefined;
  onActivity?: ((item: ActivityItem) => void) | undefined;
}

const WRITE_BITS = 0o222;

/** Brings the files' write permissions in line with the service's locks; answers the locks it knows of now. */
export async function guardLockedFiles(deps: LockGuardDeps, locks: readonly ForeignLock[]): Promise<LockedHere[]> {
  const { index, workspaceId } = deps;
  const known = index.settings.get<LockedHere[]>(lockedHereSetting(workspaceId)) ?? [];
  if (known.length === 0 && locks.length === 0) return known;
  const byKey = new Map(known.map((k) => [pathKey(k.path), k]));
  const fresh = locks.filter((l) => byKey.get(pathKey(l.path))?.assetId !== l.assetId);
  const names = fresh.length > 0 ? await deps.holderNames(new Set(fresh.map((l) => l.holderId))) : new Map<string, string>();

  const now: LockedHere[] = [];
  for (const lock of locks) {
    const before = byKey.get(pathKey(lock.path));
    const kept = before?.assetId === lock.assetId ? before : undefined;
    const guarded = protect(deps, lock, kept);
    if (guarded === null) continue;
    now.push(guarded);
    // A held-back edit is told by the plan's own `locked` action.
    if (kept === undefined && !guarded.heldBack) {
      tell(deps, 'locked', lock.path, `${lock.path} is locked by ${names.get(lock.holderId) ?? 'another user'}: it is read-only here until they unlock it`);
    }
  }
  for (const gone of releasedLocks(known, locks)) release(deps, gone);
  index.settings.set(lockedHereSetting(workspaceId), now.length > 0 ? now : undefined);
  return now;
}

/**
 * Takes the write permission away from a synced file that holds the synced bytes; leaves a
 * changed one writable (held back). Null: the file is not synced here (yet).
 */
function protect(deps: LockGuardDeps, lock: ForeignLock, known: LockedHere | undefined): LockedHere | null {
  const base = deps.index.base.getFile(deps.workspaceId, lock.path);
  if (base === undefined || base.assetId !== lock.assetId) return null;
  const abs = resolveInsideRoot(deps.dir, base.path);
  const stats = lstatSync(abs, { bigint: true, throwIfNoEntry: false });
  if (stats === undefined || !stats.isFile()) return null;
  const mode = Number(stats.mode) & 0o7777;
  const entry: LockedHere = { path: base.path, assetId: lock.assetId, holderId: lock.holderId, modeBefore: known?.modeBefore ?? null, heldBack: false };
  const stamp = stampOf(stats);
  const cache = deps.index.hashCache(deps.workspaceId);
  const cached = cache.get(pathKey(base.path));
  const synced = cached !== undefined && cacheVouches(cached, stamp) && cached.checksum === base.checksum;
  if (!synced || deps.heldBack.has(pathKey(base.path))) return { ...entry, heldBack: true };
  if ((mode & WRITE_BITS) === 0) return entry;
  deps.suppress?.(base.path);
  chmodSync(abs, mode & ~WRITE_BITS);
  const after = afterOwnMove(abs, stamp);
  cache.put(pathKey(base.path), { ...after, checksum: base.checksum });
  deps.suppress?.(base.path, after);
  return { ...entry, modeBefore: entry.modeBefore ?? mode };
}

/** Gives the write permission back, and tells the user. */
function release(deps: LockGuardDeps, gone: LockedHere): void {
  const abs = resolveInsideRoot(deps.dir, gone.path);
  const stats = lstatSync(abs, { bigint: true, throwIfNoEntry: false });
  if (stats === undefined || !stats.isFile()) return;
  const mode = Number(stats.mode) & 0o7777;
  if ((mode & 0o200) === 0) {
    const stamp = stampOf(stats);
    const cache = deps.index.hashCache(deps.workspaceId);
    const cached = cache.get(pathKey(gone.path));
    deps.suppress?.(gone.path);
    chmodSync(abs, mode | ((gone.modeBefore ?? 0o644) & WRITE_BITS) | 0o200);
    if (cached !== undefined && cacheVouches(cached, stamp)) {
      const after = afterOwnMove(abs, stamp);
      cache.put(pathKey(gone.path), { ...after, checksum: cached.checksum });
      deps.suppress?.(gone.path, after);
    }
  }
  deps.logger.info({ path: gone.path }, 'a lock held by another user was released');
  tell(deps, 'unlocked', gone.path, gone.heldBack ? `${gone.path} is unlocked: your edit goes up now` : `${gone.path} is unlocked: you can edit it now`);
}

function tell(deps: LockGuardDeps, kind: 'locked' | 'unlocked', path: string, message: string): void {
  deps.onActivity?.({ at: new Date().toISOString(), workspaceId: deps.workspaceId, kind, path, message });
}
