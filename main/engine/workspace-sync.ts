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
import { scanTree } from '../local/scanner.js';
import type { Logger } from '../logging.js';
import { compareSequences, type Listing, type Sequence, type ServiceClient } from '../service-client/index.js';
import { isServiceError } from '../service-client/service-error.js';
import { hashingAlgorithm, keepChecksumForm, keptChecksumForm, unknownChecksums, checksumFormSetting } from './checksum-form.js';
import type { ChecksumForm } from '../local/checksum.js';
import { executePlan, ownCopies, retryOfflineNow, stillOpen, tidyBeforePlan, type ExecutionResult, type ExecutorDeps } from '../sync/executor/index.js';
import type { Action } from '../sync/actions.js';
import { plan, type Plan } from '../sync/planner/plan.js';
import type { TransferQueue } from '../sync/transfer-queue.js';
import { holdBack, localView, notIgnored, standAside } from './local-view.js';
import { notSyncedSetting, skippedProblems, storeNotSynced } from './skipped.js';
import { holderAt, holderNames, lockHolders } from './lock-holders.js';
import { foreignLocks, guardLockedFiles } from './locked-files.js';
import { recentDeletesSetting } from './recent-deletes.js';
import {
  applyChanges,
  noChanges,
  placeRemoteTree,
  treeDiff,
  treeDifferences,
  treeFromListing,
  treeRows,
  type PlacedRemoteTree,
  type RawRemoteTree,
  type TreeChanges,
  type TreePaths,
} from './remote-tree.js';

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
  /**
   * The longest the tree is kept up by the changes feed alone: once the last full listing is
   * older, a cycle lists the workspace in full and the listing replaces the tree. Default 24 h.
   */
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

const BOOKKEEPING = new Set(['record-base', 'forget-base', 'record-folder-base', 'forget-folder-base', 'locked']);

/**
 * A feed that ever dropped a change would leave the tree wrong until the cursor expires (410),
 * perhaps for ever: once a day a listing, one request and one pass over the tree, sets it right.
 */
export const DEFAULT_FULL_LISTING_INTERVAL_MS = 24 * 60 * 60 * 1000;
const LISTING_RETRY_MS = 60 * 60 * 1000;
/**
 * The listing is the source of truth and the feed only saves work: a feed page that cannot be
 * used makes each cycle list in full, and the feed is asked again after this wait, doubled while
 * it stays unusable, up to an hour.
 */
const FEED_RETRY_MS = 5 * 60 * 1000;
const FEED_RETRY_MAX_MS = 60 * 60 * 1000;

/** How far the feed brought the tree: all the way, not from this cursor (list in full), or not at all (a page could not be used). */
type FeedOutcome = 'followed' | 'unavailable' | 'unusable';

/** Told while the feed rests: sync works, each cycle lists in full. */
const slowerChanges = (workspaceId: string): Problem => ({
  workspaceId,
  path: null,
  kind: 'degraded',
  message: "The service's list of recent changes could not be read, so each sync lists the whole workspace instead: changes from the service come slower.",
  hint: 'Nothing to do: Asset Sync asks for the list of changes again by itself.',
});

export class WorkspaceSync {
  /** The service's tree at `tree.sequence`; on the first cycle, read back from the index. */
  private tree: RawRemoteTree | null = null;
  /** Ids the feed changed since the tree was last placed. */
  private touched: TreeChanges = noChanges();
  /** The placement of the tree as it is (while nothing is touched): a quiet poll reuses it. */
  private placed: PlacedRemoteTree | null = null;
  /** What the index holds: the tree at `sequence`, placed at `paths`. A write stores the difference. */
  private stored: { sequence: Sequence; paths: TreePaths } | null = null;
  /** When the tree last came from a full listing (ms since the epoch); null: not known. */
  private listedAt: number | null = null;
  /** After a failed periodic listing: not tried again before this time. */
  private retryListingAt: number | null = null;
  /** After a feed page that could not be used: the feed is not asked before `retryAt`. */
  private feedRest: { retryAt: number; waitMs: number } | null = null;
  /** This process has brought the tree up to date once (its start-up cycle is behind it). */
  private refreshed = false;
  private ignore: IgnoreMatcher | null = null;

  constructor(
    readonly target: WorkspaceTarget,
    private readonly deps: WorkspaceSyncDeps,
  ) {}

  /** Forget the cached ignore rules (the watcher saw `.assetsyncignore` change). */
  reloadIgnore(): void {
    this.ignore = null;
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
    let remote: PlacedRemoteTree;
    try {
      remote = await this.refreshRemote(options.signal);
    } catch (error) {
      return { ...idle, blocked: this.listingProblem(error) };
    }

    // The service answered the listing.
    retryOfflineNow(index, ws.id);

    this.deps.onPhase('scanning');
    // One matcher for the whole cycle: the watcher may drop the cached one meanwhile.
    const ignore = (this.ignore ??= await loadIgnoreMatcher(ws.dir));
    const hashCache = index.hashCache(ws.id);
    const form = keptChecksumForm(index, ws.id);
    const algorithm = hashingAlgorithm(form);
    if (form === null) this.deps.onProblem(unknownChecksums(ws.id));
    let scan;
    try {
      scan = await scanTree(ws.dir, { hashCache, ignore, algorithm, ...(options.signal ? { signal: options.signal } : {}) });
    } catch (error) {
      const gone = await this.markerProblem(hasBase);
      if (gone !== null && gone !== 'unguarded') return { ...idle, blocked: gone };
      return { ...idle, blocked: { workspaceId: ws.id, path: null, kind: 'error', message: `The folder ${ws.dir} could not be read: ${(error as Error).message}` } };
    }
    // The folder may have gone while it was read (an unplugged drive, rm -rf): what the scan
    // missed must not read as deletions.
    const gone = await this.markerProblem(hasBase);
    if (gone !== null && gone !== 'unguarded') return { ...idle, blocked: gone };
    // Left alone on both sides: the scanner never reports an ignored path (see notIgnored).
    const base = notIgnored(index.base.load(ws.id), ignore, scan);
    const remoteView = notIgnored(remote, ignore, scan);
    const excludedKeys = new Set(ws.excluded.map((p) => pathKey(p)));
    const local = localView(scan, base.files, { nowMs: Date.now(), quietMs: this.deps.quietMs, excludedKeys }, base.folders);
    for (const path of local.waiting) logger.debug({ path }, 'waiting for the file to stop changing');
    const notSynced = skippedProblems(ws.id, scan.skipped, excludedKeys, local.held);
    storeNotSynced(index, ws.id, notSynced);
    for (const problem of notSynced) this.deps.onProblem(problem);
    for (const problem of stillOpen(index, ws.id, scan.files)) this.deps.onProblem(problem);
    let baseFiles = base.files;
    if (remote.held.incomplete) {
      const listed = new Set([...remote.files.values()].map((file) => file.assetId));
      for (const synced of baseFiles.values()) if (!listed.has(synced.assetId)) remote.held.assetIds.add(synced.assetId);
    }
    if (remote.held.assetIds.size > 0 || remote.held.pathKeys.size > 0 || remote.held.incomplete) {
      baseFiles = standAside(remote.held.assetIds, baseFiles, local.files, remote.held.pathKeys);
      this.deps.onProblem(unreadableProblem(ws.id, this.tree));
    }
    if (remote.unplaced.size > 0) {
      baseFiles = standAside(remote.unplaced, baseFiles, local.files);
      this.deps.onProblem({
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
      this.deps.onProblem({
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
   * Changes since the cursor when the service offers them, a full listing otherwise. A fresh
   * process starts from the tree the index kept, so a restart costs the changes made while it
   * was stopped rather than a listing of the whole workspace. Once the last full listing is
   * older than the interval, the workspace is listed again and checked against the tree.
   */
  private async refreshRemote(signal?: AbortSignal): Promise<PlacedRemoteTree> {
    const ws = this.target;
    const opts = signal ? { signal } : {};
    if (!this.tree) this.loadStoredTree();
    // A start that follows the feed without a listing names uploads as the service writes them.
    const kept = keptChecksumForm(this.deps.index, ws.id);
    if (kept && this.deps.client.checksumForm(ws.id) === undefined) this.deps.client.rememberChecksumForm(ws.id, kept);
    const feed = this.tree && !this.feedResting() ? await this.followChanges(this.tree, opts) : null;
    if (feed === 'unavailable') this.forgetTree();
    let tree = this.tree;
    let listedAt: number | undefined;
    if (!tree) {
      listedAt = Date.now();
      tree = this.adoptListing(this.treeFrom(await this.deps.client.getHierarchy(ws.id, opts)), listedAt);
    } else if (this.feedRest !== null) {
      // The feed could not bring the tree up to date: a listing does, and only what differs is stored.
      listedAt = Date.now();
      const listed = this.treeFrom(await this.deps.client.getHierarchy(ws.id, opts));
      this.markDifferences(tree, listed);
      tree = this.adoptListing(listed, listedAt);
    } else if (this.listingDue(!this.refreshed)) {
      const startedAt = Date.now();
      const listed = await this.periodicListing(opts);
      if (listed) {
        this.checkAgainst(tree, listed);
        listedAt = startedAt;
        tree = this.adoptListing(listed, startedAt);
      }
    }
    if (this.feedRest !== null) this.deps.onProblem(slowerChanges(ws.id));
    const touched = this.touched.folders.size > 0 || this.touched.assets.size > 0;
    if (!this.placed || touched) this.placed = placeRemoteTree(tree, ws.excluded);
    this.store(tree, this.placed, listedAt);
    this.touched = noChanges();
    this.refreshed = true;
    return this.placed;
  }

  /**
   * The tree a listing describes, keeping what this device knew of any item the listing sends
   * unreadable; the service's checksum form is learned from it too.
   */
  private treeFrom(listing: Listing): RawRemoteTree {
    if (listing.checksumForm !== undefined) this.learnChecksumForm(listing.checksumForm);
    return treeFromListing(listing, this.tree);
  }

  private learnChecksumForm(form: ChecksumForm | null): void {
    keepChecksumForm(this.deps.index, this.target.id, form);
  }

  private adoptListing(listed: RawRemoteTree, listedAt: number): RawRemoteTree {
    this.tree = listed;
    this.listedAt = listedAt;
    // Placed afresh: the listing's maps are new, whatever they hold.
    this.placed = null;
    return listed;
  }

  /**
   * The periodic listing, or null when it failed: it can wait, the feed's tree serves
   * meanwhile, and it is tried again an hour later (or at the interval, if shorter) rather than
   * at every poll.
   */
  private async periodicListing(opts: { signal?: AbortSignal }): Promise<RawRemoteTree | null> {
    try {
      const listed = this.treeFrom(await this.deps.client.getHierarchy(this.target.id, opts));
      this.retryListingAt = null;
      return listed;
    } catch (error) {
      if (opts.signal?.aborted) throw error;
      this.retryListingAt = Date.now() + Math.min(this.fullListingIntervalMs, LISTING_RETRY_MS);
      this.deps.logger.warn({ err: error }, 'the periodic full listing failed; the changes feed keeps the tree meanwhile');
      return null;
    }
  }

  private get fullListingIntervalMs(): number {
    return this.deps.fullListingIntervalMs ?? DEFAULT_FULL_LISTING_INTERVAL_MS;
  }

  /**
   * The last full listing is older than the interval (or of unknown age, or in the future: a
   * clock set back). A start-up is kept quick: at the first cycle of a process it must be twice
   * as old. Someone who opens the app every morning would otherwise wait for a listing at most
   * starts; the app lists at its next poll instead, and a command line run that ends after one
   * cycle still lists every other interval.
   */
  private listingDue(firstCycle: boolean): boolean {
    const now = Date.now();
    if (this.retryListingAt !== null && now < this.retryListingAt) return false;
    if (this.listedAt === null) return true;
    const age = now - this.listedAt;
    return age < 0 || age >= (firstCycle ? 2 : 1) * this.fullListingIntervalMs;
  }

  /**
   * The periodic listing against the tree the feed kept: what differs is marked touched, so the
   * index writes only those rows, and said in the log. The feed was just followed, so at the
   * same cursor any difference is a change the feed never reported.
   */
  private checkAgainst(kept: RawRemoteTree, listed: RawRemoteTree): void {
    const differ = this.markDifferences(kept, listed);
    const counts = { folders: differ.folders.size, assets: differ.assets.size, feedSequence: kept.sequence, listingSequence: listed.sequence };
    if (counts.folders + counts.assets === 0) this.deps.logger.info(counts, 'the periodic full listing agrees with the tree the changes feed kept');
    else if (compareSequences(kept.sequence, listed.sequence) === 'same') this.deps.logger.warn(counts, 'the periodic full listing found changes the changes feed never reported; the listing replaces the tree');
    else this.deps.logger.info(counts, 'the periodic full listing differs from the tree the changes feed kept (changes came in meanwhile); the listing replaces the tree');
  }

  /** Marks touched what the listing changes in the kept tree, so the index writes only those rows. */
  private markDifferences(kept: RawRemoteTree, listed: RawRemoteTree): TreeChanges {
    const differ = treeDifferences(kept, listed);
    for (const id of differ.folders) this.touched.folders.add(id);
    for (const id of differ.assets) this.touched.assets.add(id);
    return differ;
  }

  /**
   * Brings the index to the tree: only what differs from what it holds, or every row when it
   * holds nothing this process knows (a listing) or another process wrote meanwhile.
   */
  private store(tree: RawRemoteTree, placed: PlacedRemoteTree, listedAt: number | undefined): void {
    const { index } = this.deps;
    const ws = this.target;
    const stored = this.stored;
    if (stored?.sequence === tree.sequence && stored.paths === placed.paths) return;
    const sameRows = stored?.paths === placed.paths;
    // Items that could not be read would never be told again by the feed: a restart lists in full.
    const resumable = tree.unknown.size === 0;
    const written =
      stored !== null &&
      index.remote.saveTree(ws.id, { sequence: tree.sequence, since: stored.sequence, resumable, ...(sameRows ? {} : treeDiff(tree, placed.paths, stored.paths, this.touched)) }, listedAt);
    if (!written) index.remote.saveTree(ws.id, { sequence: tree.sequence, full: true, resumable, ...treeRows(tree, placed.paths) }, listedAt);
    this.stored = { sequence: tree.sequence, paths: placed.paths };
  }

  /**
   * Applies the feed from the tree's cursor. 'unavailable': the service cannot answer from there
   * (cursor expired, no feed) and the workspace must be listed in full; 'unusable': a page could
   * not be used, the feed rests (`feedRest`) and the cycle lists in full. Pages applied before
   * an unusable one stay applied: the listing then sets the tree right.
   */
  private async followChanges(tree: RawRemoteTree, opts: { signal?: AbortSignal }): Promise<FeedOutcome> {
    let since = tree.sequence;
    for (;;) {
      let answer;
      try {
        answer = await this.deps.client.getChanges(this.target.id, since, 1000, opts);
      } catch (error) {
        if (!unusablePage(error)) throw error;
        return this.restFeed(error);
      }
      if (!answer.ok) {
        this.deps.logger.info({ reason: answer.reason }, 'the changes feed cannot answer from the stored cursor; listing the workspace in full');
        // Said in the log only, as a service without the feed is (docs/protocol.md).
        this.feedRest = null;
        return 'unavailable';
      }
      // A page that does not move the cursor on would be asked for again and again. An opaque
      // cursor can only be seen to change.
      const moved = compareSequences(since, answer.page.sequence);
      if (answer.page.has_more && moved !== 'later' && moved !== 'changed') return this.restFeed(new Error(`the page after ${since} does not move the cursor on`));
      applyChanges(tree, answer.page.changes, answer.page.sequence, this.touched);
      if (!answer.page.has_more) {
        if (this.feedRest !== null) this.deps.logger.info('the changes feed reads again; changes are followed from it again');
        this.feedRest = null;
        return 'followed';
      }
      since = answer.page.sequence;
    }
  }

  /** The feed is not asked again before its backoff is over: until then each cycle lists in full. */
  private restFeed(error: unknown): 'unusable' {
    const waitMs = this.feedRest === null ? FEED_RETRY_MS : Math.min(this.feedRest.waitMs * 2, FEED_RETRY_MAX_MS);
    this.feedRest = { retryAt: Date.now() + waitMs, waitMs };
    this.deps.logger.warn({ err: error, retryInMs: waitMs }, 'a page of the changes feed could not be used; each sync lists the workspace in full until the feed is tried again');
    return 'unusable';
  }

  private feedResting(): boolean {
    return this.feedRest !== null && Date.now() < this.feedRest.retryAt;
  }

  /** The tree as the index kept it, when it kept one it can vouch for. */
  private loadStoredTree(): void {
    let kept;
    try {
      kept = this.deps.index.remote.loadTree(this.target.id);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'the stored remote tree could not be read; listing the workspace in full');
      return;
    }
    if (!kept) return;
    this.tree = { folders: kept.folders, assets: kept.assets, sequence: kept.sequence, unknown: new Map() };
    this.listedAt = kept.listedAt;
    this.touched = noChanges();
    this.placed = null;
    this.stored = { sequence: kept.sequence, paths: { folders: kept.folderPaths, assets: kept.assetPaths } };
  }

  /** The feed cannot go on from the tree: the next listing replaces it and every stored row. */
  private forgetTree(): void {
    this.tree = null;
    this.touched = noChanges();
    this.placed = null;
    this.stored = null;
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

/** Told while the service sends items this device cannot read: which, and that they are left as they are. */
function unreadableProblem(workspaceId: string, tree: RawRemoteTree | null): Problem {
  const items = [...(tree?.unknown.values() ?? [])];
  const named = items
    .slice(0, 3)
    .map((item) => `${item.type} ${item.id ?? item.fileName ?? '(no id)'} (${item.why})`)
    .join('; ');
  return {
    workspaceId,
    path: null,
    kind: 'degraded',
    message: `The service sent ${items.length} item(s) Asset Sync cannot read: ${named}${items.length > 3 ? '; …' : ''}. They are left as they are, here and on the service.`,
    hint: 'Nothing was deleted. The next sync reads them again; if this stays, the service needs a look.',
  };
}

/**
 * A feed answer that cannot be used, however often it is asked for: not JSON, not the shape the
 * protocol gives, or refused as a bad request. An outage, a refused token or a workspace gone are
 * not: the listing would fail the same way, and the cycle reports them.
 */
function unusablePage(error: unknown): boolean {
  return isServiceError(error) && (error.kind === 'malformed' || error.kind === 'client');
}
