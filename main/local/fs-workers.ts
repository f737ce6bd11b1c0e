/**
 * A few worker threads that do the scanner's system calls (list a folder and lstat its files,
 * read and hash files) and hash large downloads behind their writer (`hashBehind`). On the
 * main thread each lstat of a 100,000-file tree cost about 4 µs of JavaScript around a 1 µs
 * system call (path conversion, a BigIntStats with four Dates), and SHA-256 of every file on a
 * first scan kept one core busy; workers spread both over the cores while the main thread only
 * compares stamps and stays responsive.
 *
 * The pool starts on first use and outlives a scan: starting two workers takes 50 to 100 ms,
 * a quarter of a whole rescan. It ends after a minute without work (the engine rescans every
 * 30 s) and never keeps the process alive while idle.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** What the folder entry's own type says (readdir's d_type). */
export const EntryType = { File: 1, Folder: 2, Symlink: 3, Other: 4 } as const;

/**
 * What an lstat of an entry listed as a file (or named in bytes that are not UTF-8) found, in
 * the same numbers as EntryType; None: not stat'ed.
 */
export const StatResult = { None: 0, ...EntryType, Gone: 5, Error: 6 } as const;

/**
 * One folder, as columns with a row per entry. Strings are joined into one per folder: a
 * string per entry cost more to pass between threads than the lstat itself, and a rescan
 * compares a folder's names with the previous scan's in one comparison (folder-plans.ts).
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
  /**
   * Per entry, for StatResult.File the mtime and the ctime in ns as decimal strings joined by a
   * space, for StatResult.Error the error code, else nothing; `texts` holds them back to back,
   * each ending where `textEnds` says.
   */
  texts: string;
  textEnds: Int32Array;
  /**
   * The entries whose name is not valid UTF-8, by index, with the name's bytes (`names` holds
   * it decoded with U+FFFD, which names no file). These are lstat'ed whatever their type, so
   * that `inodes` tells which synced item each may be. Absent when there are none.
   */
  undecodable?: Map<number, Uint8Array>;
}

/** The text of entry `index` of a listing (its times or error code). */
export function entryText({ texts, textEnds }: FolderListing, index: number): string {
  return texts.slice(index === 0 ? 0 : textEnds[index - 1], textEnds[index]);
}

/** The mtime and ctime of file entry `index`. */
export function entryTimes(listing: FolderListing, index: number): { mtimeNs: string; ctimeNs: string } {
  const text = entryText(listing, index);
  const space = text.indexOf(' ');
  return { mtimeNs: text.slice(0, space), ctimeNs: text.slice(space + 1) };
}

/**
 * Whether file entry `index` has the mtime `mtimeNs` and, unless it is undefined, the ctime
 * `ctimeNs`, without cutting out a string per file.
 */
export function entryTimesAre({ texts, textEnds }: FolderListing, index: number, mtimeNs: string, ctimeNs: string | undefined): boolean {
  const start = index === 0 ? 0 : (textEnds[index - 1] as number);
  const ctimeAt = start + mtimeNs.length + 1;
  if (!texts.startsWith(mtimeNs, start) || texts[ctimeAt - 1] !== ' ') return false;
  return ctimeNs === undefined || ((textEnds[index] as number) - ctimeAt === ctimeNs.length && texts.startsWith(ctimeNs, ctimeAt));
}

export interface FsError {
  code?: string;
  message: string;
}

export type ListAnswer = { listing: FolderListing } | { error: FsError };
export type HashAnswer = { checksum: string; size: number } | { error: FsError };

/** More threads than this would only queue behind the disk. */
const MAX_WORKERS = 4;
const IDLE_MS = 60_000;

/**
 * The worker, as CommonJS source run with `eval`: it needs no file of its own, so it runs the
 * same under tsx, Vitest, the bench's transpiled children and inside the packaged app's asar.
 * Synchronous calls: a worker has nothing else to wait for, and a promise per call is what
 * made the main thread slow. Opening a file to hash it, O_NOFOLLOW keeps a symlink swapped in
 * since the lstat from leading out of the tree, and O_NONBLOCK keeps a FIFO swapped in from
 * blocking the open forever (it has no effect on regular files).
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { closeSync, constants, lstatSync, openSync, readdirSync, readSync } = require('node:fs');
const { createHash } = require('node:crypto');
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW || 0) | (constants.O_NONBLOCK || 0);
const buffer = Buffer.allocUnsafe(1024 * 1024);
const errorOf = (err) => ({ code: err && typeof err.code === 'string' ? err.code : undefined, message: String(err && err.message) });
const kindOf = (s) => (s.isFile() ? ${EntryType.File} : s.isDirectory() ? ${EntryType.Folder} : s.isSymbolicLink() ? ${EntryType.Symlink} : ${EntryType.Other});

function list(prefix) {
  let dirents;
  try {
    dirents = readdirSync(prefix, { withFileTypes: true });
    // Invalid UTF-8 always decodes to U+FFFD: only then is the folder listed again as bytes.
    if (dirents.some((d) => d.name.includes('\uFFFD'))) dirents = readdirSync(prefix, { withFileTypes: true, encoding: 'buffer' });
  } catch (err) {
    return { answer: { error: errorOf(err) } };
  }
  const n = dirents.length;
  const names = new Array(n);
  const types = new Uint8Array(n);
  const stats = new Uint8Array(n);
  const sizes = new Float64Array(n);
  const inodes = new Float64Array(n);
  const textEnds = new Int32Array(n);
  let texts = '';
  let undecodable;
  for (let i = 0; i < n; i++) {
    const d = dirents[i];
    let name = d.name;
    let path;
    if (typeof name === 'string') {
      path = prefix + name;
    } else {
      const bytes = name;
      name = bytes.toString('utf8');
      if (Buffer.from(name, 'utf8').equals(bytes)) {
        path = prefix + name;
      } else {
        (undecodable ??= new Map()).set(i, new Uint8Array(bytes));
        path = Buffer.concat([Buffer.from(prefix), bytes]);
      }
    }
    names[i] = name;
    const type = kindOf(d);
    types[i] = type;
    if (type === ${EntryType.File} || typeof path !== 'string') {
      let s;
      try {
        s = lstatSync(path, { bigint: true, throwIfNoEntry: false });
        if (s === undefined) {
          stats[i] = ${StatResult.Gone};
        } else {
          const kind = kindOf(s);
          stats[i] = kind;
          inodes[i] = Number(s.ino);
          if (kind === ${StatResult.File}) {
            sizes[i] = Number(s.size);
            texts += s.mtimeNs.toString() + ' ' + s.ctimeNs.toString();
          }
        }
      } catch (err) {
        stats[i] = ${StatResult.Error};
        texts += errorOf(err).code || String(err && err.message);
      }
    }
    textEnds[i] = texts.length;
  }
  let inode = 0;
  try {
    inode = Number(lstatSync(prefix, { bigint: true }).ino);
  } catch {}
  const listing = { inode, names: names.join('/'), types, stats, sizes, inodes, texts, textEnds, ...(undecodable ? { undecodable } : {}) };
  return { answer: { listing }, transfer: [types.buffer, stats.buffer, sizes.buffer, inodes.buffer, textEnds.buffer] };
}

// Every inode below a folder, symlinks not followed; paths as bytes, whatever the names hold.
function inodesBelow(folder) {
  const inodes = [];
  const separator = Buffer.from(require('node:path').sep);
  const pending = [Buffer.from(folder)];
  while (pending.length > 0) {
    const dir = pending.pop();
    let dirents;
    try {
      dirents = readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
    } catch {
      continue;
    }
    for (const d of dirents) {
      const child = Buffer.concat([dir, separator, d.name]);
      try {
        inodes.push(Number(lstatSync(child, { bigint: true }).ino));
        if (d.isDirectory()) pending.push(child);
      } catch {}
    }
  }
  return inodes;
}

function hashOne(path, cancel) {
  let fd;
  try {
    fd = openSync(path, OPEN_FLAGS);
    const hash = createHash('sha256');
    let size = 0;
    for (;;) {
      if (cancel[0] !== 0) return { error: { code: 'ABORT_ERR', message: 'aborted' } };
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
      size += n;
    }
    return { checksum: hash.digest('hex'), size };
  } catch (err) {
    return { error: errorOf(err) };
  } finally {
    if (fd !== undefined) try { closeSync(fd); } catch {}
  }
}

// Hashes of files being written, by job: each job's messages come to one worker, in order.
const jobs = new Map();

function behind(m) {
  if (m.op === 'open') {
    try {
      jobs.set(m.job, { fd: openSync(m.path, OPEN_FLAGS), hash: createHash('sha256'), at: 0, error: undefined });
    } catch (err) {
      jobs.set(m.job, { fd: undefined, error: errorOf(err) });
    }
    return null;
  }
  const job = jobs.get(m.job);
  if (m.op === 'to') {
    try {
      while (job.error === undefined && job.at < m.end) {
        const n = readSync(job.fd, buffer, 0, Math.min(buffer.length, m.end - job.at), job.at);
        if (n === 0) job.error = { code: 'ESHORT', message: 'the file holds fewer bytes than were written to it' };
        job.hash.update(buffer.subarray(0, n));
        job.at += n;
      }
    } catch (err) {
      job.error = errorOf(err);
    }
    return null;
  }
  if (m.op === 'block') {
    // Bytes the main thread received into shared memory: hashed where they are, no copy.
    if (job.error === undefined) {
      job.hash.update(new Uint8Array(m.memory, m.offset, m.length));
      job.at += m.length;
    }
    return null;
  }
  jobs.delete(m.job);
  if (job.fd !== undefined) try { closeSync(job.fd); } catch {}
  return job.error !== undefined ? { error: job.error } : { checksum: job.hash.digest('hex'), size: job.at };
}

parentPort.on('message', (m) => {
  if (m.kind === 'behind') {
    parentPort.postMessage({ id: m.id, answer: behind(m) });
  } else if (m.kind === 'inodes') {
    parentPort.postMessage({ id: m.id, answer: m.folders.map(inodesBelow) });
  } else if (m.kind === 'list') {
    const answers = [];
    const transfer = [];
    for (const prefix of m.prefixes) {
      const listed = list(prefix);
      answers.push(listed.answer);
      if (listed.transfer) transfer.push(...listed.transfer);
    }
    parentPort.postMessage({ id: m.id, answer: answers }, transfer);
  } else {
    parentPort.postMessage({ id: m.id, answer: m.paths.map((p) => hashOne(p, m.cancel)) });
  }
});
`;

type Request =
  | { kind: 'list'; prefixes: string[] }
  | { kind: 'inodes'; folders: Array<string | Uint8Array> }
  | { kind: 'hash'; paths: string[]; cancel: Int32Array }
  | { kind: 'behind'; job: number; op: 'open'; path: string }
  | { kind: 'behind'; job: number; op: 'to'; end: number }
  | { kind: 'behind'; job: number; op: 'block'; memory: SharedArrayBuffer; offset: number; length: number }
  | { kind: 'behind'; job: number; op: 'end' };

/**
 * A file hashed on a worker thread while another thread writes it: `to(end)` once its first
 * `end` bytes are written, `end()` for the checksum of all bytes read. Reads what is on disk,
 * so the checksum vouches for the file, not only for what was received.
 */
export interface HashBehind {
  to(end: number): void;
  /**
   * Hashes the next bytes from memory instead of the file (which a direct write leaves out of
   * the page cache): `bytes` must lie in a SharedArrayBuffer and stay unchanged until this settles.
   */
  block(bytes: Buffer): Promise<void>;
  end(): Promise<HashAnswer>;
}

interface Pending {
  resolve: (answer: unknown) => void;
  reject: (err: unknown) => void;
}

interface PooledWorker {
  worker: Worker;
  pending: Map<number, Pending>;
  /** `hashBehind` jobs open on this worker: it is not ended while one is. */
  jobs: number;
}

export class FsWorkerPool {
  private readonly workers: PooledWorker[] = [];
  private nextId = 0;
  private nextJob = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(readonly size: number) {}

  /**
   * Lists folders, answering in the order of `prefixes` (absolute paths ending in a separator).
   * Several folders per message: a message each cost the main thread more than its listing.
   */
  list(prefixes: string[]): Promise<ListAnswer[]> {
    return this.send({ kind: 'list', prefixes }) as Promise<ListAnswer[]>;
  }

  /**
   * The inodes of everything below each folder (a path, or its bytes when they are not UTF-8),
   * in the order of `folders`; what cannot be read is left out.
   */
  inodesBelow(folders: Array<string | Uint8Array>): Promise<number[][]> {
    return this.send({ kind: 'inodes', folders }) as Promise<number[][]>;
  }

  /** Answers in the order of `paths`. Setting `cancel[0]` to 1 stops the batch between reads. */
  hash(paths: string[], cancel: Int32Array): Promise<HashAnswer[]> {
    return this.send({ kind: 'hash', paths, cancel }) as Promise<HashAnswer[]>;
  }

  /**
   * Starts hashing `path` (opened without following a symlink) on one worker, which reads each
   * part as `to` says it is written. On the main thread, SHA-256 of a 2 GiB download took
   * 1.2 s of the 4.5 s it took in all, while the other core waited.
   */
  hashBehind(path: string): HashBehind {
    const target = this.leastBusy();
    const job = this.nextJob++;
    target.jobs += 1;
    let ended = false;
    void this.sendTo(target, { kind: 'behind', job, op: 'open', path }).catch(() => undefined);
    return {
      to: (end) => void this.sendTo(target, { kind: 'behind', job, op: 'to', end }).catch(() => undefined),
      block: async (bytes) => {
        if (!(bytes.buffer instanceof SharedArrayBuffer)) throw new TypeError('a block to hash on a worker must be in shared memory');
        await this.sendTo(target, { kind: 'behind', job, op: 'block', memory: bytes.buffer, offset: bytes.byteOffset, length: bytes.length });
      },
      end: () => {
        if (!ended) {
          ended = true;
          target.jobs -= 1;
        }
        return this.sendTo(target, { kind: 'behind', job, op: 'end' }) as Promise<HashAnswer>;
      },
    };
  }

  /** Starts the workers now, so they boot while the caller does other work. */
  warm(): void {
    while (this.workers.length < this.size) this.start().worker.unref();
    if (this.workers.every((w) => w.pending.size === 0)) this.armIdleTimer();
  }

  /** Ends the workers now; the next request starts new ones. */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }

  private send(request: Request): Promise<unknown> {
    return this.sendTo(this.leastBusy(), request);
  }

  private sendTo(target: PooledWorker, request: Request): Promise<unknown> {
    clearTimeout(this.idleTimer);
    if (!this.workers.includes(target)) return Promise.reject(new Error('the file-system worker of this job has ended'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (target.pending.size === 0) target.worker.ref();
      target.pending.set(id, { resolve, reject });
      target.worker.postMessage({ id, ...request });
    });
  }

  private leastBusy(): PooledWorker {
    let best: PooledWorker | undefined;
    for (const w of this.workers) if (!best || loadOf(w) < loadOf(best)) best = w;
    if (best && (loadOf(best) === 0 || this.workers.length >= this.size)) return best;
    return this.start();
  }

  private start(): PooledWorker {
    const pooled: PooledWorker = { worker: new Worker(WORKER_SOURCE, { eval: true }), pending: new Map(), jobs: 0 };
    const { worker, pending } = pooled;
    worker.on('message', ({ id, answer }: { id: number; answer: unknown }) => {
      const waiting = pending.get(id);
      pending.delete(id);
      if (pending.size === 0) worker.unref();
      this.armIdleTimer();
      waiting?.resolve(answer);
    });
    const fail = (err: unknown): void => {
      const index = this.workers.indexOf(pooled);
      if (index >= 0) this.workers.splice(index, 1);
      for (const waiting of pending.values()) waiting.reject(err);
      pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`a file-system worker exited (code ${code})`)));
    this.workers.push(pooled);
    return pooled;
  }

  private armIdleTimer(): void {
    if (this.workers.some((w) => w.pending.size > 0 || w.jobs > 0)) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.close(), IDLE_MS).unref();
  }
}

/** Messages waiting for a worker, and the jobs open on it. */
const loadOf = (w: PooledWorker): number => w.pending.size + w.jobs;

let shared: FsWorkerPool | undefined;

/** The process's pool: one worker per core, at most MAX_WORKERS. */
export function fsWorkers(): FsWorkerPool {
  shared ??= new FsWorkerPool(Math.max(1, Math.min(MAX_WORKERS, availableParallelism())));
  return shared;
}
