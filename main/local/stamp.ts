/**
 * A file's stamp: the (size, mtime in ns, inode) triple that tells, without reading a byte,
 * whether a file may have changed (design notes §3). Shared by the scanner's hash-cache check
 * and the engine's re-stat before committing an upload or replacing a file.
 */
import type { BigIntStats } from 'node:fs';
import { lstat } from 'node:fs/promises';

export interface FileStamp {
  size: number;
  /** Nanoseconds since the epoch, as a decimal string (bigint does not survive JSON/IPC). */
  mtimeNs: string;
  inode: number;
}

export function stampOf(stats: BigIntStats): FileStamp {
  return { size: Number(stats.size), mtimeNs: stats.mtimeNs.toString(), inode: Number(stats.ino) };
}

/** The stamp of `absPath` itself (a symlink is not followed). */
export async function readStamp(absPath: string): Promise<FileStamp> {
  return stampOf(await lstat(absPath, { bigint: true }));
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.inode === b.inode;
}
