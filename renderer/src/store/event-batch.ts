/**
 * The engine's events, gathered between two renders. A busy engine sends hundreds a second
 * (every transfer's progress, every status change); rendering each one froze the page. Events
 * are applied at once when none came for a while, then at most once per `everyMs`: only the
 * latest status counts, a transfer or a problem keeps its latest report, activity its newest items.
 */
import type { ActivityItem, EngineStatus, Problem, TransferProgress } from '../../../shared/engine.js';

export interface EventBatch {
  /** The latest status; the transfers and problems below came after it. */
  status: EngineStatus | null;
  transfers: Map<string, TransferProgress>;
  problems: Map<string, Problem>;
  /** Oldest first. */
  activity: ActivityItem[];
}

export interface EventBuffer {
  status(status: EngineStatus): void;
  transfer(transfer: TransferProgress): void;
  problem(problem: Problem): void;
  activity(item: ActivityItem): void;
  /** Applies what is waiting now (before an answer that carries a newer status). */
  flush(): void;
  stop(): void;
}

const emptyBatch = (): EventBatch => ({ status: null, transfers: new Map(), problems: new Map(), activity: [] });

export function createEventBuffer(apply: (batch: EventBatch) => void, options: { everyMs: number; activityKept: number }): EventBuffer {
  let batch = emptyBatch();
  let waiting = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  function flush(): void {
    if (!waiting) return;
    const ready = batch;
    batch = emptyBatch();
    waiting = false;
    apply(ready);
  }

  function tick(): void {
    timer = null;
    if (!waiting) return;
    flush();
    timer = setTimeout(tick, options.everyMs);
  }

  /** The first event after a quiet spell shows at once; the ones after it wait for the next tick. */
  function add(change: (b: EventBatch) => void): void {
    change(batch);
    waiting = true;
    if (timer !== null) return;
    flush();
    timer = setTimeout(tick, options.everyMs);
  }

  return {
    status: (status) =>
      add((b) => {
        // A status reports every transfer and problem: what came before it is in it.
        b.status = status;
        b.transfers.clear();
        b.problems.clear();
      }),
    transfer: (transfer) => add((b) => void b.transfers.set(transfer.id, transfer)),
    problem: (problem) => add((b) => void b.problems.set(`${problem.workspaceId}\n${problem.kind}\n${problem.path ?? ''}`, problem)),
    activity: (item) =>
      add((b) => {
        b.activity.push(item);
        if (b.activity.length > options.activityKept) b.activity.shift();
      }),
    flush,
    stop() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      batch = emptyBatch();
      waiting = false;
    },
  };
}
