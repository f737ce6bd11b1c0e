/**
 * Disk access the executor shares: every path it writes is resolved inside the root and checked
 * for symlinks leading out first, and a file's current checksum is read from
 * the hash cache when its stamp is unchanged, so checks before a write rarely read a byte.
 */
import { constants } from 'node:fs';
import { fstatSync, lstatSync, unlinkSync } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_ALGORITHM, algorithmOf } from '../../local/checksum.js';
import { hashFile } from '../../local/hash.js';
import { pathKey, resolveInsideRoot } from '../../local/paths.js';
import { WritableFolders } from '../../local/writable-folders.js';
import { cacheVouches } from '../../local/hash-cache-contract.js';
import { stampOf, type FileStamp } from '../../local/stamp.js';
import { parentOf } from '../rel-path.js';
import { suppress, type ExecutorDeps } from './context.js';
import { NotAFileError } from './failures.js';

/** Opening never follows a symlink swapped in at the last moment (0 where the OS has no such flag). */
export const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * The folders checked in this executor run (writable-folders.ts): each download checks a few
 * paths in a folder most other downloads share, and resolving each path's folders every time
 * was a tenth of a small file's cost.
 */
const checkedFolders = new WeakMap<object, WritableFolders>();

function foldersOf(deps: Pick<ExecutorDeps, 'root'>): WritableFolders {
  let folders = checkedFolders.get(deps);
  if (folders === undefined) {
    folders = new WritableFolders(deps.root);
    checkedFolders.set(deps, folders);
  }
  return folders;
}

/** The absolute path of `relPath`, safe to write: inside the root, no symlink leading out. */
export async function writablePath(deps: Pick<ExecutorDeps, 'root'>, relPath: string): Promise<string> {
  return writablePathNow(deps, relPath);
}

/**
 * writablePath, synchronously: called right before a create or a rename, so that none of our own
 * code (another download's callbacks) runs between the check and the write.
 */
export function writablePathNow(deps: Pick<ExecutorDeps, 'root'>, relPath: string): string {
  const abs = resolveInsideRoot(deps.root, relPath);
  // The root itself is where the user put it (a symlinked root is their choice).
  if (abs === path.resolve(deps.root)) return abs;
  checkWritable(deps, abs);
  return abs;
}

/** Throws PathEscapeError unless `abs` (inside the root) may be written now; `ownToo` as in WritableFolders.check. */
export function checkWritable(deps: Pick<ExecutorDeps, 'root'>, abs: string, ownToo = true): void {
  foldersOf(deps).check(abs, ownToo);
}

/**
 * After `abs` was created (O_EXCL, O_NOFOLLOW) as `handle`: checks its folder again. The check
 * before the open and the open itself are two steps (the open runs on the thread pool), so a
 * folder swapped for a symlink between them is caught here, and the empty file it made out
 * there is removed before a byte goes into it.
 */
export async function checkCreated(deps: Pick<ExecutorDeps, 'root'>, abs: string, handle: FileHandle): Promise<void> {
  try {
    foldersOf(deps).check(abs, false);
  } catch (err) {
    const made = fstatSync(handle.fd);
    const there = lstatSync(abs, { throwIfNoEntry: false });
    // Only the file this open made, not one put in its place since.
    if (there !== undefined && there.dev === made.dev && there.ino === made.ino) unlinkSync(abs);
    await handle.close();
    throw err;
  }
}

/** Creates the folders above `relPath` that are missing (inside the root only). */
export async function ensureParent(deps: ExecutorDeps, relPath: string): Promise<void> {
  const parent = parentOf(relPath);
  // Stryker disable next-line ConditionalExpression,StringLiteral: the root is a folder, which the lstat below returns on as well
  if (parent === '') return;
  const abs = resolveInsideRoot(deps.root, parent);
  // A real folder: whatever is written into it is checked (with its ancestors) by writablePath.
  if (lstatSync(abs, { throwIfNoEntry: false })?.isDirectory()) return;
  await writablePath(deps, parent);
  suppress(deps, parent);
  await mkdir(abs, { recursive: true });
}

/** What is at a path now: its checksum and the stamp that checksum belongs to. */
export interface CurrentFile {
  checksum: string;
  stamp: FileStamp;
}

/**
 * The file at `relPath` as it is now, null when there is none. Trusts the hash cache when the
 * stamp is the one it recorded.
 */
export async function currentFile(deps: ExecutorDeps, relPath: string, abs: string): Promise<CurrentFile | null> {
  // Synchronous: a few µs on a local disk, against 20 µs of CPU through the thread pool.
  const stats = lstatSync(abs, { bigint: true, throwIfNoEntry: false });
  if (stats === undefined) return null;
  if (!stats.isFile()) throw new NotAFileError(relPath);
  const stamp = stampOf(stats);
  const cached = deps.index.hashCache(deps.workspaceId).get(pathKey(relPath));
  if (cached !== undefined && cacheVouches(cached, stamp) && algorithmOf(cached.checksum) === (deps.algorithm ?? DEFAULT_ALGORITHM)) return { checksum: cached.checksum, stamp };
  const hashed = await hashFile(abs, { sizeHint: stamp.size, ...(deps.algorithm ? { algorithm: deps.algorithm } : {}), ...(deps.signal ? { signal: deps.signal } : {}) });
  // A file written while it was read has no one checksum: report it under the stamp it had
  // before, which no longer matches, so whoever places a file over it finds it changed.
  return { checksum: hashed.checksum, stamp };
}

/** The checksum of the file at `relPath` as it is now (in `deps.algorithm`), null when there is none. */
export async function currentChecksum(deps: ExecutorDeps, relPath: string, abs: string): Promise<string | null> {
  return (await currentFile(deps, relPath, abs))?.checksum ?? null;
}

/**
 * Makes the renames done in `dir` so far durable; a no-op where directories cannot be opened
 * (Windows). Callers share flushes (a group commit): a flush starts a moment after the first
 * caller asks (`DIR_FLUSH_LINGER_MS`), and covers every caller that asked before it started;
 * those that ask while it runs share the next one. The wait gathers more renames per flush, and
 * the downloads it releases together are recorded in one group commit of the index.
 */
export function fsyncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return Promise.resolve();
  const key = path.resolve(dir);
  const state = dirFlushes.get(key);
  if (state === undefined) {
    const fresh: DirFlushState = { running: Promise.resolve(), started: false };
    dirFlushes.set(key, fresh);
    fresh.running = startDirFlush(key, fresh);
    return fresh.running;
  }
  // Not begun yet: it will see our rename.
  if (!state.started) return state.running;
  // The running flush may have begun before our rename: wait for the one after it.
  state.waiting ??= withResolvers();
  return state.waiting.promise;
}

/** How long a folder's flush waits for more renames to cover. */
// Stryker disable next-line ArithmeticOperator: how many renames a flush covers, not whether they are durable
export const DIR_FLUSH_LINGER_MS = 5;

interface DirFlushState {
  running: Promise<void>;
  /** Whether `running` has opened the folder (renames after that need the next flush). */
  started: boolean;
  /** Callers that arrived while `running` ran: the next flush is theirs. */
  waiting?: Waiting;
}

interface Waiting {
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Promise.withResolvers, which Node 20 lacks. */
function withResolvers(): Waiting {
  const waiting: Partial<Waiting> = {};
  waiting.promise = new Promise<void>((resolve, reject) => Object.assign(waiting, { resolve, reject }));
  return waiting as Waiting;
}

const dirFlushes = new Map<string, DirFlushState>();

function startDirFlush(key: string, state: DirFlushState): Promise<void> {
  state.started = false;
  const flushed = new Promise<void>((resolve) => setTimeout(resolve, DIR_FLUSH_LINGER_MS)).then(() => {
    state.started = true;
    return flushDir(key);
  });
  return flushed.finally(() => {
    const waiting = state.waiting;
    if (waiting === undefined) {
      dirFlushes.delete(key);
      return;
    }
    state.waiting = undefined;
    state.running = startDirFlush(key, state);
    state.running.then(waiting.resolve, waiting.reject);
  });
}

async function flushDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}
