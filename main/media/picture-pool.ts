/**
 * The worker thread that draws pictures, and the queue in front of it. Pictures must never slow
 * the sync, so by default there is one worker (two on machines with eight cores or more), each
 * drawing one picture at a time, at a lower OS priority on Linux. Pictures someone is looking at
 * ('visible') go before those made ahead of need ('background'); both queues are capped, the
 * oldest dropped first; a queued job whose askers all went away is dropped unstarted.
 *
 * A picture that takes longer than `timeoutMs` (a hostile or pathological file) ends its worker,
 * which is started again for the next job. The workers end after `idleMs` without work: pdf.js
 * and libheif hold tens of megabytes once loaded.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../local/module-worker.js';
import type { RenderJob, RenderOutcome } from './render/types.js';

export type Priority = 'visible' | 'background';

export interface PoolOptions {
  workers?: number;
  /** Most jobs waiting per priority (default 1000). */
  maxQueued?: number;
  timeoutMs?: number;
  idleMs?: number;
}

/** The job was dropped from a full queue or the pool closed: nothing was learnt about the file. */
export class NotDrawn extends Error {
  override readonly name = 'NotDrawn';
}

interface Job {
  job: RenderJob;
  priority: Priority;
  resolve(outcome: RenderOutcome): void;
  reject(error: Error): void;
  cancelled: boolean;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  current: Job | null;
  timer: NodeJS.Timeout | null;
}

export interface PoolTask {
  result: Promise<RenderOutcome>;
  /** Moves a queued background job to the visible queue (someone is now looking at it). */
  promote(): void;
  /** Drops the job if it has not started; a started job finishes (its picture is kept). */
  cancel(): void;
}

export const defaultWorkers = (): number => (availableParallelism() >= 8 ? 2 : 1);

/** A worker running picture-worker (module-worker.ts says where it is found). */
function startWorker(): Worker {
  return startModuleWorker(import.meta.url, 'picture-worker');
}

export class PicturePool {
  private readonly queues: Record<Priority, Job[]> = { visible: [], background: [] };
  private readonly slots: Slot[] = [];
  private readonly workers: number;
  private readonly maxQueued: number;
  private readonly timeoutMs: number;
  private readonly idleMs: number;
  private idleTimer: NodeJS.Timeout | null = null;
  private idleWaiters: Array<() => void> = [];
  private nextId = 1;
  private closed = false;

  constructor(options: PoolOptions = {}) {
    this.workers = Math.max(1, options.workers ?? defaultWorkers());
    this.maxQueued = options.maxQueued ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.idleMs = options.idleMs ?? 60_000;
  }

  submit(job: RenderJob, priority: Priority): PoolTask {
    let entry!: Job;
    const result = new Promise<RenderOutcome>((resolve, reject) => {
      entry = { job, priority, resolve, reject, cancelled: false };
    });
    if (this.closed) {
      entry.reject(new NotDrawn('the picture pool is closed'));
      return { result, promote: () => undefined, cancel: () => undefined };
    }
    this.enqueue(entry);
    this.pump();
    return {
      result,
      promote: () => {
        if (entry.priority === 'visible') return;
        const queue = this.queues.background;
        const at = queue.indexOf(entry);
        entry.priority = 'visible';
        if (at === -1) return;
        queue.splice(at, 1);
        this.enqueue(entry);
      },
      cancel: () => {
        const queue = this.queues[entry.priority];
        const at = queue.indexOf(entry);
        if (at === -1) return;
        queue.splice(at, 1);
        entry.cancelled = true;
        entry.reject(new NotDrawn('nobody wants the picture any more'));
        this.settleIdle();
      },
    };
  }

  /** How many jobs wait (not counting those being drawn). */
  get queued(): number {
    return this.queues.visible.length + this.queues.background.length;
  }

  /** Resolves once no job waits and none runs. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const queue of Object.values(this.queues)) {
      for (const entry of queue.splice(0)) entry.reject(new NotDrawn('the picture pool is closed'));
    }
    if (this.idleTimer) clearTimeout(this.idleTimer);
    await Promise.all(this.slots.splice(0).map((slot) => this.stop(slot, new NotDrawn('the picture pool is closed'))));
    this.settleIdle();
  }

  private enqueue(entry: Job): void {
    const queue = this.queues[entry.priority];
    queue.push(entry);
    if (queue.length > this.maxQueued) {
      const dropped = queue.shift() as Job;
      dropped.cancelled = true;
      dropped.reject(new NotDrawn('too many pictures were asked for at once'));
    }
  }

  private isIdle(): boolean {
    return this.queued === 0 && this.slots.every((s) => s.current === null);
  }

  private settleIdle(): void {
    if (!this.isIdle()) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.closed || this.slots.length === 0) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.isIdle()) for (const slot of this.slots.splice(0)) void this.stop(slot, new NotDrawn('idle'));
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private pump(): void {
    if (this.closed) return;
    for (;;) {
      const next = this.queues.visible[0] ?? this.queues.background[0];
      if (!next) break;
      let slot = this.slots.find((s) => s.current === null);
      if (!slot && this.slots.length < this.workers) slot = this.spawn();
      if (!slot) break;
      this.queues[next.priority].shift();
      this.start(slot, next);
    }
  }

  private spawn(): Slot {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const worker = startWorker();
    worker.unref();
    const ready = new Promise<void>((resolve) => {
      const onReady = (message: { ready?: boolean }) => {
        if (!message.ready) return;
        worker.off('message', onReady);
        resolve();
      };
      worker.on('message', onReady);
    });
    const slot: Slot = { worker, ready, current: null, timer: null };
    worker.on('message', (message: { id?: number; outcome?: RenderOutcome }) => {
      if (message.outcome === undefined) return;
      this.finish(slot, (job) => job.resolve(message.outcome as RenderOutcome));
    });
    worker.on('error', (error) => this.fail(slot, `the picture worker stopped: ${error.message}`));
    worker.on('exit', () => this.fail(slot, 'the picture worker stopped'));
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, entry: Job): void {
    slot.current = entry;
    slot.timer = setTimeout(() => this.fail(slot, 'drawing the picture took too long'), this.timeoutMs);
    slot.timer.unref();
    const id = this.nextId++;
    void slot.ready.then(() => slot.worker.postMessage({ id, job: entry.job }));
  }

  private finish(slot: Slot, settle: (job: Job) => void): void {
    const job = slot.current;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.current = null;
    if (job) settle(job);
    this.pump();
    this.settleIdle();
  }

  /** The worker died or hung: its job reads as unreadable, and a fresh worker takes the queue. */
  private fail(slot: Slot, message: string): void {
    const at = this.slots.indexOf(slot);
    if (at === -1) return;
    this.slots.splice(at, 1);
    void slot.worker.terminate();
    this.finish(slot, (job) => job.resolve({ ok: false, reason: 'unreadable', message }));
  }

  private async stop(slot: Slot, reason: Error): Promise<void> {
    if (slot.timer) clearTimeout(slot.timer);
    slot.current?.reject(reason);
    slot.current = null;
    slot.worker.removeAllListeners('exit');
    await slot.worker.terminate();
  }
}
