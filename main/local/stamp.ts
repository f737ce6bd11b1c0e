/**
 * A file's stamp: the (size, mtime in ns, inode) triple that tells, without reading a byte,
 * whether a file may have changed. Shared by the scanner's hash-cache check
 * and the engine's re-stat before committing an upload or replacing a file.
 */
import type { BigIntStats } from 'node:fs';
import { lstatSync } from 'node:fs';

export interface FileStamp {
  size: number;
  /** Nanoseconds since the epoch, as a decimal string (bigint does not survive JSON/IPC). */
  mtimeNs: string;
  inode: number;
}

export function stampOf(stats: BigIntStats): FileStamp {
  return { size: Number(stats.size), mtimeNs: stats.mtimeNs.toString(), inode: Number(stats.ino) };
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
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.inode === b.inode;
}
