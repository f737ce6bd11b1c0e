/**
 * Where transfers wait their turn: a slot limit per direction (by default 4 downloads, 4 uploads),
 * where a slot holds one large file or several small ones, pause and resume, a bandwidth limit shared by every transfer, and the progress the status
 * shows (bytes, speed over the last few seconds, ETA).
 */
import { EventEmitter, setMaxListeners } from 'node:events';
import type { TransferDirection, TransferProgress } from '../../shared/engine.js';

export interface TransferQueueOptions {
  maxDownloads: number;
  maxUploads: number;
  /** Bytes per second for all transfers together; undefined: no limit. */
  bandwidthLimit?: number;
  /** Clock in ms (tests of speed and ETA); Date.now by default. */
  now?: () => number;
}

export interface TransferJob {
  workspaceId: string;
  path: string;
  direction: TransferDirection;
  bytesTotal: number;
  /** Aborts the job, queued or running (its handle's signal follows it). */
  signal?: AbortSignal;
}

export interface TransferHandle {
  readonly signal: AbortSignal;
  /** Bytes done so far (absolute, not a delta): a resumed download starts at its offset. */
  progress(bytesDone: number): void;
  /**
   * Call before moving each chunk: waits while paused, then for the bandwidth limit. Nothing to
   * wait for (the usual case) answers undefined rather than a promise, so a caller that moves
   * thousands of chunks a second does not yield to the event loop for each.
   */
  throttle(bytes: number): Promise<void> | undefined;
}

/**
 * A small file's transfer is mostly round trips, not bytes, so a slot runs several of them at
 * once: together at most this many each way, whatever the slots (4 slots: 8 small files each).
 * Over 50 ms of latency, one file at a time per slot left the link idle most of the time
 * (Syncthing bounds its pullers by bytes in flight for the same reason). The bound keeps
 * sockets and open files well under the 256 descriptors a macOS process may get by default.
 */
export const SMALL_IN_FLIGHT = 32;
/**
 * Up to this size a transfer counts as small, here and in the executor (read in one piece, never
 * resumed, no journal entry).
 */
export const SMALL_TRANSFER_BYTES = 1024 * 1024;

/** Progress events per transfer at most this often (state changes are always sent). */
const PROGRESS_INTERVAL_MS = 100;
/** Speed samples are taken at most this often. */
const SAMPLE_INTERVAL_MS = 50;
/** Speed is averaged over this window. */
const SPEED_WINDOW_MS = 3000;
/** Longest single sleep of a throttled transfer, so a raised limit or an abort is seen soon. */
const MAX_THROTTLE_SLEEP_MS = 250;

/** The signal of a transfer that nothing can abort: every such transfer shares it, and listens on it. */
const NEVER_ABORTED = new AbortController().signal;
setMaxListeners(0, NEVER_ABORTED);

interface Waiter {
  /** A large file takes a whole slot; small ones share one. */
  large: boolean;
  start: () => void;
}

interface Sample {
  at: number;
  bytes: number;
}

interface Entry {
  progress: TransferProgress;
  samples: Sample[];
  lastEmit: number;
}

/** A token bucket refilled at `rate` bytes/s, holding at most one second's worth. */
class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private rate: number,
    private readonly now: () => number,
  ) {
    this.tokens = rate;
    this.last = now();
  }

  setRate(rate: number): void {
    this.refill();
    this.rate = rate;
    this.tokens = Math.min(this.tokens, rate);
  }

  /** Takes `bytes` (going into debt if needed); returns the ms until the debt is repaid. */
  take(bytes: number): number {
    this.refill();
    this.tokens -= bytes;
    return this.debtMs();
  }

  debtMs(): number {
    this.refill();
    return this.tokens >= 0 ? 0 : (-this.tokens / this.rate) * 1000;
  }

  private refill(): void {
    const at = this.now();
    this.tokens = Math.min(this.rate, this.tokens + ((at - this.last) / 1000) * this.rate);
    this.last = at;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class TransferQueue extends EventEmitter<{ progress: [TransferProgress] }> {
  /** Per direction, in units of one small file (a large one takes a whole slot). */
  private limits: Record<TransferDirection, number> = { download: 0, upload: 0 };
  /** Small files a slot holds, per direction. */
  private perSlot: Record<TransferDirection, number> = { download: 0, upload: 0 };
  /** Counted by kind, not in units: a new slot size (new limits) applies to those running too. */
  private readonly running: Record<TransferDirection, { large: number; small: number }> = { download: { large: 0, small: 0 }, upload: { large: 0, small: 0 } };
  private readonly waiting: Record<TransferDirection, Waiter[]> = { download: [], upload: [] };
  private readonly entries = new Map<string, Entry>();
  /** Woken by `resume`: throttled transfers waiting out a pause. */
  private pauseWaiters: Array<() => void> = [];
  private bucket: TokenBucket | undefined;
  private isPaused = false;
  private nextId = 1;
  private readonly now: () => number;
  /** Times a transfer had to wait for the bandwidth limit (what tests and benchmarks count). */
  throttleWaits = 0;

  constructor(opts: TransferQueueOptions) {
    super();
    this.setTransferLimits(opts);
    this.now = opts.now ?? Date.now;
    this.setBandwidthLimit(opts.bandwidthLimit);
  }

  /**
   * Slots per direction, those running included: transfers already running finish in the slots
   * they have, and waiting ones start as soon as they fit the new limits.
   */
  setTransferLimits(limits: { maxDownloads: number; maxUploads: number }): void {
    if (!(limits.maxDownloads >= 1) || !(limits.maxUploads >= 1)) throw new RangeError('transfer limits must be at least 1');
    const perSlot = (slots: number): number => Math.max(1, Math.floor(SMALL_IN_FLIGHT / slots));
    this.perSlot = { download: perSlot(limits.maxDownloads), upload: perSlot(limits.maxUploads) };
    this.limits = { download: limits.maxDownloads * this.perSlot.download, upload: limits.maxUploads * this.perSlot.upload };
    for (const direction of ['download', 'upload'] as const) this.startWaiting(direction);
  }

  /** Transfers of one direction that may run at once (when all are small). */
  slotsFor(direction: TransferDirection): number {
    return this.limits[direction];
  }

  get paused(): boolean {
    return this.isPaused;
  }

  pause(): void {
    this.isPaused = true;
  }

  resume(): void {
    if (!this.isPaused) return;
    this.isPaused = false;
    const waiters = this.pauseWaiters;
    this.pauseWaiters = [];
    for (const wake of waiters) wake();
    for (const direction of ['download', 'upload'] as const) this.startWaiting(direction);
  }

  setBandwidthLimit(bytesPerSecond: number | undefined): void {
    if (bytesPerSecond === undefined || bytesPerSecond <= 0 || !Number.isFinite(bytesPerSecond)) {
      this.bucket = undefined;
    } else if (this.bucket) {
      this.bucket.setRate(bytesPerSecond);
    } else {
      this.bucket = new TokenBucket(bytesPerSecond, this.now);
    }
  }

  /** Every queued and running transfer, for the status. */
  active(): TransferProgress[] {
    return [...this.entries.values()].map((e) => ({ ...e.progress }));
  }

  async run<T>(job: TransferJob, work: (t: TransferHandle) => Promise<T>): Promise<T> {
    // The job's own signal, not one made for each transfer: a signal per transfer cost a
    // controller, a listener on the run's signal, and the HTTP client's combined signal
    // (AbortSignal.any, about 20 µs) for every small file.
    const signal = job.signal ?? NEVER_ABORTED;
    if (signal.aborted) throw signal.reason;
    const id = `${job.direction}-${this.nextId++}`;
    const entry: Entry = {
      progress: {
        id,
        workspaceId: job.workspaceId,
        path: job.path,
        direction: job.direction,
        bytesDone: 0,
        bytesTotal: job.bytesTotal,
        speed: 0,
        etaSeconds: null,
        state: 'queued',
      },
      samples: [],
      lastEmit: 0,
    };
    this.entries.set(id, entry);
    this.emitNow(entry);
    let started = false;
    const large = job.bytesTotal > SMALL_TRANSFER_BYTES;
    try {
      await this.acquire(job.direction, large, signal);
      started = true;
      entry.progress.state = 'active';
      entry.samples = [{ at: this.now(), bytes: 0 }];
      this.emitNow(entry);
      const handle: TransferHandle = {
        signal,
        progress: (bytesDone) => this.onProgress(entry, bytesDone),
        throttle: (bytes) => this.throttle(bytes, signal),
      };
      const result = await work(handle);
      entry.progress.state = 'done';
      entry.progress.etaSeconds = 0;
      return result;
    } catch (err) {
      entry.progress.state = 'failed';
      throw err;
    } finally {
      this.entries.delete(id);
      this.emitNow(entry);
      if (started) this.release(job.direction, large);
    }
  }

  /** Whether one more fits, in units of one small file: a large file takes a whole slot. */
  private fits(direction: TransferDirection, large: boolean): boolean {
    const { large: bigs, small } = this.running[direction];
    const used = bigs * this.perSlot[direction] + small;
    return !this.isPaused && used + (large ? this.perSlot[direction] : 1) <= this.limits[direction];
  }

  private acquire(direction: TransferDirection, large: boolean, signal: AbortSignal): Promise<void> {
    const kind = large ? 'large' : 'small';
    // Behind others already waiting, even if it would fit: a large file is not starved by a
    // stream of small ones overtaking it.
    if (this.waiting[direction].length === 0 && this.fits(direction, large)) {
      this.running[direction][kind] += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        large,
        start: () => {
          signal.removeEventListener('abort', onAbort);
          this.running[direction][kind] += 1;
          resolve();
        },
      };
      const onAbort = (): void => {
        const list = this.waiting[direction];
        const at = list.indexOf(waiter);
        if (at !== -1) list.splice(at, 1);
        reject(signal.reason as Error);
        // A large job that left the head of the line may have held back smaller ones.
        this.startWaiting(direction);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting[direction].push(waiter);
    });
  }

  private release(direction: TransferDirection, large: boolean): void {
    this.running[direction][large ? 'large' : 'small'] -= 1;
    this.startWaiting(direction);
  }

  /** Starts queued jobs in order while the next one fits and the queue is not paused. */
  private startWaiting(direction: TransferDirection): void {
    const list = this.waiting[direction];
    while (list.length > 0 && this.fits(direction, (list[0] as Waiter).large)) list.shift()?.start();
  }

  private throttle(bytes: number, signal: AbortSignal): Promise<void> | undefined {
    if (!this.isPaused && (this.bucket === undefined || bytes <= 0)) return undefined;
    return this.throttleSlowly(bytes, signal);
  }

  private async throttleSlowly(bytes: number, signal: AbortSignal): Promise<void> {
    await this.whilePaused(signal);
    if (!this.bucket || bytes <= 0) return;
    let wait = this.bucket.take(bytes);
    if (wait <= 0) return;
    this.throttleWaits++;
    // Every waiter sleeps until the shared debt is repaid, so together they never exceed the rate.
    while (wait > 0) {
      await sleep(Math.min(wait, MAX_THROTTLE_SLEEP_MS), signal);
      await this.whilePaused(signal);
      wait = this.bucket?.debtMs() ?? 0;
    }
  }

  private async whilePaused(signal: AbortSignal): Promise<void> {
    while (this.isPaused) {
      signal.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => reject(signal.reason as Error);
        signal.addEventListener('abort', onAbort, { once: true });
        this.pauseWaiters.push(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
  }

  private onProgress(entry: Entry, bytesDone: number): void {
    const at = this.now();
    entry.progress.bytesDone = bytesDone;
    // One sample per interval is enough for the average: a sample per 64 KiB chunk made the
    // window thousands of entries long on a fast download, and trimming it cost a tenth of the CPU.
    const last = entry.samples[entry.samples.length - 1];
    if (last === undefined || at - last.at >= SAMPLE_INTERVAL_MS) entry.samples.push({ at, bytes: bytesDone });
    // Keep one sample older than the window, so the average spans the whole window.
    while (entry.samples.length > 2 && (entry.samples[1]?.at ?? at) <= at - SPEED_WINDOW_MS) entry.samples.shift();
    const first = entry.samples[0] ?? { at, bytes: bytesDone };
    const elapsed = (at - first.at) / 1000;
    entry.progress.speed = elapsed > 0 ? Math.max(0, (bytesDone - first.bytes) / elapsed) : entry.progress.speed;
    const left = Math.max(0, entry.progress.bytesTotal - bytesDone);
    entry.progress.etaSeconds = left === 0 ? 0 : entry.progress.speed > 0 ? Math.ceil(left / entry.progress.speed) : null;
    if (at - entry.lastEmit >= PROGRESS_INTERVAL_MS) this.emitNow(entry);
  }

  private emitNow(entry: Entry): void {
    entry.lastEmit = this.now();
    this.emit('progress', { ...entry.progress });
  }
}
