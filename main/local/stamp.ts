/**
 * A file's stamp: the (size, mtime, ctime in ns, inode) that tells, without reading a byte,
 * whether a file may have changed. Shared by the scanner's hash-cache check
 * and the engine's re-stat before committing an upload or replacing a file.
 *
 * The change time is in it as in git's index: a file rewritten in place with its size and mtime
 * kept (tools that restore mtimes, two saves within one mtime tick) changes nothing else, and no
 * program can set the ctime back. It also moves when nothing was written: a chmod, a new hard
 * link, a rename on most file systems. Such a file is read again once (same checksum, nothing
 * uploaded), and where the engine itself links or renames a file it records the ctime after.
 */
import type { BigIntStats } from 'node:fs';
import { lstatSync } from 'node:fs';

export interface FileStamp {
  size: number;
  /** Nanoseconds since the epoch, as a decimal string (bigint does not survive JSON/IPC). */
  mtimeNs: string;
  /** The inode's change time, as `mtimeNs`. */
  ctimeNs: string;
  inode: number;
}

export function stampOf(stats: BigIntStats): FileStamp {
  return { size: Number(stats.size), mtimeNs: stats.mtimeNs.toString(), ctimeNs: stats.ctimeNs.toString(), inode: Number(stats.ino) };
}

/**
 * The stamp of `absPath` itself (a symlink is not followed). Synchronous inside: a local lstat
 * costs a few µs that way and 20 µs of CPU through the thread pool, and the executor reads
 * stamps for every file it transfers.
 */
export async function readStamp(absPath: string): Promise<FileStamp> {
  return stampOf(lstatSync(absPath, { bigint: true }));
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.ctimeNs === b.ctimeNs && sameIgnoringCtime(a, b);
}

/**
 * Size, mtime and inode only: for a file our own link or rename has just touched (its ctime
 * moved with it), and for stamps kept from before the ctime was recorded.
 */
export function sameIgnoringCtime(a: Omit<FileStamp, 'ctimeNs'>, b: Omit<FileStamp, 'ctimeNs'>): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.inode === b.inode;
}

/**
 * The stamp of `absPath` just after a link or rename of our own, which moved its ctime and
 * nothing else: `known` with the ctime now on disk, if the file there is still the one of
 * `known` by size, mtime and inode; else `known` itself, which then no longer matches, so the
 * file is read again. Without it, every file the engine downloads or moves would be read again
 * at the next scan.
 */
export function afterOwnMove(absPath: string, known: FileStamp): FileStamp {
  const now = lstatSync(absPath, { bigint: true, throwIfNoEntry: false });
  if (now === undefined || !now.isFile()) return known;
  const stamp = stampOf(now);
  return sameIgnoringCtime(stamp, known) ? stamp : known;
}
