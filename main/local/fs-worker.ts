/**
 * A file-system worker thread (the pool is fs-workers.ts): lists folders and lstats their
 * files, collects inodes below folders, hashes files, and hashes files being written behind
 * their writer. Synchronous calls: a worker has nothing else to wait for, and a promise per
 * call is what made the main thread slow. Opening a file to hash it, O_NOFOLLOW keeps a symlink
 * swapped in since the lstat from leading out of the tree, and O_NONBLOCK keeps a FIFO swapped
 * in from blocking the open forever (it has no effect on regular files).
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, constants, lstatSync, openSync, readdirSync, readSync, type BigIntStats, type Dirent } from 'node:fs';
import { sep } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { EntryType, StatResult, type FolderListing, type FsError, type HashAnswer, type ListAnswer, type WorkerMessage, type WorkerReply, type WorkerRequest } from './fs-worker-protocol.js';

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const buffer = Buffer.allocUnsafe(1024 * 1024);

function errorOf(err: unknown): FsError {
  const e = err as { code?: unknown; message?: unknown } | null | undefined;
  return { code: typeof e?.code === 'string' ? e.code : undefined, message: String(e?.message) };
}

const kindOf = (s: Dirent<string> | Dirent<Buffer> | BigIntStats): number =>
  s.isFile() ? EntryType.File : s.isDirectory() ? EntryType.Folder : s.isSymbolicLink() ? EntryType.Symlink : EntryType.Other;

function list(prefix: string): { answer: ListAnswer; transfer?: ArrayBuffer[] } {
  let dirents: Array<Dirent<string> | Dirent<Buffer>>;
  try {
    dirents = readdirSync(prefix, { withFileTypes: true });
    // Invalid UTF-8 always decodes to U+FFFD: only then is the folder listed again as bytes.
    if (dirents.some((d) => (d.name as string).includes('\uFFFD'))) dirents = readdirSync(prefix, { withFileTypes: true, encoding: 'buffer' });
  } catch (err) {
    return { answer: { error: errorOf(err) } };
  }
  const n = dirents.length;
  const names = new Array<string>(n);
  const { types, stats, sizes, inodes, times, buffer } = columns(n);
  let errors: Map<number, string> | undefined;
  let farTimes: Map<number, string> | undefined;
  let undecodable: Map<number, Uint8Array> | undefined;
  for (let i = 0; i < n; i++) {
    const d = dirents[i] as Dirent<string> | Dirent<Buffer>;
    let name: string;
    let path: string | Buffer;
    if (typeof d.name === 'string') {
      name = d.name;
      path = prefix + name;
    } else {
      const bytes = d.name;
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
    if (type === EntryType.File || typeof path !== 'string') {
      try {
        const s = lstatSync(path, { bigint: true, throwIfNoEntry: false });
        if (s === undefined) {
          stats[i] = StatResult.Gone;
        } else {
          const kind = kindOf(s);
          stats[i] = kind;
          inodes[i] = Number(s.ino);
          if (kind === StatResult.File) {
            sizes[i] = Number(s.size);
            const { mtimeNs, ctimeNs } = s;
            if (fitsInt64(mtimeNs) && fitsInt64(ctimeNs)) {
              times[2 * i] = mtimeNs;
              times[2 * i + 1] = ctimeNs;
            } else {
              (farTimes ??= new Map()).set(i, `${mtimeNs} ${ctimeNs}`);
            }
          }
        }
      } catch (err) {
        stats[i] = StatResult.Error;
        (errors ??= new Map()).set(i, errorOf(err).code ?? String((err as Error | undefined)?.message));
      }
    }
  }
  let inode = 0;
  try {
    inode = Number(lstatSync(prefix, { bigint: true }).ino);
  } catch {
    // The folder went away after its listing: its entries are still what was listed.
  }
  const listing: FolderListing = { inode, names: names.join('/'), types, stats, sizes, inodes, times, ...(farTimes ? { farTimes } : {}), ...(errors ? { errors } : {}), ...(undecodable ? { undecodable } : {}) };
  return { answer: { listing }, transfer: [buffer] };
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** A BigInt64Array would wrap a larger time around: a file dated 2300 would read as 1715. */
const fitsInt64 = (ns: bigint): boolean => ns >= INT64_MIN && ns <= INT64_MAX;

/** A listing's number columns for `n` entries, on one buffer: one allocation and one transfer per folder. */
function columns(n: number): Pick<FolderListing, 'types' | 'stats' | 'sizes' | 'inodes' | 'times'> & { buffer: ArrayBuffer } {
  // 8-byte columns first, so each starts aligned.
  const buffer = new ArrayBuffer(n * (16 + 8 + 8 + 1 + 1));
  return {
    buffer,
    times: new BigInt64Array(buffer, 0, 2 * n),
    sizes: new Float64Array(buffer, 16 * n, n),
    inodes: new Float64Array(buffer, 24 * n, n),
    types: new Uint8Array(buffer, 32 * n, n),
    stats: new Uint8Array(buffer, 33 * n, n),
  };
}

/** Every inode below a folder, symlinks not followed; paths as bytes, whatever the names hold. */
function inodesBelow(folder: string | Uint8Array): number[] {
  const inodes: number[] = [];
  const separator = Buffer.from(sep);
  const pending = [Buffer.from(folder)];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    let dirents: Dirent<Buffer>[];
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
      } catch {
        // Gone since the listing: it has no inode to count.
      }
    }
  }
  return inodes;
}

function closeQuietly(fd: number | undefined): void {
  if (fd === undefined) return;
  try {
    closeSync(fd);
  } catch {
    // Closing a file only read from loses nothing.
  }
}

function hashOne(path: string, cancel: Int32Array, algorithm: string): HashAnswer {
  let fd: number | undefined;
  try {
    fd = openSync(path, OPEN_FLAGS);
    const hash = createHash(algorithm);
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
    closeQuietly(fd);
  }
}

interface BehindJob {
  fd: number | undefined;
  hash: Hash | undefined;
  at: number;
  error: FsError | undefined;
}

/** Hashes of files being written, by job: each job's messages come to one worker, in order. */
const jobs = new Map<number, BehindJob>();

function behind(m: Extract<WorkerRequest, { kind: 'behind' }>): HashAnswer | null {
  if (m.op === 'open') {
    try {
      jobs.set(m.job, { fd: openSync(m.path, OPEN_FLAGS), hash: createHash(m.algorithm), at: 0, error: undefined });
    } catch (err) {
      jobs.set(m.job, { fd: undefined, hash: undefined, at: 0, error: errorOf(err) });
    }
    return null;
  }
  const job = jobs.get(m.job);
  if (job === undefined) return m.op === 'end' ? { error: { message: `no hash job ${m.job} on this worker` } } : null;
  if (m.op === 'to') {
    try {
      while (job.error === undefined && job.at < m.end) {
        const n = readSync(job.fd as number, buffer, 0, Math.min(buffer.length, m.end - job.at), job.at);
        if (n === 0) job.error = { code: 'ESHORT', message: 'the file holds fewer bytes than were written to it' };
        job.hash?.update(buffer.subarray(0, n));
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
      job.hash?.update(new Uint8Array(m.memory, m.offset, m.length));
      job.at += m.length;
    }
    return null;
  }
  jobs.delete(m.job);
  closeQuietly(job.fd);
  return job.error !== undefined ? { error: job.error } : { checksum: (job.hash as Hash).digest('hex'), size: job.at };
}

const port = parentPort;
if (port === null) throw new Error('fs-worker runs as a worker thread of the file-system pool (fs-workers.ts)');

port.on('message', (m: WorkerMessage) => {
  const reply = (answer: WorkerReply['answer'], transfer: ArrayBuffer[] = []): void => port.postMessage({ id: m.id, answer } satisfies WorkerReply, transfer);
  switch (m.kind) {
    case 'behind':
      return reply(behind(m));
    case 'inodes':
      return reply(m.folders.map(inodesBelow));
    case 'list': {
      const answers: ListAnswer[] = [];
      const transfer: ArrayBuffer[] = [];
      for (const prefix of m.prefixes) {
        const listed = list(prefix);
        answers.push(listed.answer);
        if (listed.transfer) transfer.push(...listed.transfer);
      }
      return reply(answers, transfer);
    }
    case 'hash':
      return reply(m.paths.map((p) => hashOne(p, m.cancel, m.algorithm)));
  }
});
