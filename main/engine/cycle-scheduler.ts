/**
 * When a workspace's cycles run. A cycle is triggered by the watcher (debounced), by the change
 * poll (a probe of the feed every 2 s while someone looks, a full cycle at the configured
 * interval: poll-cadence.ts), by files held back settling (settle.ts), by our own changes (to
 * see them confirmed) and by hand; one runs at a time per workspace, and a trigger during one
 * asks for another after it.
 */
import type { SyncIndex } from '../index/sync-index.js';
import type { Logger } from '../logging.js';
import type { Sequence, ServiceClient } from '../service-client/index.js';
import type { ExecutionResult } from '../sync/executor/index.js';
import { probeChanges } from './feed-probe.js';
import { nextPollDelay } from './poll-cadence.js';
import { PollTimer } from './poll-timer.js';
import { untilSettled } from './settle.js';
import type { WorkspaceRuntime } from './workspace-runtime.js';
import type { CycleOutcome } from './workspace-sync.js';

/** What the scheduler asks of the engine it schedules for. */
export interface SchedulerHost {
  /** The engine's workspaces, as they are at each moment. */
  runtimes: ReadonlyMap<string, WorkspaceRuntime>;
  client: ServiceClient;
  index: SyncIndex;
  logger: Logger;
  /** The engine watches and polls (`start` ran). */
  started(): boolean;
  paused(): boolean;
  /** Someone looks: changes are asked for every 2 s. */
  watched(): boolean;
  pollMs(): number;
  /** How long a file must be left alone before it is uploaded. */
  quietMs(): number;
  runCycle(workspaceId: string, allowMassDelete: boolean): Promise<CycleOutcome>;
  /** Starts watching the workspace folder once it exists; true when it started now. */
  watch(workspaceId: string): Promise<boolean>;
  emitStatus(): void;
}

/** Actions of a cycle that failed, or waited out their backoff without being tried. */
const failedOrWaiting = (r: ExecutionResult): number => r.failed.length + r.backedOff;

/** The cycle had work, all of it failing (now or before): another cycle at once would not help. */
export function onlyFailures(outcome: CycleOutcome): boolean {
  const r = outcome.result;
  return r !== null && outcome.waiting.length === 0 && failedOrWaiting(r) > 0 && failedOrWaiting(r) === outcome.work;
}

export class CycleScheduler {
  /** Asks the service for changes: every 2 s while someone looks or transfers run (poll-cadence.ts). */
  private readonly changesTimer: PollTimer;
  private lastTransferAt: number | null = null;
  /** Change polls that failed in a row. */
  private changeFailures = 0;

  constructor(private readonly host: SchedulerHost) {
    this.changesTimer = new PollTimer(() => this.changesDelay(), () => this.pollChanges());
  }

  /** Starts the change poll; the cycles the start triggers ask for changes first. */
  start(): void {
    this.changesTimer.start({ now: false });
  }

  /** What the cadence depends on changed (someone looks, the interval is set). */
  reschedule(): void {
    this.changesTimer.reschedule();
  }

  stop(): void {
    this.changesTimer.stop();
  }

  /** Runs a cycle now (or right after the running one). */
  trigger(workspaceId: string): void {
    const runtime = this.host.runtimes.get(workspaceId);
    if (!runtime || this.host.paused() || runtime.signal.aborted) return;
    if (runtime.cycle.state !== 'idle') {
      runtime.again = true;
      return;
    }
    const allowMassDelete = runtime.nextCycleDeletes === 'confirmed';
    runtime.nextCycleDeletes = 'guarded';
    void this.host.runCycle(workspaceId, allowMassDelete).then(async (outcome) => {
      // Dropped or set up anew meanwhile: this runtime's work is over.
      if (this.host.runtimes.get(workspaceId) !== runtime) return;
      if (outcome.work > 0) this.noteTransfer();
      // The first cycle may have made the workspace folder: watch it now, and look once more
      // for what changed before the watcher saw anything.
      if (await this.host.watch(workspaceId)) runtime.again = true;
      // Whether the service has the feed decides the cadence: learnt once the first cycle stored a cursor.
      if (runtime.feed === 'unknown' && this.host.started()) void this.probe(workspaceId, runtime, { triggers: false });
      // Our own changes come back through the feed: look once more until nothing is left.
      // Failures are not looked at again before their backoff is over.
      if ((outcome.work > 0 || outcome.waiting.length > 0 || runtime.again) && !outcome.blocked) {
        const retryAt = !runtime.again && onlyFailures(outcome) ? this.nextRetryAt(workspaceId) : null;
        runtime.again = false;
        // Only files still being written are left: the next cycle runs once they have settled.
        if (retryAt === null && outcome.waiting.length > 0 && outcome.work === 0) return this.settle(workspaceId, runtime, outcome.waiting);
        const wait = retryAt !== null ? retryAt - Date.now() : 0;
        setTimeout(() => this.trigger(workspaceId), Math.max(wait, 0)).unref();
      }
    });
  }

  /**
   * Runs a cycle once the files held back as still being written have settled (settle.ts): a
   * save goes up a quiet period after its last write, not a quiet period after the cycle that
   * saw it. One wait per workspace, following the files the latest cycle held back.
   */
  private settle(workspaceId: string, runtime: WorkspaceRuntime, waiting: readonly string[]): void {
    if (runtime.settle.state === 'waiting') {
      runtime.settle.paths = waiting;
      return;
    }
    runtime.settle = { state: 'waiting', paths: waiting };
    const quietMs = this.host.quietMs();
    void untilSettled({
      dir: runtime.sync.target.dir,
      paths: () => (runtime.settle.state === 'waiting' ? runtime.settle.paths : []),
      quietMs,
      // A file written for longer is looked at again by the cycles the watcher starts.
      limitMs: 10 * quietMs,
      signal: runtime.signal,
    })
      .catch((error: unknown) => this.host.logger.debug({ err: error }, 'could not look at the files being written; the next cycle does'))
      .finally(() => {
        runtime.settle = { state: 'none' };
        this.trigger(workspaceId);
      });
  }

  /** When the first failing path of the workspace is due again, no later than the next poll. */
  private nextRetryAt(workspaceId: string): number | null {
    const due = Math.min(...this.host.index.errors.notYetDue(workspaceId).values());
    if (!Number.isFinite(due)) return null;
    return Math.min(due, Date.now() + this.host.pollMs());
  }

  /** Until the next change poll: the cadence, but no later than a workspace's cycle is due. */
  private changesDelay(): number {
    const now = Date.now();
    const pollMs = this.host.pollMs();
    const runtimes = [...this.host.runtimes.values()];
    const feed = runtimes.every((r) => r.feed !== 'no');
    const cadence = nextPollDelay({ feed, watched: this.host.watched(), lastTransferAt: this.lastTransferAt, now, intervalMs: pollMs, failures: this.changeFailures });
    const due = Math.min(...runtimes.map((r) => (r.lastCycleAt ?? now) + pollMs - now));
    return Math.max(0, Math.min(cadence, due));
  }

  /**
   * One change poll. A workspace whose last cycle is an interval old gets a cycle (which lists
   * or follows the feed, and rescans the folder behind the watcher); the others get a probe of
   * the feed, one small request, and a cycle only if the service changed.
   */
  private async pollChanges(): Promise<void> {
    if (this.host.paused()) return;
    const now = Date.now();
    await Promise.all(
      [...this.host.runtimes.entries()].map(async ([id, runtime]) => {
        if (runtime.signal.aborted) return;
        if (runtime.lastCycleAt === null || now - runtime.lastCycleAt >= this.host.pollMs()) {
          this.trigger(id);
          // Without the feed, it is asked again at each of these polls: a service may gain it.
          if (runtime.feed === 'no') await this.probe(id, runtime, { triggers: false });
          return;
        }
        if (runtime.cycle.state !== 'idle' || runtime.again) return;
        await this.probe(id, runtime, { triggers: true });
      }),
    );
  }

  /** Asks the feed whether the workspace changed since its cursor; starts a cycle if so (with `triggers`). */
  private async probe(id: string, runtime: WorkspaceRuntime, options: { triggers: boolean }): Promise<void> {
    let cursor: Sequence | null;
    let answer;
    try {
      // No cursor yet: the first cycle lists the workspace in full.
      cursor = this.host.index.workspaces.get(id)?.sequence ?? null;
      if (cursor === null) return;
      answer = await probeChanges(this.host.client, id, cursor, runtime.signal);
      this.changeFailures = 0;
    } catch (error) {
      if (runtime.signal.aborted) return;
      this.changeFailures += 1;
      this.host.logger.debug({ err: error, failures: this.changeFailures }, 'asking for changes failed; asking again later');
      return;
    }
    const feed = answer === 'no-feed' ? 'no' : 'yes';
    if (feed !== runtime.feed) {
      const told = runtime.feed === 'no' || feed === 'no';
      runtime.feed = feed;
      if (feed === 'no') this.host.logger.info({ workspaceId: id }, 'the service has no changes feed: changes are asked for at the poll interval, by a full listing');
      if (told) this.host.emitStatus();
    }
    if (!options.triggers || answer === 'unchanged' || answer === 'no-feed') return;
    if (runtime.probedFrom === cursor) return;
    runtime.probedFrom = cursor;
    this.trigger(id);
  }

  /** A transfer ran: changes are asked for every 2 s for the next minute. */
  private noteTransfer(): void {
    this.lastTransferAt = Date.now();
    this.changesTimer.reschedule();
  }
}
