/**
 * Hashes files on the scanner's worker threads (fs-workers.ts), a batch of files per message,
 * while the walk goes on: a first scan reads every file, and hashing them one promise at a time
 * on the main thread, after the walk, used one core where Syncthing uses all of them.
 */
import { DEFAULT_ALGORITHM, type HashAlgorithm } from './checksum.js';
import { type FsWorkerPool, fsWorkers, type HashAnswer } from './fs-workers.js';

export type { HashAnswer } from './fs-workers.js';

export interface HashItem {
  absPath: string;
  /** Expected size, to cut batches of about equal work. */
  sizeHint: number;
}

const BATCH_FILES = 64;
const BATCH_BYTES = 16 * 1024 * 1024;
/** Batches per worker in flight, so a worker never waits for the main thread's next message. */
const IN_FLIGHT = 3;

/**
 * Collects files to hash and sends them to the workers in batches as they come; `onAnswer`
 * runs on the main thread for each file, in no particular order. `finish` waits for the last
 * answer. An abort makes `finish` reject at once and stops the workers between two reads.
 */
export class HashQueue<T extends HashItem> {
  private readonly cancel = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  private readonly waiting: T[][] = [];
  private open: T[] = [];
  private openBytes = 0;
  private inFlight = 0;
  private failure: { error: unknown } | undefined;
  private settle: (() => void) | undefined;
  private readonly stop = (): void => {
    Atomics.store(this.cancel, 0, 1);
    this.fail(this.signal?.reason);
  };

  constructor(
    private readonly onAnswer: (item: T, answer: HashAnswer) => void,
    private readonly signal?: AbortSignal,
    private readonly pool: FsWorkerPool = fsWorkers(),
    private readonly algorithm: HashAlgorithm = DEFAULT_ALGORITHM,
  ) {
    signal?.addEventListener('abort', this.stop, { once: true });
  }

  add(item: T): void {
    this.open.push(item);
    this.openBytes += item.sizeHint;
    if (this.open.length >= BATCH_FILES || this.openBytes >= BATCH_BYTES) this.seal();
  }

  /** Resolves when every file added has its answer; rejects on abort or a worker's failure. */
  async finish(): Promise<void> {
    try {
      this.signal?.throwIfAborted();
      this.seal();
      while (!this.failure && (this.inFlight > 0 || this.waiting.length > 0)) {
        await new Promise<void>((resolve) => (this.settle = resolve));
      }
      if (this.failure) throw this.failure.error;
    } finally {
      // Also stops batches still running after another one failed.
      Atomics.store(this.cancel, 0, 1);
      this.signal?.removeEventListener('abort', this.stop);
    }
  }

  /** Stops reading and answering; for a scan that failed otherwise. */
  abandon(): void {
    Atomics.store(this.cancel, 0, 1);
    this.signal?.removeEventListener('abort', this.stop);
    this.fail(new Error('hashing abandoned'));
  }

  private seal(): void {
    if (this.open.length > 0) this.waiting.push(this.open);
    this.open = [];
    this.openBytes = 0;
    this.pump();
  }

  private pump(): void {
    while (!this.failure && this.inFlight < this.pool.size * IN_FLIGHT) {
      const batch = this.waiting.shift();
      if (!batch) break;
      this.inFlight++;
      this.pool.hash(batch.map((item) => item.absPath), this.cancel, this.algorithm).then(
        (answers) => {
          this.inFlight--;
          if (this.failure) return;
          try {
            answers.forEach((answer, i) => this.onAnswer(batch[i] as T, answer));
          } catch (error) {
            return this.fail(error);
          }
          this.pump();
          this.wake();
        },
        (error: unknown) => {
          this.inFlight--;
          this.fail(error);
        },
      );
    }
  }

  private fail(error: unknown): void {
    this.failure ??= { error };
    this.wake();
  }

  private wake(): void {
    const settle = this.settle;
    this.settle = undefined;
    settle?.();
  }
}
