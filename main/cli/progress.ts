/**
 * Printing a running engine: on a terminal, a status line and one progress bar per transfer
 * (progress-bars.ts), with activity scrolling above them; elsewhere (pipes, logs, CI) plain lines,
 * one per activity item, problem, review and change of state.
 */
import { type ActivityItem, type EngineEvents, type EngineStatus, type Problem, type ReviewNotification, type SyncReport, type SyncState, type TransferProgress } from '../../shared/engine.js';
import { activityLine, print, problemLines, reviewLine } from './output.js';
import { describeState, type Sink } from './status-line.js';
import type { SyncEngine } from '../engine/engine.js';

export interface Reporter {
  /** A line of our own (e.g. the summary), printed without breaking the bars. */
  log(line: string): void;
  stop(): void;
}

/** States worth a line of their own in plain output; the busy ones would repeat every cycle. */
const NOTEWORTHY: ReadonlySet<SyncState> = new Set(['up-to-date', 'attention', 'offline', 'paused', 'stopped']);

/**
 * What the reporter listens to: an engine, or the app API over it (`sync --ui`), which follows
 * the session the UI opens in place of the first (another sync folder).
 */
export interface EngineEventSource {
  on<E extends keyof EngineEvents>(event: E, listener: (...args: EngineEvents[E]) => void): unknown;
  off<E extends keyof EngineEvents>(event: E, listener: (...args: EngineEvents[E]) => void): unknown;
}

export interface ReporterOptions {
  tty: boolean;
  /** Start each line with the workspace's name. */
  multipleWorkspaces: boolean;
  /** Print problems as they happen (watching); a one-off sync lists them in its summary instead. */
  liveProblems: boolean;
}

export async function attachReporter(engine: EngineEventSource, options: ReporterOptions): Promise<Reporter> {
  // The bars are loaded for a terminal only: a sync whose output goes to a pipe or a log starts without them.
  const sink = options.tty ? new (await import('./progress-bars.js')).TerminalSink() : new PlainSink();
  const names = new Map<string, string>();
  // Workspaces chosen in the UI while running count too.
  let many = options.multipleWorkspaces;
  const prefix = (workspaceId: string): string => (many ? `[${names.get(workspaceId) ?? workspaceId}] ` : '');
  // A problem comes as an event or only in the status (a blocked cycle): each is printed once,
  // and again only if it comes back after everything was up to date.
  const printed = new Set<string>();
  const showProblem = (problem: Problem): void => {
    const key = `${problem.workspaceId}|${problem.path ?? problem.kind}`;
    if (!options.liveProblems || printed.has(key)) return;
    printed.add(key);
    problemLines(problem, prefix(problem.workspaceId)).forEach((l) => sink.line(l));
  };
  const onStatus = (status: EngineStatus): void => {
    many = options.multipleWorkspaces || status.workspaces.length > 1;
    for (const ws of status.workspaces) names.set(ws.workspaceId, ws.name);
    if (status.state === 'up-to-date') printed.clear();
    for (const ws of status.workspaces) ws.problems.forEach(showProblem);
    sink.status(status);
  };
  const onActivity = (item: ActivityItem): void => sink.line(activityLine(item, prefix(item.workspaceId)));
  const onProblem = showProblem;
  const onReview = (review: ReviewNotification): void => sink.line(reviewLine(review));
  const onTransfer = (transfer: TransferProgress): void => sink.transfer(transfer);
  engine.on('status', onStatus);
  engine.on('activity', onActivity);
  engine.on('problem', onProblem);
  engine.on('review', onReview);
  engine.on('transfer', onTransfer);
  return {
    log: (line) => sink.line(line),
    stop() {
      engine.off('status', onStatus);
      engine.off('activity', onActivity);
      engine.off('problem', onProblem);
      engine.off('review', onReview);
      engine.off('transfer', onTransfer);
      sink.stop();
    },
  };
}

class PlainSink implements Sink {
  private lastPrinted: SyncState | null = null;
  /** Lines since the last state line: after some work, "up to date" is news again. */
  private dirty = false;
  /**
   * Lines of this turn of the event loop, written together at its end: a write to a pipe is a
   * system call that wakes the reader, and a line per small file made it one per file.
   */
  private pending: string[] = [];

  line(text: string): void {
    this.queue(text);
    this.dirty = true;
  }

  status(status: EngineStatus): void {
    if (!NOTEWORTHY.has(status.state) || (status.state === this.lastPrinted && !this.dirty)) return;
    this.lastPrinted = status.state;
    this.dirty = false;
    this.queue(`status: ${describeState(status.state)}`);
  }

  transfer(): void {}

  stop(): void {
    this.flush();
  }

  private queue(text: string): void {
    if (this.pending.push(text) === 1) setImmediate(() => this.flush());
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const lines = this.pending;
    this.pending = [];
    print(lines.join('\n'));
  }
}

/** One `syncOnce` of the session's engine (initialised first), each transfer shown as `sync` shows it. */
export async function syncOnceShown(engine: SyncEngine): Promise<SyncReport> {
  const reporter = await attachReporter(engine, { tty: Boolean(process.stdout.isTTY), multipleWorkspaces: false, liveProblems: false });
  try {
    await engine.init();
    return await engine.syncOnce();
  } finally {
    reporter.stop();
  }
}
