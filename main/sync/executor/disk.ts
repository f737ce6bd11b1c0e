/**
 * Disk access the executor shares: every path it writes is resolved inside the root and checked
 * for symlinks leading out first (design notes §10), and a file's current checksum is read from
 * the hash cache when its stamp is unchanged, so checks before a write rarely read a byte.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { hashFile } from '../../local/hash.js';
import { assertNoSymlinkEscape, pathKey, resolveInsideRoot } from '../../local/paths.js';
import { stampOf, sameStamp } from '../../local/stamp.js';
import { parentOf } from '../rel-path.js';
import { suppress, type ExecutorDeps } from './context.js';
import { NotAFileError, isMissing } from './errors.js';

/** Opening never follows a symlink swapped in at the last moment (0 where the OS has no such flag). */
export const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** The absolute path of `relPath`, safe to write: inside the root, no symlink leading out. */
export async function writablePath(root: string, relPath: string): Promise<string> {
  const abs = resolveInsideRoot(root, relPath);
  // The root itself is where the user put it (a symlinked root is their choice).
  if (abs === path.resolve(root)) return abs;
  await assertNoSymlinkEscape(root, abs);
  return abs;
}

/** Creates the folders above `relPath` that are missing (inside the root only). */
export async function ensureParent(deps: ExecutorDeps, relPath: string): Promise<void> {
  const parent = parentOf(relPath);
  if (parent === '') return;
  const abs = await writablePath(deps.root, parent);
  const existing = await lstat(abs).catch((err: unknown) => {
    if (isMissing(err)) return undefined;
    throw err;
  });
  if (existing?.isDirectory()) return;
  suppress(deps, parent);
  await mkdir(abs, { recursive: true });
}

/**
 * SHA-256 of the file at `relPath` as it is now, null when there is none. Trusts the hash cache
 * when size, mtime and inode are those it recorded.
 */
export async function currentChecksum(deps: ExecutorDeps, relPath: string, abs: string): Promise<string | null> {
  const stats = await lstat(abs, { bigint: true }).catch((err: unknown) => {
    if (isMissing(err)) return undefined;
    throw err;
  });
  if (stats === undefined) return null;
  if (!stats.isFile()) throw new NotAFileError(relPath);
  const stamp = stampOf(stats);
  const cached = deps.index.hashCache(deps.workspaceId).get(pathKey(relPath));
  if (cached !== undefined && sameStamp(cached, stamp)) return cached.checksum;
  return (await hashFile(abs, { sizeHint: stamp.size, ...(deps.signal ? { signal: deps.signal } : {}) })).checksum;
}

/** Makes a rename in `dir` durable; a no-op where directories cannot be opened (Windows). */
export async function fsyncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}
