/**
 * Printing a running engine: on a terminal, a status line and one progress bar per transfer
 * (progress-bars.ts), with activity scrolling above them; elsewhere (pipes, logs, CI) plain lines,
 * one per activity item, problem, review and change of state.
 */
import { isNotice, type ActivityItem, type EngineEvents, type EngineStatus, type Problem, type ReviewNotification, type SyncReport, type SyncState, type TransferProgress } from '../../shared/engine.js';
import { activityLine, print, problemLines, reviewLine } from './output.js';
import type { SyncEngine } from '../engine/engine.js';

export interface Reporter {
  /** A line of our own (e.g. the summary), printed without breaking the bars. */
  log(line: string): void;
  stop(): void;
}

export interface Sink {
  line(text: string): void;
  status(status: EngineStatus): void;
  transfer(transfer: TransferProgress): void;
  stop(): void;
}

/** States worth a line of their own in plain output; the busy ones would repeat every cycle. */
const NOTEWORTHY: ReadonlySet<SyncState> = new Set(['up-to-date', 'attention', 'offline', 'paused', 'stopped']);

const STATE_WORDS: Record<SyncState, string> = {
  starting: 'starting',
  scanning: 'looking at local files',
  listing: 'asking the service for changes',
  syncing: 'syncing',
  'up-to-date': 'up to date',
  paused: 'paused',
  offline: 'offline, retrying',
  attention: 'needs attention',
  stopped: 'stopped',
};

export function describeState(state: SyncState): string {
  return STATE_WORDS[state];
}

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

/** The status line; `transfers` counts from the transfer events, fresher than the last status. */
export function statusText(status: EngineStatus, transfers: { active: number; queued: number }): string {
  const pending = status.workspaces.reduce((n, w) => n + w.pending.downloads + w.pending.uploads + w.pending.deletes + w.pending.moves, 0);
  const problems = status.workspaces.reduce((n, w) => n + w.problems.filter((p) => !isNotice(p)).length, 0);
  const files = status.workspaces.reduce((n, w) => n + w.files, 0);
  const parts = [`Asset Sync: ${describeState(status.state)}`, `${files} file${files === 1 ? '' : 's'} synced`];
  if (pending > 0 && status.state !== 'up-to-date') parts.push(`${pending} to do`);
  const saved = status.paused ? status.workspaces.reduce((n, w) => n + (w.pausedChanges ?? 0), 0) : 0;
  if (saved > 0) parts.push(`${saved} change${saved === 1 ? '' : 's'} saved while paused`);
  if (transfers.active > 0) parts.push(`${transfers.active} transferring`);
  if (transfers.queued > 0) parts.push(`${transfers.queued} queued`);
  if (problems > 0) parts.push(`${problems} problem${problems === 1 ? '' : 's'}`);
  return parts.join(' · ');
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
