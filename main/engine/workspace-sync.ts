/**
 * One workspace's sync cycle: check the folder is really ours, learn what the service has,
 * look at the disk, plan, and carry out the plan. Every step that can fail for the whole
 * workspace (marker, listing, scan) stops the cycle with a problem; a failing path does not.
 */
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Problem, SyncState } from '../../shared/engine.js';
import type { SyncIndex } from '../index/sync-index.js';
import { loadIgnoreMatcher, type IgnoreMatcher } from '../local/ignore.js';
import type { FileStamp } from '../local/stamp.js';
import { checkMarker, newMarker, writeMarker } from '../local/marker.js';
import { pathKey } from '../local/paths.js';
import { scanTree, scanUnlessUnchanged, type ScanResult } from '../local/scanner.js';
import type { Logger } from '../logging.js';
import type { ServiceClient } from '../service-client/index.js';
import { isServiceError } from '../service-client/service-error.js';
import { hashingAlgorithm, keptChecksumForm, unknownChecksums, checksumFormSetting } from './checksum-form.js';
import { executePlan, ownCopies, removeLeftoverTemps, retryOfflineNow, stillOpen, tidyBeforePlan, type ExecutionResult, type ExecutorDeps } from '../sync/executor/index.js';
import type { Action } from '../sync/actions.js';
import { plan, type Plan } from '../sync/planner/plan.js';
import type { TransferQueue } from '../sync/transfer-queue.js';
import { holdBack, localView, notIgnored, standAside } from './local-view.js';
import { notSyncedSetting, skippedProblems, storeNotSynced } from './skipped.js';
import { holderAt, holderNames, lockHolders } from './lock-holders.js';
import { foreignLocks, guardLockedFiles } from './locked-files.js';
import { recentDeletesSetting } from './recent-deletes.js';
import type { PlacedRemoteTree } from './remote-tree.js';
import { RemoteMirror } from './remote-mirror.js';
import { scanFingerprint, stillQuiet, stillQuietByStamps, type QuietCycle } from './quiet-cycle.js';
import { keepQuietRecord, quietContext, quietRecord, type QuietRecord } from './quiet-start.js';
import { FULL_RESCAN_INTERVAL_MS, markBeforeScan, unchangedSince, type ScanMark } from './scan-trust.js';
import type { TreeWatcher } from '../local/watcher.js';
import type { HashAlgorithm } from '../local/checksum.js';

export interface WorkspaceTarget {
  id: string;
  name: string;
  /** Absolute path of the workspace's folder under the sync root. */
  dir: string;
  excluded: readonly string[];
}

export interface WorkspaceSyncDeps {
  index: SyncIndex;
  client: ServiceClient;
  queue: TransferQueue;
  logger: Logger;
  deviceName: string;
  selfUserId: string;
  /** How long a file must be left alone before it is uploaded (Nextcloud waits 2 s). */
  quietMs: number;
  /** How long the remote tree is kept up by the changes feed alone (remote-mirror.ts). */
  fullListingIntervalMs?: number;
  onPhase: (phase: SyncState) => void;
  /** The actions this cycle is about to carry out (none: nothing to do); `onDone` as each completes. */
  onPlanned?: (actions: readonly Action[]) => void;
  onDone?: ExecutorDeps['onDone'];
  /** Files deleted on each side by recent cycles, for the mass-delete brake. */
  recentDeletes?: () => { local: number; remote: number };
  onProblem: (problem: Problem) => void;
  onActivity: ExecutorDeps['onActivity'];
  suppress?: (relPath: string, stamp?: FileStamp) => void;
  /** The workspace folder's watcher, once it runs: while it sees nothing, quiet cycles do not scan (scan-trust.ts). */
  watcher?: () => TreeWatcher | null;
  /** How long the watcher alone may vouch for the folder before a cycle walks it again (scan-trust.ts). */
  fullRescanIntervalMs?: number;
}

export interface CycleOutcome {
  /** The cycle could not run (marker, listing or scan failure): the problem says why. */
  blocked: Problem | null;
  plan: Plan | null;
  result: ExecutionResult | null;
  /** Files still being written: the next cycle looks at them again. */
  waiting: string[];
  /** Actions that move bytes or change either side (not base bookkeeping). */
  work: number;
}

/** The index setting holding the id of the marker written into the workspace's folder. */
const markerSetting = (workspaceId: string): string => `marker:${workspaceId}`;

/**
 * Forgets everything this device synced of a workspace: its base, hash cache, journal, cursor
 * and the marker it expects. The next cycle then treats the folder as never synced: it merges
 * the folder with the service by checksum and deletes nothing on either side, which is what a
 * user who vouches for a folder whose marker is gone needs (Syncthing asks them to recreate
 * `.stfolder` by hand).
 */
export function forgetSyncedState(index: SyncIndex, workspaceId: string): boolean {
  return index.transaction(() => {
    const known = index.workspaces.get(workspaceId) !== undefined;
    index.workspaces.remove(workspaceId);
    index.settings.delete(markerSetting(workspaceId));
    // A workspace reset or removed starts its mass-delete window afresh, like its base.
    index.settings.delete(recentDeletesSetting(workspaceId));
    index.settings.delete(notSyncedSetting(workspaceId));
    index.settings.delete(checksumFormSetting(workspaceId));
    return known;
  });
}

/** A scan of the workspace folder, with the watcher's mark taken as it began. */
interface FolderScan {
  scan: ScanResult;
  localMark: ScanMark | null;
  algorithm: HashAlgorithm;
}

/** The scan a quiet start made, for the full cycle; whether it told already that the service's checksums are in an unknown form. */
type StartScan = FolderScan & { formTold: boolean };

const BOOKKEEPING = new Set(['record-base', 'forget-base', 'record-folder-base', 'forget-folder-base', 'locked']);

export class WorkspaceSync {
  /** The service's tree, kept between cycles. */
  private readonly remote: RemoteMirror;
  private ignore: IgnoreMatcher | null = null;
  /** The last cycle planned nothing: what it saw (quiet-cycle.ts). */
  private quiet: QuietCycle | null = null;
  /** This process replayed the index's quiet record (quiet-start.ts), at this write count, from a scan begun at `local`. */
  private replayedRecord: { writes: number; local: ScanMark | null } | null = null;
  /** A walk of this process removed the temp files a killed one left (`removeLeftoverTemps`). */
  private leftoversRemoved = false;

  constructor(
    readonly target: WorkspaceTarget,
    private readonly deps: WorkspaceSyncDeps,
  ) {
    this.remote = new RemoteMirror(target, deps);
  }

  /** Forget the cached ignore rules (the watcher saw `.assetsyncignore` change). */
  reloadIgnore(): void {
    this.ignore = null;
    this.quiet = null;
    this.replayedRecord = null;
  }

  async cycle(options: { allowMassDelete?: boolean; signal?: AbortSignal } = {}): Promise<CycleOutcome> {
    const { index, logger } = this.deps;
    const ws = this.target;
    const idle: CycleOutcome = { blocked: null, plan: null, result: null, waiting: [], work: 0 };

    // Asked once: the base does not change before the plan runs.
    const hasBase = index.base.hasFiles(ws.id);
    const markerProblem = await this.ensureMarker(hasBase);
    if (markerProblem) return { ...idle, blocked: markerProblem };

    this.deps.onPhase('listing');
    const started = await this.quietStart(hasBase, options.signal);
    if (started !== null && 'outcome' in started) return started.outcome;
    let remote: PlacedRemoteTree;
    try {
      remote = await this.remote.placedTree(options.signal);
    } catch (error) {
      return { ...idle, blocked: this.listingProblem(error) };
    }

    // The service answered the listing: what failed only because it could not be reached is
    // tried again now, not after a backoff that grew during the outage.
    retryOfflineNow(index, ws.id);

    const form = keptChecksumForm(index, ws.id);
    if (form === null && !started?.formTold) this.deps.onProblem(unknownChecksums(ws.id));
    const watcher = this.deps.watcher?.() ?? null;
    const quietBefore = this.quiet;
    if (quietBefore !== null && quietBefore.remote === remote && quietBefore.index === index.writeMark() && this.watcherVouches(quietBefore.local, watcher)) {
      return this.replayQuiet(quietBefore, remote, options.signal);
    }

    this.deps.onPhase('scanning');
    // One matcher for the whole cycle: the watcher may drop the cached one meanwhile.
    const ignore = (this.ignore ??= await loadIgnoreMatcher(ws.dir));
    const algorithm = hashingAlgorithm(form);
    // After a quiet cycle, the walk asks the hash cache nothing unless its stamps differ.
    const sameStamps = (stamps: string): QuietCycle | undefined => {
      const memo = this.quiet;
      return stillQuietByStamps(memo, remote, stamps, index.writeMark()) ? memo : undefined;
    };
    // The scan made on the way to the quiet record serves, unless the listing changed how files are hashed.
    const scanned =
      started?.algorithm === algorithm ? started : await this.scanFolder(hasBase, ignore, algorithm, watcher, remote, options.signal, quietBefore?.stamps ? sameStamps : undefined);
    if ('blocked' in scanned) return { ...idle, blocked: scanned.blocked };
    if ('unchanged' in scanned) return this.replayQuiet({ ...scanned.unchanged, local: scanned.localMark }, remote, options.signal);
    const { scan, localMark } = scanned;
    const scanPrint = scanFingerprint(scan);
    const quiet = this.quiet;
    this.quiet = null;
    if (stillQuiet(quiet, remote, scanPrint, index.writeMark())) return this.replayQuiet({ ...quiet, local: localMark }, remote, options.signal);
    const told: Problem[] = [];
    const onProblem = (problem: Problem): void => {
      told.push(problem);
      this.deps.onProblem(problem);
    };
    // Left alone on both sides: the scanner never reports an ignored path (see notIgnored).
    const base = notIgnored(index.base.load(ws.id, { remote: remote.files, local: scan.files }), ignore, scan);
    const remoteView = notIgnored(remote, ignore, scan);
    const excludedKeys = new Set(ws.excluded.map((p) => pathKey(p)));
    const local = localView(scan, base.files, { nowMs: Date.now(), quietMs: this.deps.quietMs, excludedKeys }, base.folders);
    for (const path of local.waiting) logger.debug({ path }, 'waiting for the file to stop changing');
    const notSynced = skippedProblems(ws.id, scan.skipped, excludedKeys, local.held);
    storeNotSynced(index, ws.id, notSynced);
    for (const problem of notSynced) onProblem(problem);
    for (const problem of stillOpen(index, ws.id, scan.files)) onProblem(problem);
    let baseFiles = base.files;
    if (remote.held.incomplete) {
      const listed = new Set([...remote.files.values()].map((file) => file.assetId));
      for (const synced of baseFiles.values()) if (!listed.has(synced.assetId)) remote.held.assetIds.add(synced.assetId);
    }
    if (remote.held.assetIds.size > 0 || remote.held.pathKeys.size > 0 || remote.held.incomplete) {
      baseFiles = standAside(remote.held.assetIds, baseFiles, local.files, remote.held.pathKeys);
      onProblem(this.remote.unreadableProblem());
    }
    if (remote.unplaced.size > 0) {
      baseFiles = standAside(remote.unplaced, baseFiles, local.files);
      onProblem({
        workspaceId: ws.id,
        path: null,
        kind: 'error',
        message: `The service listed ${remote.unplaced.size} file(s) in folders it does not list, or too deep to place on this computer. They were left as they are.`,
        hint: 'The next sync looks again; if this stays, the service needs a look.',
      });
    }
    const settled = holdBack(
      local.waiting,
      { base: baseFiles, remote: remoteView.files },
      { base: base.folders, remote: remoteView.folders },
      local.waitingInodes,
    );

    // Paths whose last failure waits out its backoff: asked once, for the planner (their folder
    // moves wait) and the executor (their actions wait).
    const notYetDue = index.errors.notYetDue(ws.id);
    const decided = plan({
      files: { local: local.files, base: settled.base, remote: settled.remote },
      folders: { local: local.folders, base: settled.baseFolders, remote: remoteView.folders },
      selfUserId: this.deps.selfUserId,
      deviceName: this.deps.deviceName,
      now: new Date(),
      ...(options.allowMassDelete ? { allowMassDelete: true } : {}),
      ...(this.deps.recentDeletes ? { recentDeletes: this.deps.recentDeletes() } : {}),
      failing: new Set(notYetDue.keys()),
      ownCopies: ownCopies(index, ws.id),
    });
    if (!decided.movesFirst) {
      await tidyBeforePlan({ index, workspaceId: ws.id, root: ws.dir }, { actions: decided.actions, held: decided.brake?.held ?? [] }, local.waiting);
    }
    const actions = decided.actions;
    if (decided.brake) {
      onProblem({
        workspaceId: ws.id,
        path: null,
        kind: 'brake',
        message: decided.brake.reason,
        hint: 'If they are intended, confirm them ("Delete on the service" in the app, or `asset-sync sync --allow-mass-delete`); if not, put the files back and nothing is deleted.',
      });
    }
    const work = actions.filter((a) => !BOOKKEEPING.has(a.kind)).length;
    this.deps.onPlanned?.(actions);
    if (actions.length === 0) {
      await this.guardLocks(remote, actions, options.signal);
      // A plan the brake emptied is not quiet: a confirmation would give it its deletions.
      const clean = decided.brake === null && local.waiting.length === 0 && notYetDue.size === 0 && !remote.held.incomplete && remote.held.assetIds.size + remote.held.pathKeys.size + remote.unplaced.size === 0;
      if (clean) {
        // Kept first: the in-process memo's mark counts this write too.
        if (foreignLocks(remote.files.values(), this.deps.selfUserId).length === 0) {
          keepQuietRecord(index, ws.id, { context: this.quietContext(ignore.rulesText), scan: scanPrint, stamps: scan.stamps, plan: decided, problems: told });
        }
        this.quiet = { remote, scan: scanPrint, stamps: scan.stamps, local: localMark, index: index.writeMark(), plan: decided, problems: told };
      }
      return { ...idle, plan: decided, waiting: local.waiting };
    }

    // Locks are reported with their holder's name, asked once per cycle that runs into one.
    const holders = lockHolders(actions, remote.files, this.deps.selfUserId);
    const names = await holderNames(this.deps.client, ws.id, holders, logger, options.signal);

    this.deps.onPhase('syncing');
    const result = await executePlan(actions, {
      workspaceId: ws.id,
      root: ws.dir,
      index,
      client: this.deps.client,
      queue: this.deps.queue,
      folderIds: new Map(remote.folderIds),
      deviceName: this.deps.deviceName,
      logger,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(this.deps.suppress ? { suppress: this.deps.suppress } : {}),
      ...(this.deps.onActivity ? { onActivity: this.deps.onActivity } : {}),
      onProblem: this.deps.onProblem,
      lockHolder: holderAt(holders, names),
      selfUserId: this.deps.selfUserId,
      backoff: notYetDue,
      algorithm,
      ...(this.deps.onDone ? { onDone: this.deps.onDone } : {}),
    });
    await this.guardLocks(remote, actions, options.signal);
    return { blocked: null, plan: decided, result, waiting: local.waiting, work };
  }

  /**
   * The index's quiet record, when this process holds no tree and nothing changed since it was
   * kept (quiet-start.ts): its replay, or the scan made to find out, for the full cycle to use.
   * Null when the record cannot be used (the cycle then goes as it always does).
   *
   * The changes feed is asked before the walk and answers while it runs: a fresh process waits
   * for the slower of the two, not for both. The walk trusts the record's stamps only once the
   * feed has said that nothing changed; otherwise it completes its scan, which the full cycle
   * then uses, so a change on the service costs no second walk.
   */
  private async quietStart(hasBase: boolean, signal: AbortSignal | undefined): Promise<{ outcome: CycleOutcome } | StartScan | null> {
    const { index } = this.deps;
    const ws = this.target;
    if (this.quiet !== null) return null;
    // The cycle's matcher, read here once: the full cycle takes it from the cache.
    const ignore = (this.ignore ??= await loadIgnoreMatcher(ws.dir));
    const kept = quietRecord(index, ws.id, this.quietContext(ignore.rulesText));
    const asked = kept === null ? null : this.remote.storedTreeCurrent(signal);
    if (kept === null || asked === null) return null;
    let current: boolean | undefined;
    const answered = asked.then((answer) => (current = answer));
    const watcher = this.deps.watcher?.() ?? null;
    const unchanged = (): boolean => index.quietCycles.writeCount() === kept.writes;
    const replayed = this.replayedRecord;
    const byWatcher = (): boolean => replayed?.writes === kept.writes && unchanged() && this.watcherVouches(replayed.local, watcher);
    let told = false;
    // A running engine that replayed this record: while its watcher vouches for the folder, the feed alone decides.
    if (replayed !== null && byWatcher()) {
      if (!(await answered)) return null;
      this.serviceAnswered();
      told = true;
      if (byWatcher()) return { outcome: this.replayRecord(kept, replayed.local) };
    }
    this.deps.onPhase('scanning');
    // The record's stamps, where it kept them, spare the walk the hash cache (as in-process).
    const sameStamps = (stamps: string): true | undefined => (current === true && stamps === kept.record.stamps && unchanged() ? true : undefined);
    const form = keptChecksumForm(index, ws.id);
    const scanned = await this.scanFolder(hasBase, ignore, hashingAlgorithm(form), watcher, null, signal, kept.record.stamps ? sameStamps : undefined);
    if (!(await answered)) {
      if ('blocked' in scanned || 'unchanged' in scanned) return null;
      // The full cycle lists what changed, then plans from this scan.
      this.deps.onPhase('listing');
      return { ...scanned, formTold: false };
    }
    if (!told) this.serviceAnswered();
    if ('blocked' in scanned) return { outcome: { blocked: scanned.blocked, plan: null, result: null, waiting: [], work: 0 } };
    if ('unchanged' in scanned) return unchanged() ? this.replayedStart(kept, scanned.localMark) : null;
    if (scanFingerprint(scanned.scan) !== kept.record.scan || !unchanged()) return { ...scanned, formTold: true };
    return this.replayedStart(kept, scanned.localMark);
  }

  /** What the quiet start does once the feed said the stored tree is the service's. */
  private serviceAnswered(): void {
    const { index } = this.deps;
    const ws = this.target;
    retryOfflineNow(index, ws.id);
    if (keptChecksumForm(index, ws.id) === null) this.deps.onProblem(unknownChecksums(ws.id));
  }

  private replayedStart(kept: { writes: number; record: QuietRecord }, local: ScanMark | null): { outcome: CycleOutcome } {
    this.deps.logger.debug({ workspaceId: this.target.id, writes: kept.writes }, 'nothing changed since the quiet cycle the index kept: replayed without loading the base or the remote tree');
    return { outcome: this.replayRecord(kept, local) };
  }

  /** Tells what the kept quiet cycle told, and plans what it planned: nothing. Files locked by others: none (quiet-start.ts). */
  private replayRecord(kept: { writes: number; record: QuietRecord }, local: ScanMark | null): CycleOutcome {
    for (const problem of kept.record.problems) this.deps.onProblem(problem);
    this.deps.onPlanned?.([]);
    this.replayedRecord = { writes: kept.writes, local };
    return { blocked: null, plan: kept.record.plan, result: null, waiting: [], work: 0 };
  }

  /** Whether the watcher vouches that nothing changed on disk since a scan began at `local` (scan-trust.ts). */
  private watcherVouches(local: ScanMark | null, watcher: TreeWatcher | null): boolean {
    return unchangedSince(local, watcher, Date.now(), this.deps.fullRescanIntervalMs ?? FULL_RESCAN_INTERVAL_MS);
  }

  private quietContext(ignoreRules: string | undefined): string {
    const ws = this.target;
    const { deviceName, selfUserId, quietMs } = this.deps;
    return quietContext({ dir: ws.dir, excluded: ws.excluded, deviceName, selfUserId, quietMs, ignoreRules });
  }

  /**
   * Walks the folder, then checks the marker again: the folder may have gone while it was read
   * (an unplugged drive, rm -rf), and what the scan missed must not read as deletions. The
   * process's first walk that gets through also removes the leftover temp files it saw, before
   * any plan runs.
   */
  private async scanFolder<T = never>(
    hasBase: boolean,
    ignore: IgnoreMatcher,
    algorithm: HashAlgorithm,
    watcher: TreeWatcher | null,
    remote: PlacedRemoteTree | null,
    signal: AbortSignal | undefined,
    sameStamps?: (stamps: string) => T | undefined,
  ): Promise<FolderScan | { unchanged: T; localMark: ScanMark | null } | { blocked: Problem }> {
    const ws = this.target;
    const hashCache = this.deps.index.hashCache(ws.id, remote?.files);
    // Before the walk: what changes while it runs moves the watcher's count past the mark.
    const localMark = markBeforeScan(watcher, Date.now());
    let scan;
    try {
      const scanOptions = { hashCache, ignore, algorithm, ...(signal ? { signal } : {}) };
      scan = sameStamps ? await scanUnlessUnchanged(ws.dir, scanOptions, sameStamps) : await scanTree(ws.dir, scanOptions);
    } catch (error) {
      const gone = await this.markerProblem(hasBase);
      if (gone !== null && gone !== 'unguarded') return { blocked: gone };
      return { blocked: { workspaceId: ws.id, path: null, kind: 'error', message: `The folder ${ws.dir} could not be read: ${(error as Error).message}` } };
    }
    const gone = await this.markerProblem(hasBase);
    if (gone !== null && gone !== 'unguarded') return { blocked: gone };
    if (!this.leftoversRemoved) {
      this.leftoversRemoved = true;
      await removeLeftoverTemps({ index: this.deps.index, workspaceId: ws.id, root: ws.dir, logger: this.deps.logger }, scan.temps);
    }
    if ('unchanged' in scan) return { unchanged: scan.unchanged, localMark };
    return { scan, localMark, algorithm };
  }

  /** A cycle that would plan what the last quiet one planned: nothing. It tells what that one told. */
  private async replayQuiet(quiet: QuietCycle, remote: PlacedRemoteTree, signal: AbortSignal | undefined): Promise<CycleOutcome> {
    for (const problem of quiet.problems) this.deps.onProblem(problem);
    this.deps.onPlanned?.([]);
    await this.guardLocks(remote, [], signal);
    this.quiet = { ...quiet, index: this.deps.index.writeMark() };
    return { blocked: null, plan: quiet.plan, result: null, waiting: [], work: 0 };
  }

  /** Files locked by others are read-only here until the lock goes (locked-files.ts). */
  private async guardLocks(remote: PlacedRemoteTree, actions: readonly Action[], signal: AbortSignal | undefined): Promise<void> {
    const { index, logger, client } = this.deps;
    const ws = this.target;
    if (signal?.aborted) return;
    try {
      await guardLockedFiles(
        {
          index,
          workspaceId: ws.id,
          dir: ws.dir,
          logger,
          heldBack: new Set(actions.flatMap((a) => (a.kind === 'locked' ? [pathKey(a.path)] : []))),
          holderNames: (ids) => holderNames(client, ws.id, new Map([...ids].map((id) => [id, id])), logger, signal),
          suppress: this.deps.suppress,
          onActivity: this.deps.onActivity,
        },
        foreignLocks(remote.files.values(), this.deps.selfUserId),
      );
    } catch (error) {
      logger.warn({ err: error }, 'the write permission of locked files could not be set; the next sync tries again');
    }
  }

  /**
   * The marker file tells our folder from an empty or foreign one (Syncthing's .stfolder): a
   * missing marker where files were synced before means an unmounted drive or a moved folder,
   * and syncing then would delete everything remotely. 'unguarded' while nothing is synced yet;
   * null when the marker is ours.
   */
  private async markerProblem(hasBase: boolean): Promise<Problem | null | 'unguarded'> {
    const { index } = this.deps;
    const ws = this.target;
    const expectedFolderId = index.settings.get<string>(markerSetting(ws.id));
    const exists = await stat(ws.dir).then((s) => s.isDirectory(), () => false);
    if (expectedFolderId && hasBase) {
      const status = exists ? await checkMarker(ws.dir, { workspaceId: ws.id, folderId: expectedFolderId }) : 'missing';
      if (status !== 'ok') {
        return {
          workspaceId: ws.id,
          path: null,
          kind: 'marker',
          message: exists
            ? `The folder ${ws.dir} is not the one this workspace synced to (its .assetsync marker is ${status}). Nothing was changed.`
            : `The folder ${ws.dir} is missing (unmounted drive or moved folder?). Nothing was changed.`,
          hint: `Reconnect the drive or move the folder back. If this is the right folder, run \`asset-sync workspaces reset ${ws.id} --root ${JSON.stringify(dirname(ws.dir))}\`: the next sync then merges it with the service by content and deletes nothing on either side.`,
        };
      }
      return null;
    }
    return 'unguarded';
  }

  /** Checks the marker, or writes one where nothing is synced yet. */
  private async ensureMarker(hasBase: boolean): Promise<Problem | null> {
    const problem = await this.markerProblem(hasBase);
    if (problem !== 'unguarded') return problem;
    const ws = this.target;
    await mkdir(ws.dir, { recursive: true });
    const marker = newMarker(ws.id);
    await writeMarker(ws.dir, marker);
    this.deps.index.settings.set(markerSetting(ws.id), marker.folderId);
    return null;
  }

  /** Why the workspace could not be listed, in words, with what the user can do. */
  private listingProblem(error: unknown): Problem {
    const ws = this.target;
    const detail = (error as Error).message;
    if (!isServiceError(error)) return { workspaceId: ws.id, path: null, kind: 'error', message: `Listing the workspace failed: ${detail}` };
    switch (error.kind) {
      case 'auth':
        return { workspaceId: ws.id, path: null, kind: 'auth', message: `The service refused the API key: ${detail}`, hint: 'Run `asset-sync login` again, or check ASSET_SYNC_API_KEY and ASSET_SYNC_API_SECRET.' };
      case 'forbidden':
      case 'not_found':
        return { workspaceId: ws.id, path: null, kind: 'error', message: `This workspace is not available to you: ${detail}`, hint: 'Check the workspace id and that your account still has access to it.' };
      case 'network':
      case 'server':
      case 'rate_limited':
        return { workspaceId: ws.id, path: null, kind: 'offline', message: `The service could not be reached to list the workspace: ${detail}`, hint: 'Sync resumes by itself once the service answers again.' };
      default:
        return { workspaceId: ws.id, path: null, kind: 'error', message: `The service's listing of the workspace could not be used: ${detail}`, hint: 'Nothing was changed. Sync retries at the next poll; if this stays, the service needs a look.' };
    }
  }

}
