/**
 * The sync engine: several workspaces under one sync root, each synced by cycles that run one
 * at a time per workspace (when: cycle-scheduler.ts), each workspace watched while the engine
 * runs. The engine is plain Node: the command line and the Electron main process host the same
 * class.
 *
 * Settings apply to the running engine (`setPollInterval`, `setBandwidthLimit`,
 * `setTransferLimits`, `setWorkspaces`): a new engine would need the root's lock, which this one
 * holds until its session closes, and would cut every transfer in flight short for a change that
 * concerns none of them.
 */
import { EventEmitter, setMaxListeners } from 'node:events';
import { type ActivityItem, type EngineEvents, type EngineStatus, type Problem, type ReviewNotification, type SyncReport, type SyncState, type WorkspaceStatus } from '../../shared/engine.js';
import type { Action } from '../sync/actions.js';
import type { SyncIndex } from '../index/sync-index.js';
import { fsWorkers } from '../local/fs-workers.js';
import { watchTree } from '../local/watcher.js';
import type { Logger } from '../logging.js';
import type { ServiceClient, Workspace } from '../service-client/index.js';
import { applyConflictChoice, type ConflictResolution, type ExecutorDeps, type KeepSide } from '../sync/executor/index.js';
import { TransferQueue } from '../sync/transfer-queue.js';
import { ActivityLog } from './activity-log.js';
import { CycleScheduler } from './cycle-scheduler.js';
import { ReviewPolling } from './review-poller.js';
import { DEFAULT_QUIET_MS } from '../local/stability.js';
import { engineStatus, pendingKey, pendingOf, workspaceStatus } from './status.js';
import type { CycleOutcome } from './workspace-sync.js';
import { runningOf, watcherOf, type EngineWorkspace, type WorkspaceRuntime } from './workspace-runtime.js';
import { unwatchWorkspace, watchWorkspace } from './workspace-watch.js';
import { recoverWorkspace, sameSetup, setUpWorkspace, type SetUpContext } from './workspace-setup.js';
import { syncOnce, type SyncOnceOptions } from './sync-once.js';
import { confirmDeletionsOnce, countDeletion, recentDeleteCounts } from './deletion-count.js';

export type { EngineWorkspace } from './workspace-runtime.js';

export interface EngineOptions {
  root: string;
  workspaces: readonly EngineWorkspace[];
  index: SyncIndex;
  client: ServiceClient;
  logger: Logger;
  deviceName: string;
  accountId: string;
  pollIntervalMs?: number;
  quietMs?: number;
  maxDownloads?: number;
  maxUploads?: number;
  bandwidthLimit?: number | undefined;
  /** Delay between a burst of file events and the cycle it triggers. */
  debounceMs?: number;
  /**
   * How long each workspace's tree may be kept by the changes feed alone before a cycle lists
   * it in full again and checks it (default 24 h): a safety net should the feed miss a change.
   * The first cycle of a start lists only past twice this age (workspace-sync.ts `listingDue`).
   */
  fullListingIntervalMs?: number;
  /** How long the watcher alone may vouch for a workspace folder before a cycle walks it again (default 1 h, scan-trust.ts). */
  fullRescanIntervalMs?: number;
  /** Watches a workspace folder (default watchTree): a test puts a watcher that misses events in its place. */
  watchTree?: typeof watchTree;
}

const DEFAULT_POLL_MS = 30_000;
const COUNT_DOWN_STATUS_MS = 250;

/** What a cycle's place holds while something else runs in it (`exclusive`). */
const IDLE_CYCLE: CycleOutcome = { blocked: null, plan: null, result: null, waiting: [], work: 0 };

export class SyncEngine extends EventEmitter<EngineEvents> {
  readonly queue: TransferQueue;
  private readonly runtimes = new Map<string, WorkspaceRuntime>();
  private readonly abort = new AbortController();
  private readonly scheduler: CycleScheduler;
  private readonly reviews: ReviewPolling;
  private readonly activityLog: ActivityLog;
  /** The app's window or the web UI is open. */
  private watched = false;
  private pausedFlag = false;
  private lastCountDownShown = 0;
  private selfUserId = '';
  private started = false;
  private stopping: Promise<void> | null = null;
  private pollMs: number;
  /** The workspaces to sync; `init` sets them up, `setWorkspaces` changes them. */
  private specs: readonly EngineWorkspace[];
  /** Runs while `init` sets the workspaces up: a change of workspaces waits for it. */
  private initializing: Promise<void> | null = null;
  private initialized = false;
  /** Workspace changes run one at a time, in order. */
  private changes: Promise<void> = Promise.resolve();

  constructor(private readonly options: EngineOptions) {
    super();
    // Every transfer and request in flight listens on the stop signal; dozens at once are normal.
    setMaxListeners(0, this.abort.signal);
    this.pollMs = options.pollIntervalMs ?? DEFAULT_POLL_MS;
    this.specs = options.workspaces;
    this.queue = new TransferQueue({
      maxDownloads: options.maxDownloads ?? 4,
      maxUploads: options.maxUploads ?? 4,
      ...(options.bandwidthLimit ? { bandwidthLimit: options.bandwidthLimit } : {}),
    });
    this.queue.on('progress', (t) => {
      this.emit('transfer', t);
    });
    this.activityLog = new ActivityLog(options.index, (item) => this.emit('activity', item));
    this.scheduler = new CycleScheduler({
      runtimes: this.runtimes,
      client: options.client,
      index: options.index,
      logger: options.logger,
      started: () => this.started,
      paused: () => this.pausedFlag,
      watched: () => this.watched,
      pollMs: () => this.pollMs,
      quietMs: () => this.quietMs,
      runCycle: (id, allowMassDelete) => this.runCycle(id, allowMassDelete),
      watch: (id) => this.watch(id),
      emitStatus: () => this.emitStatus(),
    });
    this.reviews = new ReviewPolling({
      client: options.client,
      index: options.index,
      logger: options.logger,
      signal: this.abort.signal,
      watched: () => this.watched,
      intervalMs: () => this.pollMs,
      onReview: (item) => this.emit('review', item),
    });
  }

  /** Learns who we are and where each workspace goes, then finishes what a crash interrupted. */
  init(): Promise<void> {
    const run = this.initialize();
    this.initializing = run;
    return run;
  }

  private async initialize(): Promise<void> {
    const signal = this.abort.signal;
    const asked = this.options.client.getUser({ signal });
    // Each workspace is asked for with the user, not after: a start waits for one round trip, and
    // the service may take a while over a large workspace. Its set-up says what failed.
    const found = new Map(this.specs.map((spec) => [spec.id, this.options.client.getWorkspace(spec.id, { signal })]));
    for (const answer of found.values()) answer.catch(() => undefined);
    // The scan and the large downloads' hashing run on the file-system workers: they boot (tens
    // of ms) while the service answers, not when the first scan waits for them.
    fsWorkers().warm();
    const user = await asked;
    this.selfUserId = user.id ?? '';
    const added: WorkspaceRuntime[] = [];
    for (const spec of this.specs) added.push(await this.setUp(spec, found.get(spec.id)));
    for (const runtime of added) await this.recover(runtime);
    this.initialized = true;
    this.emitStatus();
  }

  /** Where the workspace goes and what it syncs, recorded in the index; not started (workspace-setup.ts). */
  private async setUp(spec: EngineWorkspace, found?: Promise<Workspace>): Promise<WorkspaceRuntime> {
    const runtime = await setUpWorkspace(spec, this.setUpContext(), found, {
      onPhase: (phase) => this.setPhase(spec.id, phase),
      onPlanned: (actions) => this.planned(spec.id, actions),
      onDone: (action) => this.countDown(spec.id, action),
      recentDeletes: () => recentDeleteCounts(this.runtimes.get(spec.id)),
      onProblem: (problem) => this.addProblem(spec.id, problem),
      onActivity: (item) => this.activity(item),
      suppress: (rel, stamp) => {
        const runtime = this.runtimes.get(spec.id);
        if (runtime) watcherOf(runtime)?.suppress(rel, 3000, stamp);
      },
      watcher: () => {
        const runtime = this.runtimes.get(spec.id);
        return runtime ? watcherOf(runtime) : null;
      },
    });
    this.runtimes.set(spec.id, runtime);
    return runtime;
  }

  /** Finishes the transfers a crash (or a stop) left in the workspace's journal (workspace-setup.ts). */
  private recover(runtime: WorkspaceRuntime): Promise<void> {
    return recoverWorkspace(runtime, this.setUpContext());
  }

  private setUpContext(): SetUpContext {
    const { client, index, root, accountId, deviceName, logger, fullListingIntervalMs, fullRescanIntervalMs } = this.options;
    return { client, index, root, accountId, deviceName, logger, fullListingIntervalMs, fullRescanIntervalMs, queue: this.queue, signal: this.abort.signal, selfUserId: this.selfUserId, quietMs: this.quietMs };
  }

  /**
   * Syncs these workspaces from now on. Those whose folder and exclusions are unchanged go on
   * untouched; a dropped one stops (its transfers in flight stay journalled, as at a stop); a
   * new or changed one is set up as at a start, and syncs at once if the engine runs.
   */
  setWorkspaces(specs: readonly EngineWorkspace[]): Promise<void> {
    const run = this.changes.then(() => this.changeWorkspaces(specs));
    this.changes = run.catch(() => undefined);
    return run;
  }

  private async changeWorkspaces(specs: readonly EngineWorkspace[]): Promise<void> {
    await this.initializing?.catch(() => undefined);
    this.specs = specs.map((w) => ({ ...w, excluded: [...(w.excluded ?? [])] }));
    // Not set up yet (or the set-up failed and will be tried again): `init` takes them as they are.
    if (!this.initialized || this.abort.signal.aborted) return;
    const wanted = new Map(this.specs.map((w) => [w.id, w]));
    const leaving = [...this.runtimes.values()].filter((r) => {
      const spec = wanted.get(r.spec.id);
      return !spec || !sameSetup(r.spec, spec);
    });
    await Promise.all(leaving.map((r) => this.retire(r)));
    for (const spec of this.specs) {
      if (this.runtimes.has(spec.id)) continue;
      const runtime = await this.setUp(spec);
      await this.recover(runtime);
      if (!this.started || this.abort.signal.aborted) continue;
      this.options.index.errors.makeDue(spec.id);
      await this.watch(spec.id);
      this.trigger(spec.id);
    }
    // The status lists the workspaces in the order the settings give.
    const ordered = this.specs.map((w) => this.runtimes.get(w.id)).filter((r): r is WorkspaceRuntime => r !== undefined);
    this.runtimes.clear();
    for (const runtime of ordered) this.runtimes.set(runtime.spec.id, runtime);
    this.emitStatus();
  }

  /** Stops one workspace's watcher and cycle, and forgets it. */
  private async retire(runtime: WorkspaceRuntime): Promise<void> {
    this.runtimes.delete(runtime.spec.id);
    runtime.stop.abort();
    await unwatchWorkspace(runtime);
    await runningOf(runtime)?.catch(() => undefined);
    this.activityLog.flush();
  }

  /** How often the service is asked for changes while watching, when nobody looks (poll-cadence.ts). */
  setPollInterval(ms: number): void {
    this.pollMs = ms;
    this.rescheduleTimers();
    // The notice of a service without the feed names the interval.
    if ([...this.runtimes.values()].some((r) => r.feed === 'no')) this.emitStatus();
  }

  /**
   * Someone looks (the app's window is visible, the web UI has an event stream open): changes
   * are asked for every 2 s, and at once when the first view opens.
   */
  setWatched(watched: boolean): void {
    if (this.watched === watched) return;
    this.watched = watched;
    this.rescheduleTimers();
  }

  /** Bytes per second for all transfers together, those running included; undefined: unlimited. */
  setBandwidthLimit(bytesPerSecond: number | undefined): void {
    this.queue.setBandwidthLimit(bytesPerSecond);
  }

  /** Large files transferred at once per direction, those running included (they finish where they are). */
  setTransferLimits(limits: { maxDownloads: number; maxUploads: number }): void {
    this.queue.setTransferLimits(limits);
  }

  /** Converges every workspace: cycles until nothing is left to do (or `maxRounds`), then reports (sync-once.ts). */
  syncOnce(options: SyncOnceOptions = {}): Promise<SyncReport> {
    return syncOnce(
      {
        runtimes: this.runtimes,
        index: this.options.index,
        quietMs: this.quietMs,
        signal: this.abort.signal,
        runCycle: (id, allowMassDelete) => this.runCycle(id, allowMassDelete),
        workspaceStatus: (runtime) => this.workspaceStatus(runtime),
      },
      options,
    );
  }

  /** Watches and polls until `stop()`. */
  async start(): Promise<void> {
    // A stopped engine stays stopped: its session is closing.
    if (this.started || this.abort.signal.aborted) return;
    this.started = true;
    for (const id of [...this.runtimes.keys()]) {
      // A start is a fresh try for what failed before (the user may have fixed it meanwhile).
      this.options.index.errors.makeDue(id);
      await this.watch(id);
      this.trigger(id);
    }
    // The cycles just triggered ask for changes; reviews are asked for at once.
    this.scheduler.start();
    this.reviews.start({ now: true });
  }

  private rescheduleTimers(): void {
    this.scheduler.reschedule();
    this.reviews.reschedule();
  }

  private stopTimers(): void {
    this.scheduler.stop();
    this.reviews.stop();
  }


  /** Runs a cycle now (or right after the running one). */
  trigger(workspaceId: string): void {
    this.scheduler.trigger(workspaceId);
  }

  /** How long a file must be left alone before it is uploaded. */
  private get quietMs(): number {
    return this.options.quietMs ?? DEFAULT_QUIET_MS;
  }

  /**
   * The user confirms the deletions the mass-delete brake held back: the next
   * cycle carries them out, and the brake guards every cycle after it again.
   */
  allowDeletionsOnce(workspaceId: string): void {
    const runtime = this.runtimes.get(workspaceId);
    if (!runtime) throw new Error(`unknown workspace ${workspaceId}`);
    confirmDeletionsOnce(runtime);
    this.trigger(workspaceId);
  }

  /**
   * The user's choice about a conflict they looked at (executor/conflict-choice.ts). It runs between
   * two cycles of the workspace, never beside one, and a cycle follows to sync what it changed.
   */
  resolveConflict(workspaceId: string, copyPath: string, keep: KeepSide, theirsVersionId?: string): Promise<ConflictResolution> {
    const runtime = this.runtimeOf(workspaceId);
    return this.exclusive(runtime, async () => {
      const resolved = await applyConflictChoice(this.executorDeps(runtime), copyPath, keep, theirsVersionId);
      runtime.cycleProblems = runtime.cycleProblems.filter((p) => !(p.kind === 'conflict' && p.path === resolved.path && p.message.includes(resolved.copyPath)));
      return resolved;
    });
  }

  private runtimeOf(workspaceId: string): WorkspaceRuntime {
    const runtime = this.runtimes.get(workspaceId);
    if (!runtime) throw new Error(`unknown workspace ${workspaceId}`);
    return runtime;
  }

  /** Runs `task` while no cycle of the workspace runs: it holds the cycle's place. */
  private async exclusive<T>(runtime: WorkspaceRuntime, task: () => Promise<T>): Promise<T> {
    for (let running = runningOf(runtime); running; running = runningOf(runtime)) await running.catch(() => undefined);
    const running = task();
    runtime.cycle = {
      state: 'task',
      run: running.then(
        () => IDLE_CYCLE,
        () => IDLE_CYCLE,
      ),
    };
    try {
      return await running;
    } finally {
      runtime.cycle = { state: 'idle' };
      this.activityLog.flush();
      this.emitStatus();
      // A watching engine syncs what the task changed now; `syncOnce` runs its own cycles.
      if (this.started) this.trigger(runtime.spec.id);
    }
  }

  /** What an action of the user's works with: the workspace as its cycles see it. */
  private executorDeps(runtime: WorkspaceRuntime): ExecutorDeps {
    const id = runtime.spec.id;
    return {
      workspaceId: id,
      root: runtime.sync.target.dir,
      index: this.options.index,
      client: this.options.client,
      queue: this.queue,
      folderIds: new Map(),
      logger: this.options.logger.child({ workspace: id }),
      signal: runtime.signal,
      deviceName: this.options.deviceName,
      suppress: (rel, stamp) => watcherOf(runtime)?.suppress(rel, 3000, stamp),
      onActivity: (item) => this.activity(item),
    };
  }

  /** Starts watching the workspace folder once it exists; true when it started now (workspace-watch.ts). */
  private watch(workspaceId: string): Promise<boolean> {
    return watchWorkspace(this.runtimes.get(workspaceId), {
      started: () => this.started,
      paused: () => this.pausedFlag,
      debounceMs: this.options.debounceMs ?? 500,
      watchTree: this.options.watchTree ?? watchTree,
      logger: this.options.logger,
      trigger: (id) => this.trigger(id),
      emitStatus: () => this.emitStatus(),
    });
  }

  /** Asks for review and change requests now: returns those never seen before (each is also emitted). */
  pollReviews(): Promise<ReviewNotification[]> {
    return this.reviews.poll();
  }

  pause(): void {
    if (!this.pausedFlag) for (const runtime of this.runtimes.values()) runtime.pausedChanges.clear();
    this.pausedFlag = true;
    this.queue.pause();
    this.emitStatus();
  }

  resume(): void {
    this.pausedFlag = false;
    // The cycles the resume starts plan those changes: the pending counts tell them from here.
    for (const runtime of this.runtimes.values()) runtime.pausedChanges.clear();
    this.queue.resume();
    for (const id of this.runtimes.keys()) this.trigger(id);
    this.emitStatus();
  }

  get paused(): boolean {
    return this.pausedFlag;
  }

  status(): EngineStatus {
    return engineStatus([...this.runtimes.values()].map((r) => this.workspaceStatus(r)), this.queue.active(), this.pausedFlag);
  }

  /** Stops watching and polling; transfers in flight are aborted and stay journalled for the next start. */
  stop(): Promise<void> {
    this.stopping ??= this.stopNow();
    return this.stopping;
  }

  /** Stopped (or stopping): this engine syncs no more. */
  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private async stopNow(): Promise<void> {
    this.stopTimers();
    this.abort.abort();
    await Promise.all([...this.runtimes.values()].map(async (r) => {
      await watcherOf(r)?.close();
      await runningOf(r)?.catch(() => undefined);
    }));
    for (const r of this.runtimes.values()) r.phase = 'stopped';
    this.activityLog.flush();
    this.emitStatus();
  }

  private async runCycle(workspaceId: string, allowMassDelete: boolean): Promise<CycleOutcome> {
    const runtime = this.runtimes.get(workspaceId);
    if (!runtime) throw new Error(`unknown workspace ${workspaceId}`);
    for (let running = runningOf(runtime); running; running = runningOf(runtime)) await running.catch(() => undefined);
    const problems: Problem[] = [];
    runtime.cycleProblems = problems;
    runtime.lastCycleAt = Date.now();
    const run = runtime.sync.cycle({ allowMassDelete, signal: runtime.signal }).catch(
      (error: unknown): CycleOutcome => ({
        blocked: { workspaceId, path: null, kind: 'error', message: `Sync stopped unexpectedly: ${(error as Error).message}` },
        plan: null,
        result: null,
        waiting: [],
        work: 0,
      }),
    );
    runtime.cycle = { state: 'cycle', run, confirmedDeletions: allowMassDelete };
    const outcome = await run;
    runtime.cycle = { state: 'idle' };
    // Only the executor writes base rows: a cycle that planned and found nothing to carry out
    // changed none. One that acted, or broke off without a plan (perhaps mid-way), is counted again.
    if (outcome.result !== null || outcome.plan === null) runtime.files = null;
    this.activityLog.flush();
    if (outcome.blocked) problems.push(outcome.blocked);
    const { plan: _, ...last } = outcome;
    runtime.last = last;
    for (const item of runtime.writing.update(workspaceId, outcome.waiting, new Date())) this.activity(item);
    runtime.phase = 'up-to-date';
    if (!outcome.blocked) runtime.lastSyncAt = new Date().toISOString();
    this.emitStatus();
    return outcome;
  }

  private workspaceStatus(runtime: WorkspaceRuntime): WorkspaceStatus {
    return workspaceStatus(runtime, { index: this.options.index, pollMs: this.pollMs, paused: this.pausedFlag, stopped: this.abort.signal.aborted });
  }

  private planned(workspaceId: string, actions: readonly Action[]): void {
    const runtime = this.runtimes.get(workspaceId);
    if (runtime) runtime.pending = pendingOf(actions);
  }

  private countDown(workspaceId: string, action: Action): void {
    const runtime = this.runtimes.get(workspaceId);
    const key = pendingKey(action.kind);
    if (!runtime) return;
    if (key && runtime.pending[key] > 0) runtime.pending[key] -= 1;
    countDeletion(runtime, action);
    this.countDownShown();
  }

  /**
   * The count of what is still to come reaches the app as it falls, at most every
   * COUNT_DOWN_STATUS_MS: a transfer's own events all come before its file is placed and counted,
   * so on a loaded machine they alone would leave the whole plan showing until the end. No timer:
   * the status at the end of the cycle shows the last count, and a timer could outlive the index.
   */
  private countDownShown(): void {
    const now = Date.now();
    if (now - this.lastCountDownShown < COUNT_DOWN_STATUS_MS) return;
    this.lastCountDownShown = now;
    this.emitStatus();
  }

  private setPhase(workspaceId: string, phase: SyncState): void {
    const runtime = this.runtimes.get(workspaceId);
    if (runtime && runtime.phase !== phase) {
      runtime.phase = phase;
      this.emitStatus();
    }
  }

  private addProblem(workspaceId: string, problem: Problem): void {
    const problems = this.runtimes.get(workspaceId)?.cycleProblems;
    // One notice per cause for the whole workspace (the service out of reach), however many
    // transfers it failed: told once, not once per file.
    if (problem.path === null && problems?.some((p) => p.path === null && p.kind === problem.kind && p.message === problem.message)) return;
    problems?.push(problem);
    this.emit('problem', problem);
  }

  /** Shown at once, stored in batches (activity-log.ts). */
  private activity(item: ActivityItem): void {
    this.activityLog.add(item);
  }

  private emitStatus(): void {
    this.emit('status', this.status());
  }
}
