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
 * 30 s) and never keeps the process alive while idle. The workers run fs-worker.ts.
 *
 * It starts one worker, and another only once every running worker has been busy for longer
 * than booting one takes (GROW_AFTER_MS): each worker is a V8 isolate of its own, about 10 MiB
 * and 50 ms of CPU to boot, which a small scan (a few thousand files, done in tens of ms on one
 * worker) would pay for nothing. A long download holds its worker while it hashes behind the
 * writer, so a second one at the same time gets a worker of its own at once.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { DEFAULT_ALGORITHM, fromHex, type HashAlgorithm } from './checksum.js';
import type { FolderListing, HashAnswer, ListAnswer, WorkerAnswers, WorkerReply, WorkerRequest } from './fs-worker-protocol.js';
import { startModuleWorker } from './module-worker.js';

export { EntryType, StatResult, type FolderListing, type FsError, type HashAnswer, type ListAnswer } from './fs-worker-protocol.js';

/** The error code (else message) of a StatResult.Error entry. */
export function entryError({ errors }: FolderListing, index: number): string {
  return errors?.get(index) ?? '';
}

/** The mtime and ctime of file entry `index`, as decimal strings (FileStamp). */
export function entryTimes({ times, farTimes }: FolderListing, index: number): { mtimeNs: string; ctimeNs: string } {
  const far = farTimes?.get(index);
  if (far === undefined) return { mtimeNs: String(times[2 * index]), ctimeNs: String(times[2 * index + 1]) };
  const space = far.indexOf(' ');
  return { mtimeNs: far.slice(0, space), ctimeNs: far.slice(space + 1) };
}

/** Whether file entry `index` has the mtime `mtimeNs` and, unless it is undefined, the ctime `ctimeNs`. */
export function entryTimesAre(listing: FolderListing, index: number, mtimeNs: string, ctimeNs: string | undefined): boolean {
  const { times, farTimes } = listing;
  if (farTimes?.has(index)) {
    const found = entryTimes(listing, index);
    return found.mtimeNs === mtimeNs && (ctimeNs === undefined || found.ctimeNs === ctimeNs);
  }
  return String(times[2 * index]) === mtimeNs && (ctimeNs === undefined || String(times[2 * index + 1]) === ctimeNs);
}

/** A worker's hex digest in the client's form (main/local/checksum.ts). */
const inForm = (answer: HashAnswer, algorithm: HashAlgorithm): HashAnswer => ('checksum' in answer ? { ...answer, checksum: fromHex(algorithm, answer.checksum) } : answer);

/** More threads than this would only queue behind the disk. */
const MAX_WORKERS = 4;
const IDLE_MS = 60_000;
/**
 * A worker's young generation: what it allocates (a folder's listing, a batch of answers) dies
 * at once, so a small one costs no time, and V8's default (16 MiB semi-spaces) is resident
 * memory: two workers scanning 100,000 files took 62 MiB with it, 51 MiB with this.
 */
const WORKER_YOUNG_MIB = 4;
/** About what booting a worker takes: work that ends sooner is done before a new one is ready. */
const GROW_AFTER_MS = 50;

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
  /**
   * Since when (performance.now()) it has had work without a pause, counted from when it came
   * online (a new worker would boot as long); undefined while idle.
   */
  busySince: number | undefined;
  online: boolean;
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
    return this.send({ kind: 'list', prefixes });
  }

  /**
   * The inodes of everything below each folder (a path, or its bytes when they are not UTF-8),
   * in the order of `folders`; what cannot be read is left out.
   */
  inodesBelow(folders: Array<string | Uint8Array>): Promise<number[][]> {
    return this.send({ kind: 'inodes', folders });
  }

  /**
   * Answers in the order of `paths`, checksums in the client's form. Setting `cancel[0]` to 1
   * stops the batch between reads.
   */
  async hash(paths: string[], cancel: Int32Array, algorithm: HashAlgorithm = DEFAULT_ALGORITHM): Promise<HashAnswer[]> {
    const answers = await this.send({ kind: 'hash', paths, cancel, algorithm });
    return algorithm === DEFAULT_ALGORITHM ? answers : answers.map((answer) => inForm(answer, algorithm));
  }

  /**
   * Starts hashing `path` (opened without following a symlink) on one worker, which reads each
   * part as `to` says it is written. On the main thread, SHA-256 of a 2 GiB download took
   * 1.2 s of the 4.5 s it took in all, while the other core waited.
   */
  hashBehind(path: string, algorithm: HashAlgorithm = DEFAULT_ALGORITHM): HashBehind {
    const target = this.leastBusy(true);
    const job = this.nextJob++;
    target.jobs += 1;
    markBusy(target);
    let ended = false;
    void this.sendTo(target, { kind: 'behind', job, op: 'open', path, algorithm }).catch(() => undefined);
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
          markBusy(target);
        }
        return this.sendTo(target, { kind: 'behind', job, op: 'end' }).then((answer) => {
          if (answer === null) throw new Error('a file-system worker answered the end of a hash with nothing');
          return inForm(answer, algorithm);
        });
      },
    };
  }

  /** Workers running now. */
  get running(): number {
    return this.workers.length;
  }

  /** Starts the first worker now, so it boots while the caller does other work; the rest start as work queues. */
  warm(): void {
    if (this.workers.length === 0) this.start().worker.unref();
    if (this.workers.every((w) => w.pending.size === 0)) this.armIdleTimer();
  }

  /** Ends the workers now; the next request starts new ones. */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }

  private send<R extends WorkerRequest>(request: R): Promise<WorkerAnswers[R['kind']]> {
    return this.sendTo(this.leastBusy(), request);
  }

  private sendTo<R extends WorkerRequest>(target: PooledWorker, request: R): Promise<WorkerAnswers[R['kind']]> {
    clearTimeout(this.idleTimer);
    if (!this.workers.includes(target)) return Promise.reject(new Error('the file-system worker of this job has ended'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (target.pending.size === 0) target.worker.ref();
      target.pending.set(id, { resolve: resolve as (answer: unknown) => void, reject });
      markBusy(target);
      target.worker.postMessage({ id, ...request });
    });
  }

  /** The worker with the least work, or a new one (`now`: as soon as every worker has some). */
  private leastBusy(now = false): PooledWorker {
    let best: PooledWorker | undefined;
    for (const w of this.workers) if (!best || loadOf(w) < loadOf(best)) best = w;
    if (best && (loadOf(best) === 0 || this.workers.length >= this.size)) return best;
    if (best && !now && (!best.online || performance.now() - (best.busySince ?? 0) < GROW_AFTER_MS)) return best;
    return this.start();
  }

  private start(): PooledWorker {
    const worker = startModuleWorker(import.meta.url, 'fs-worker', { resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MIB } });
    const pooled: PooledWorker = { worker, pending: new Map(), jobs: 0, busySince: undefined, online: false };
    const { pending } = pooled;
    worker.once('online', () => {
      pooled.online = true;
      if (pooled.busySince !== undefined) pooled.busySince = performance.now();
    });
    worker.on('message', ({ id, answer }: WorkerReply) => {
      const waiting = pending.get(id);
      pending.delete(id);
      markBusy(pooled);
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

/** Keeps `busySince` after a change of the worker's load. */
function markBusy(w: PooledWorker): void {
  w.busySince = loadOf(w) === 0 ? undefined : (w.busySince ?? performance.now());
}

let shared: FsWorkerPool | undefined;

/** The process's pool: one worker per core, at most MAX_WORKERS. */
export function fsWorkers(): FsWorkerPool {
  shared ??= new FsWorkerPool(Math.max(1, Math.min(MAX_WORKERS, availableParallelism())));
  return shared;
}
