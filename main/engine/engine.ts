/**
 * The sync engine: several workspaces under one sync root, each synced by cycles that run one
 * at a time per workspace. Cycles are triggered by the watcher (debounced), by the change poll
 * (a probe of the feed every 2 s while someone looks, a full cycle at the configured interval:
 * poll-cadence.ts), by files held back settling (settle.ts), by our own changes (to see them
 * confirmed) and by hand. The engine is plain Node: the command line and the Electron main
 * process host the same class.
 *
 * Settings apply to the running engine (`setPollInterval`, `setBandwidthLimit`,
 * `setTransferLimits`, `setWorkspaces`): a new engine would need the root's lock, which this one
 * holds until its session closes, and would cut every transfer in flight short for a change that
 * concerns none of them.
 */
import { EventEmitter, setMaxListeners } from 'node:events';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { isNotice, type ActivityItem, type EngineEvents, type EngineStatus, type PendingCounts, type Problem, type ReviewNotification, type SyncReport, type SyncState, type WorkspaceStatus } from '../../shared/engine.js';
import type { Action } from '../sync/actions.js';
import { activityInput, type ActivityInput } from '../index/activity.js';
import type { SyncIndex } from '../index/sync-index.js';
import { sanitizeName } from '../local/paths.js';
import { fsWorkers } from '../local/fs-workers.js';
import { watchTree, type TreeWatcher } from '../local/watcher.js';
import { IGNORE_FILE_NAME } from '../local/own-files.js';
import { loadIgnoreMatcher } from '../local/ignore.js';
import type { Logger } from '../logging.js';
import type { Sequence, ServiceClient } from '../service-client/index.js';
import { ServiceError, isServiceError } from '../service-client/service-error.js';
import { applyConflictChoice, recoverJournal, type ConflictResolution, type ExecutionResult, type ExecutorDeps, type KeepSide } from '../sync/executor/index.js';
import { TransferQueue } from '../sync/transfer-queue.js';
import { pollReviews } from './review-poller.js';
import { noFeedNotice, probeChanges } from './feed-probe.js';
import { nextPollDelay } from './poll-cadence.js';
import { PollTimer } from './poll-timer.js';
import { untilSettled } from './settle.js';
import { DEFAULT_QUIET_MS } from '../local/stability.js';
import { RecentDeletes } from './recent-deletes.js';
import { NOTHING_PENDING, engineStatus, pendingKey, pendingOf, problemsFrom, workspaceState } from './status.js';
import { PausedChanges } from './paused-changes.js';
import { WritingFiles } from './writing-files.js';
import { WorkspaceSync, type CycleOutcome, type WorkspaceTarget } from './workspace-sync.js';

export interface EngineWorkspace {
  id: string;
  /** Folder name under the root; default: the workspace's name, made safe. */
  folder?: string | undefined;
  excluded?: readonly string[] | undefined;
}

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
}

interface WorkspaceRuntime {
  /** What the workspace was set up from: another folder or exclusion sets it up anew. */
  spec: EngineWorkspace;
  sync: WorkspaceSync;
  /** Ends this workspace's work alone (it is dropped or set up anew); follows the engine's stop. */
  stop: AbortController;
  signal: AbortSignal;
  phase: SyncState;
  running: Promise<CycleOutcome> | null;
  again: boolean;
  last: CycleOutcome | null;
  lastSyncAt: string | null;
  cycleProblems: Problem[];
  watcher: TreeWatcher | null;
  /** A watcher is being started (its ignore rules load). */
  watching?: boolean;
  /** The inode of the folder the watcher watches. */
  watchedInode?: number | undefined;
  /** The user confirmed the deletions the mass-delete brake held back: the next cycle carries them out. */
  deletionsAllowed?: boolean;
  /**
   * What the current (or last) plan leaves to do, counted down as actions complete: a first sync
   * of 300 files said "nothing pending" while it ran, because the count came from the last
   * finished cycle's plan.
   */
  pending?: PendingCounts;
  /** File deletions carried out in the last minutes, per side: kept in the index across restarts. */
  recentDeletes: RecentDeletes;
  /** The running cycle carries out deletions the user confirmed: they do not count toward the next brake. */
  deletionsConfirmed?: boolean;
  /** Local changes the watcher saw while sync is paused (none are uploaded before the resume). */
  pausedChanges: PausedChanges;
  /** Files the last cycle found still being written. */
  writing: WritingFiles;
  /**
   * Synced files, counted again only after a cycle that acted: a count of 100,000 rows at every
   * status update (each phase change) was a tenth of a second of every start-up.
   */
  files: number | null;
  /** Whether the service answers the changes feed for this workspace, as the last probe found. */
  feed: 'unknown' | 'yes' | 'no';
  /** When the last cycle started (ms since the epoch); null: none yet. */
  lastCycleAt: number | null;
  /**
   * The cursor a probe found changes after and started a cycle for. Still the cursor after that
   * cycle: the cycle could not take them in (a missing marker, a listing that fails). Probes then
   * leave it to the cycle at the configured interval rather than start one every 2 s.
   */
  probedFrom: Sequence | null;
  /** Files the last cycle held back as still being written, and the wait for them to settle (settle.ts). */
  settling: readonly string[];
  settled: Promise<void> | null;
}

const DEFAULT_POLL_MS = 30_000;

/** Whether two set-ups of one workspace sync the same folder with the same exclusions. */
function sameSetup(a: EngineWorkspace, b: EngineWorkspace): boolean {
  const excluded = (w: EngineWorkspace): string => JSON.stringify([...(w.excluded ?? [])].sort());
  return a.folder === b.folder && excluded(a) === excluded(b);
}

/** A workspace id the service does not know (or refuses) names itself: with several, which one? */
function unknownWorkspace(id: string, error: unknown): unknown {
  if (!isServiceError(error) || (error.kind !== 'not_found' && error.kind !== 'client' && error.status !== 400 && error.status !== 404)) return error;
  return new ServiceError({
    kind: 'not_found',
    code: 'unknown_workspace',
    message: `the workspace ${id} does not exist in this account (\`asset-sync workspaces\` lists those you can sync)`,
    ...(error.status !== undefined ? { status: error.status } : {}),
    request: error.request,
    cause: error,
  });
}

/** Actions of a cycle that failed, or waited out their backoff without being tried. */
const failedOrWaiting = (r: ExecutionResult): number => r.failed.length + r.backedOff;

/** The cycle had work, all of it failing (now or before): another cycle at once would not help. */
function onlyFailures(outcome: CycleOutcome): boolean {
  const r = outcome.result;
  return r !== null && outcome.waiting.length === 0 && failedOrWaiting(r) > 0 && failedOrWaiting(r) === outcome.work;
}
/** What a cycle's place holds while something else runs in it (`exclusive`). */
const IDLE_CYCLE: CycleOutcome = { blocked: null, plan: null, result: null, waiting: [], work: 0 };

/** Activity lines wait at most this long to be stored. */
const ACTIVITY_FLUSH_MS = 250;

export class SyncEngine extends EventEmitter<EngineEvents> {
  readonly queue: TransferQueue;
  private readonly runtimes = new Map<string, WorkspaceRuntime>();
  private readonly abort = new AbortController();
  /** Asks the service for changes: every 2 s while someone looks or transfers run (poll-cadence.ts). */
  private readonly changesTimer: PollTimer;
  /** Asks for review and change requests, at the same cadence while someone looks. */
  private readonly reviewsTimer: PollTimer;
  /** The app's window or the web UI is open. */
  private watched = false;
  private lastTransferAt: number | null = null;
  /** Change polls and review polls that failed in a row. */
  private changeFailures = 0;
  private reviewFailures = 0;
  private pendingActivity: ActivityInput[] = [];
  private activityFlush: NodeJS.Timeout | undefined;
  private pausedFlag = false;
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
    this.changesTimer = new PollTimer(() => this.changesDelay(), () => this.pollChanges());
    this.reviewsTimer = new PollTimer(
      () => nextPollDelay({ feed: true, watched: this.watched, lastTransferAt: null, now: Date.now(), intervalMs: this.pollMs, failures: this.reviewFailures }),
      async () => void (await this.pollReviews()),
    );
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
    // The scan and the large downloads' hashing run on the file-system workers: they boot (tens
    // of ms) while the service answers, not when the first scan waits for them.
    fsWorkers().warm();
    const user = await asked;
    this.selfUserId = user.id ?? '';
    const added: WorkspaceRuntime[] = [];
    for (const spec of this.specs) added.push(await this.setUp(spec));
    for (const runtime of added) await this.recover(runtime);
    this.initialized = true;
    this.emitStatus();
  }

  /** Where the workspace goes and what it syncs, recorded in the index; not started. */
  private async setUp(spec: EngineWorkspace): Promise<WorkspaceRuntime> {
    const { client, index, root } = this.options;
    const stop = new AbortController();
    const signal = AbortSignal.any([this.abort.signal, stop.signal]);
    setMaxListeners(0, signal);
    const remote = await client.getWorkspace(spec.id, { signal }).catch((error: unknown) => {
      throw unknownWorkspace(spec.id, error);
    });
    const folderName = sanitizeName(spec.folder ?? remote.name);
    const target: WorkspaceTarget = { id: spec.id, name: remote.name, dir: join(root, folderName), excluded: spec.excluded ?? [] };
    const known = index.workspaces.get(spec.id);
    if (!known) index.workspaces.add({ id: spec.id, accountId: this.options.accountId, name: remote.name, localPath: target.dir, excludedPaths: [...target.excluded] });
    else index.workspaces.update(spec.id, { name: remote.name, localPath: target.dir, excludedPaths: [...target.excluded] });
    const runtime: WorkspaceRuntime = {
      spec: { ...spec, excluded: [...(spec.excluded ?? [])] },
      stop,
      signal,
      sync: new WorkspaceSync(target, {
        index,
        client,
        queue: this.queue,
        logger: this.options.logger.child({ workspace: spec.id }),
        deviceName: this.options.deviceName,
        selfUserId: this.selfUserId,
        quietMs: this.quietMs,
        ...(this.options.fullListingIntervalMs !== undefined ? { fullListingIntervalMs: this.options.fullListingIntervalMs } : {}),
        onPhase: (phase) => this.setPhase(spec.id, phase),
        onPlanned: (actions) => this.planned(spec.id, actions),
        onDone: (action) => this.countDown(spec.id, action),
        recentDeletes: () => this.recentDeletes(spec.id),
        onProblem: (problem) => this.addProblem(spec.id, problem),
        onActivity: (item) => this.activity(item),
        suppress: (rel, stamp) => this.runtimes.get(spec.id)?.watcher?.suppress(rel, 3000, stamp),
      }),
      phase: 'starting',
      running: null,
      again: false,
      last: null,
      lastSyncAt: null,
      cycleProblems: [],
      watcher: null,
      files: null,
      feed: 'unknown',
      lastCycleAt: null,
      probedFrom: null,
      settling: [],
      settled: null,
      recentDeletes: new RecentDeletes(index, spec.id),
      pausedChanges: new PausedChanges({ dir: target.dir, base: (rel) => index.base.getFile(spec.id, rel), excluded: target.excluded }),
      writing: new WritingFiles(),
    };
    this.runtimes.set(spec.id, runtime);
    return runtime;
  }

  /** Finishes the transfers a crash (or a stop) left in the workspace's journal. */
  private async recover(runtime: WorkspaceRuntime): Promise<void> {
    const { client, index } = this.options;
    await recoverJournal({
      workspaceId: runtime.sync.target.id,
      root: runtime.sync.target.dir,
      index,
      client,
      queue: this.queue,
      folderIds: new Map(),
      logger: this.options.logger,
      signal: runtime.signal,
    }).catch((error: unknown) => this.options.logger.warn({ err: error }, 'journal recovery failed; the next cycle re-plans'));
    runtime.files = null;
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
    await runtime.watcher?.close();
    runtime.watcher = null;
    await runtime.running?.catch(() => undefined);
    this.flushActivity();
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

  /** Converges every workspace: cycles until nothing is left to do (or `maxRounds`), then reports. */
  async syncOnce(options: { maxRounds?: number; allowMassDelete?: boolean } = {}): Promise<SyncReport> {
    const report: SyncReport = { workspaces: [], ok: true };
    for (const [id, runtime] of this.runtimes) {
      const totals = { workspaceId: id, downloaded: 0, uploaded: 0, deleted: 0, moved: 0, conflicts: 0, failed: 0, problems: [] as Problem[] };
      // Asked for now: what failed before is tried again at once, and only then backs off.
      this.options.index.errors.makeDue(id);
      for (let round = 0; round < (options.maxRounds ?? 8); round += 1) {
        const outcome = await this.runCycle(id, options.allowMassDelete ?? false);
        const r = outcome.result;
        if (r) {
          totals.downloaded += r.downloaded;
          totals.uploaded += r.uploaded;
          totals.deleted += r.deleted;
          totals.moved += r.moved;
          totals.conflicts += r.conflicts;
          totals.failed = r.failed.length;
        }
        if (outcome.blocked) break;
        if (outcome.work === 0 && outcome.waiting.length === 0) break;
        // Files still being written and nothing else moving forward (what is left waits for a
        // lock, a retry or themselves): give them the quiet period.
        const stalled = !r || r.uploaded + r.downloaded + r.deleted + r.moved === 0;
        if (outcome.waiting.length > 0 && stalled) await delay(this.quietMs, this.abort.signal);
        // Only failures left: more rounds would fail the same way. A file still being written is
        // not among them: it gets its quiet period above and is uploaded in a later round.
        if (onlyFailures(outcome)) break;
      }
      // A file that never stopped changing is not an error, but it was not synced: say so.
      const stillWritten = (runtime.last?.waiting ?? []).map((path): Problem => ({
        workspaceId: id,
        path,
        kind: 'unstable',
        message: `"${path}" was still being written, so it was not uploaded yet.`,
        hint: 'Asset Sync uploads it once it has not changed for a moment: sync again when the program writing it is done.',
      }));
      totals.problems = [...this.workspaceStatus(runtime).problems, ...stillWritten];
      // Out of rounds with work still planned (actions deferred again and again) is no convergence.
      const settled = runtime.last !== null && runtime.last.work === 0 && runtime.last.waiting.length === 0;
      // A conflict is listed for the user, but it is no failure: both versions are kept and synced.
      const problems = totals.problems.filter((p) => p.kind !== 'conflict' && !isNotice(p));
      if (problems.length > 0 || totals.failed > 0 || runtime.last?.blocked || !settled) report.ok = false;
      report.workspaces.push(totals);
    }
    return report;
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
    this.changesTimer.start({ now: false });
    this.reviewsTimer.start({ now: true });
  }

  private rescheduleTimers(): void {
    this.changesTimer.reschedule();
    this.reviewsTimer.reschedule();
  }

  private stopTimers(): void {
    this.changesTimer.stop();
    this.reviewsTimer.stop();
  }

  /** Until the next change poll: the cadence, but no later than a workspace's cycle is due. */
  private changesDelay(): number {
    const now = Date.now();
    const feed = [...this.runtimes.values()].every((r) => r.feed !== 'no');
    const cadence = nextPollDelay({ feed, watched: this.watched, lastTransferAt: this.lastTransferAt, now, intervalMs: this.pollMs, failures: this.changeFailures });
    const due = Math.min(...[...this.runtimes.values()].map((r) => (r.lastCycleAt ?? now) + this.pollMs - now));
    return Math.max(0, Math.min(cadence, due));
  }

  /**
   * One change poll. A workspace whose last cycle is an interval old gets a cycle (which lists
   * or follows the feed, and rescans the folder behind the watcher); the others get a probe of
   * the feed, one small request, and a cycle only if the service changed.
   */
  private async pollChanges(): Promise<void> {
    if (this.pausedFlag) return;
    const now = Date.now();
    await Promise.all(
      [...this.runtimes.entries()].map(async ([id, runtime]) => {
        if (runtime.signal.aborted) return;
        if (runtime.lastCycleAt === null || now - runtime.lastCycleAt >= this.pollMs) {
          this.trigger(id);
          // Without the feed, it is asked again at each of these polls: a service may gain it.
          if (runtime.feed === 'no') await this.probe(id, runtime, { triggers: false });
          return;
        }
        if (runtime.running || runtime.again) return;
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
      cursor = this.options.index.workspaces.get(id)?.sequence ?? null;
      if (cursor === null) return;
      answer = await probeChanges(this.options.client, id, cursor, runtime.signal);
      this.changeFailures = 0;
    } catch (error) {
      if (runtime.signal.aborted) return;
      this.changeFailures += 1;
      this.options.logger.debug({ err: error, failures: this.changeFailures }, 'asking for changes failed; asking again later');
      return;
    }
    const feed = answer === 'no-feed' ? 'no' : 'yes';
    if (feed !== runtime.feed) {
      const told = runtime.feed === 'no' || feed === 'no';
      runtime.feed = feed;
      if (feed === 'no') this.options.logger.info({ workspaceId: id }, 'the service has no changes feed: changes are asked for at the poll interval, by a full listing');
      if (told) this.emitStatus();
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

  /** Runs a cycle now (or right after the running one). */
  trigger(workspaceId: string): void {
    const runtime = this.runtimes.get(workspaceId);
    if (!runtime || this.pausedFlag || runtime.signal.aborted) return;
    if (runtime.running) {
      runtime.again = true;
      return;
    }
    const allowMassDelete = runtime.deletionsAllowed === true;
    runtime.deletionsAllowed = false;
    void this.runCycle(workspaceId, allowMassDelete).then(async (outcome) => {
      // Dropped or set up anew meanwhile: this runtime's work is over.
      if (this.runtimes.get(workspaceId) !== runtime) return;
      if (outcome.work > 0) this.noteTransfer();
      // The first cycle may have made the workspace folder: watch it now, and look once more
      // for what changed before the watcher saw anything.
      if (await this.watch(workspaceId)) runtime.again = true;
      // Whether the service has the feed decides the cadence: learnt once the first cycle stored a cursor.
      if (runtime.feed === 'unknown' && this.started) void this.probe(workspaceId, runtime, { triggers: false });
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

  /** How long a file must be left alone before it is uploaded. */
  private get quietMs(): number {
    return this.options.quietMs ?? DEFAULT_QUIET_MS;
  }

  /**
   * Runs a cycle once the files held back as still being written have settled (settle.ts): a
   * save goes up a quiet period after its last write, not a quiet period after the cycle that
   * saw it. One wait per workspace, following the files the latest cycle held back.
   */
  private settle(workspaceId: string, runtime: WorkspaceRuntime, waiting: readonly string[]): void {
    runtime.settling = waiting;
    if (runtime.settled) return;
    runtime.settled = untilSettled({
      dir: runtime.sync.target.dir,
      paths: () => runtime.settling,
      quietMs: this.quietMs,
      // A file written for longer is looked at again by the cycles the watcher starts.
      limitMs: 10 * this.quietMs,
      signal: runtime.signal,
    })
      .catch((error: unknown) => this.options.logger.debug({ err: error }, 'could not look at the files being written; the next cycle does'))
      .finally(() => {
        runtime.settled = null;
        this.trigger(workspaceId);
      });
  }

  /**
   * The user confirms the deletions the mass-delete brake held back: the next
   * cycle carries them out, and the brake guards every cycle after it again.
   */
  allowDeletionsOnce(workspaceId: string): void {
    const runtime = this.runtimes.get(workspaceId);
    if (!runtime) throw new Error(`unknown workspace ${workspaceId}`);
    runtime.deletionsAllowed = true;
    // Confirmed: what went before is part of what the user agreed to.
    runtime.recentDeletes.clear();
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
    while (runtime.running) await runtime.running.catch(() => undefined);
    const running = task();
    runtime.running = running.then(
      () => IDLE_CYCLE,
      () => IDLE_CYCLE,
    );
    try {
      return await running;
    } finally {
      runtime.running = null;
      this.flushActivity();
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
      suppress: (rel, stamp) => runtime.watcher?.suppress(rel, 3000, stamp),
      onActivity: (item) => this.activity(item),
    };
  }

  /** When the first failing path of the workspace is due again, no later than the next poll. */
  private nextRetryAt(workspaceId: string): number | null {
    const due = Math.min(...this.options.index.errors.notYetDue(workspaceId).values());
    if (!Number.isFinite(due)) return null;
    return Math.min(due, Date.now() + this.pollMs);
  }

  /**
   * Starts watching the workspace folder once it exists; true when it started now. chokidar
   * told nothing of a tree made under a path it began to watch before the path existed, so a
   * first start (the first cycle makes the folder) had no watcher until the app restarted.
   */
  private async watch(workspaceId: string): Promise<boolean> {
    const runtime = this.runtimes.get(workspaceId);
    if (!runtime || runtime.watching || !this.started || runtime.signal.aborted) return false;
    const dir = runtime.sync.target.dir;
    const folder = lstatSync(dir, { throwIfNoEntry: false });
    const present = folder?.isDirectory() === true;
    if (runtime.watcher) {
      if (present && folder?.ino === runtime.watchedInode) return false;
      // The folder went away or was made anew (a drive unmounted, a folder moved back): the
      // watcher went with the old one.
      void runtime.watcher.close();
      runtime.watcher = null;
    }
    if (!present) return false;
    runtime.watching = true;
    try {
      const ignore = await loadIgnoreMatcher(dir);
      if (runtime.signal.aborted) return false;
      runtime.watcher = watchTree(dir, {
        ignore,
        debounceMs: this.options.debounceMs ?? 500,
        onChanges: (paths) => {
          if ([...paths].some((p) => p === IGNORE_FILE_NAME)) runtime.sync.reloadIgnore();
          // Paused: nothing syncs, but the status counts what waits ("Paused · 3 changes waiting").
          if (this.pausedFlag) {
            if (runtime.pausedChanges.note(paths, ignore)) this.emitStatus();
            return;
          }
          this.trigger(workspaceId);
        },
        onError: (error) => this.options.logger.warn({ err: error }, 'watcher error; the periodic rescan covers it'),
      });
      runtime.watchedInode = folder?.ino;
      return true;
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not watch the workspace folder; the periodic rescan covers it');
      return false;
    } finally {
      runtime.watching = false;
    }
  }

  async pollReviews(): Promise<ReviewNotification[]> {
    try {
      const fresh = await pollReviews(this.options.client, this.options.index, this.abort.signal);
      this.reviewFailures = 0;
      for (const item of fresh) this.emit('review', item);
      return fresh;
    } catch (error) {
      this.reviewFailures += 1;
      if (!this.abort.signal.aborted) this.options.logger.warn({ err: error }, 'review poll failed; retrying at the next poll');
      return [];
    }
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
      await r.watcher?.close();
      await r.running?.catch(() => undefined);
    }));
    for (const r of this.runtimes.values()) r.phase = 'stopped';
    this.flushActivity();
    this.emitStatus();
  }

  private async runCycle(workspaceId: string, allowMassDelete: boolean): Promise<CycleOutcome> {
    const runtime = this.runtimes.get(workspaceId);
    if (!runtime) throw new Error(`unknown workspace ${workspaceId}`);
    while (runtime.running) await runtime.running.catch(() => undefined);
    const problems: Problem[] = [];
    runtime.cycleProblems = problems;
    runtime.lastCycleAt = Date.now();
    runtime.deletionsConfirmed = allowMassDelete;
    const run = runtime.sync.cycle({ allowMassDelete, signal: runtime.signal }).catch(
      (error: unknown): CycleOutcome => ({
        blocked: { workspaceId, path: null, kind: 'error', message: `Sync stopped unexpectedly: ${(error as Error).message}` },
        plan: null,
        result: null,
        waiting: [],
        work: 0,
      }),
    );
    runtime.running = run;
    const outcome = await run;
    runtime.running = null;
    // Only the executor writes base rows: a cycle that planned and found nothing to carry out
    // changed none. One that acted, or broke off without a plan (perhaps mid-way), is counted again.
    if (outcome.result !== null || outcome.plan === null) runtime.files = null;
    this.flushActivity();
    if (outcome.blocked) problems.push(outcome.blocked);
    runtime.last = outcome;
    for (const item of runtime.writing.update(workspaceId, outcome.waiting, new Date())) this.activity(item);
    runtime.phase = 'up-to-date';
    if (!outcome.blocked) runtime.lastSyncAt = new Date().toISOString();
    this.emitStatus();
    return outcome;
  }

  private workspaceStatus(runtime: WorkspaceRuntime): WorkspaceStatus {
    const target = runtime.sync.target;
    const notices = runtime.feed === 'no' ? [noFeedNotice(target.id, this.pollMs)] : [];
    const problems = problemsFrom(this.options.index.errors.list(target.id), [...runtime.cycleProblems, ...notices]);
    const last = runtime.last;
    // Pending: the last cycle did work (its effects are unconfirmed), files wait, or one runs now.
    const pending = runtime.running !== null || !last || last.work > 0 || last.waiting.length > 0 || runtime.again;
    const phase = this.abort.signal.aborted ? 'stopped' : this.pausedFlag ? 'paused' : runtime.running ? runtime.phase : last ? 'up-to-date' : runtime.phase;
    return {
      workspaceId: target.id,
      name: target.name,
      folder: target.dir,
      state: workspaceState(phase, pending, problems),
      pending: runtime.pending ?? NOTHING_PENDING,
      pausedChanges: this.pausedFlag ? runtime.pausedChanges.count : 0,
      files: (runtime.files ??= this.options.index.base.countFiles(target.id)),
      lastSyncAt: runtime.lastSyncAt,
      problems,
      ...(runtime.writing.shown().length > 0 ? { writing: runtime.writing.shown() } : {}),
    };
  }

  private planned(workspaceId: string, actions: readonly Action[]): void {
    const runtime = this.runtimes.get(workspaceId);
    if (runtime) runtime.pending = pendingOf(actions);
  }

  private countDown(workspaceId: string, action: Action): void {
    const runtime = this.runtimes.get(workspaceId);
    const key = pendingKey(action.kind);
    if (runtime?.pending && key && runtime.pending[key] > 0) runtime.pending[key] -= 1;
    if (!runtime || runtime.deletionsConfirmed) return;
    if (action.kind === 'delete-remote') runtime.recentDeletes.record('remote');
    if (action.kind === 'delete-local') runtime.recentDeletes.record('local');
  }

  /** File deletions carried out on each side within RECENT_DELETES_MS, for the mass-delete brake. */
  private recentDeletes(workspaceId: string): { local: number; remote: number } {
    return this.runtimes.get(workspaceId)?.recentDeletes.counts() ?? { local: 0, remote: 0 };
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

  /**
   * Activity is shown at once (the event) and stored in batches: one transaction per line was a
   * twentieth of a small file's download time. A crash loses at most the last moment's lines of
   * the log, never sync state.
   */
  private activity(item: ActivityItem): void {
    if (this.repeats(item)) return;
    this.pendingActivity.push(activityInput(item));
    this.activityFlush ??= setTimeout(() => this.flushActivity(), ACTIVITY_FLUSH_MS);
    this.emit('activity', item);
  }

  /** What each path's last activity line said, to tell a repeat (`repeats`). */
  private readonly lastLines = new Map<string, string>();

  /**
   * A path held by a lock, or failing the same way, says so once, not at every cycle or retry:
   * the repeats pushed the history out of the 50 lines the app shows within minutes.
   */
  private repeats(item: ActivityItem): boolean {
    if (item.path === null) return false;
    const key = `${item.workspaceId ?? ''}\0${item.path}`;
    const line = `${item.kind}\0${item.message}`;
    const repeated = (item.kind === 'locked' || item.kind === 'error') && this.lastLines.get(key) === line;
    if (this.lastLines.size >= 10_000) this.lastLines.clear();
    this.lastLines.set(key, line);
    return repeated;
  }

  private flushActivity(): void {
    if (this.activityFlush !== undefined) clearTimeout(this.activityFlush);
    this.activityFlush = undefined;
    if (this.pendingActivity.length === 0) return;
    const entries = this.pendingActivity;
    this.pendingActivity = [];
    this.options.index.activity.addMany(entries);
  }

  private emitStatus(): void {
    this.emit('status', this.status());
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
