/**
 * What the file-system pool (fs-workers.ts) and its workers (fs-worker.ts) say to each other:
 * the requests, the answers, and the numbers a listing codes entry types with.
 */
import type { HashAlgorithm } from './checksum.js';

/** What the folder entry's own type says (readdir's d_type). */
export const EntryType = { File: 1, Folder: 2, Symlink: 3, Other: 4 } as const;

/**
 * What an lstat of an entry listed as a file (or named in bytes that are not UTF-8) found, in
 * the same numbers as EntryType; None: not stat'ed.
 */
export const StatResult = { None: 0, ...EntryType, Gone: 5, Error: 6 } as const;

/**
 * One folder, as columns with a row per entry. Names are joined into one string per folder: a
 * string per entry cost more to pass between threads than the lstat itself, and a rescan
 * compares a folder's names with the previous scan's in one comparison (folder-plans.ts). The
 * numbers are views on one buffer per folder, moved to the main thread, not copied; the times
 * stay numbers until a scan needs them as text (fs-workers.ts): writing two per file as decimal
 * strings was a tenth of a worker's time, and its garbage another tenth.
 */
export interface FolderListing {
  /** The folder's own inode (0 if it could not be read). */
  inode: number;
  /** The entries' names joined by "/", which no name can hold. */
  names: string;
  types: Uint8Array;
  stats: Uint8Array;
  sizes: Float64Array;
  inodes: Float64Array;
  /** For each StatResult.File entry `i`, its mtime in ns at `2 * i` and its ctime at `2 * i + 1`; 0 for the others. */
  times: BigInt64Array;
  /**
   * The files with a time that 64 bits of ns cannot hold (before 1678, after 2262), by index:
   * their mtime and ctime in decimal, joined by a space (`times` holds 0 for them). Absent when
   * there are none.
   */
  farTimes?: Map<number, string>;
  /** The error code (else message) of each StatResult.Error entry, by index. Absent when there are none. */
  errors?: Map<number, string>;
  /**
   * The entries whose name is not valid UTF-8, by index, with the name's bytes (`names` holds
   * it decoded with U+FFFD, which names no file). These are lstat'ed whatever their type, so
   * that `inodes` tells which synced item each may be. Absent when there are none.
   */
  undecodable?: Map<number, Uint8Array>;
}

export interface FsError {
  code?: string | undefined;
  message: string;
}

export type ListAnswer = { listing: FolderListing } | { error: FsError };
/** `checksum`: the worker's hex digest (the pool turns it into the client's form). */
export type HashAnswer = { checksum: string; size: number } | { error: FsError };

export type WorkerRequest =
  | { kind: 'list'; prefixes: string[] }
  | { kind: 'inodes'; folders: Array<string | Uint8Array> }
  | { kind: 'hash'; paths: string[]; cancel: Int32Array; algorithm: HashAlgorithm }
  | { kind: 'behind'; job: number; op: 'open'; path: string; algorithm: HashAlgorithm }
  | { kind: 'behind'; job: number; op: 'to'; end: number }
  | { kind: 'behind'; job: number; op: 'block'; memory: SharedArrayBuffer; offset: number; length: number }
  | { kind: 'behind'; job: number; op: 'end' };

/** A request as posted: `id` pairs it with its answer. */
export type WorkerMessage = WorkerRequest & { id: number };

/** The answers, per request kind. */
export interface WorkerAnswers {
  list: ListAnswer[];
  inodes: number[][];
  hash: HashAnswer[];
  /** An `end` answers the job's hash; the other steps answer null. */
  behind: HashAnswer | null;
}

export interface WorkerReply {
  id: number;
  answer: WorkerAnswers[WorkerRequest['kind']];
}
