/**
 * The service's tree of one workspace as this process knows it: kept up by the changes feed,
 * listed in full when the feed cannot serve or the last listing is old, stored in the index so
 * that a restart follows the feed from where it stopped, and placed on this device's paths
 * (remote-tree.ts). The cycle asks it for the placed tree; a quiet poll gets the same placement
 * back without placing or storing anything again.
 */
import type { Problem } from '../../shared/engine.js';
import type { SyncIndex } from '../index/sync-index.js';
import type { ChecksumForm } from '../local/checksum.js';
import type { Logger } from '../logging.js';
import { compareSequences, type Listing, type Sequence, type ServiceClient } from '../service-client/index.js';
import { isServiceError } from '../service-client/service-error.js';
import { keepChecksumForm, keptChecksumForm } from './checksum-form.js';
import {
  applyChanges,
  compactFromStore,
  compactTree,
  expandTree,
  noChanges,
  placeAsStored,
  placementOf,
  placeRemoteTree,
  treeDiff,
  treeDifferences,
  treeFromListing,
  treeRows,
  type CompactTree,
  type PlacedRemoteTree,
  type RawRemoteTree,
  type TreeChanges,
  type TreePaths,
} from './remote-tree.js';

export interface RemoteMirrorDeps {
  index: SyncIndex;
  client: ServiceClient;
  logger: Logger;
  /**
   * The longest the tree is kept up by the changes feed alone: once the last full listing is
   * older, the workspace is listed in full and the listing replaces the tree. Default 24 h.
   */
  fullListingIntervalMs?: number;
  onProblem: (problem: Problem) => void;
}

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

export class RemoteMirror {
  /**
   * The service's tree at `tree.sequence`; on the first refresh, read back from the index. Held
   * as its placement alone (`compact`) between refreshes whenever that is all of it.
   */
  private tree: RawRemoteTree | null = null;
  /** The tree as its placement (then `tree` is null): expanded when the feed or a listing needs the raw tree. */
  private compact: CompactTree | null = null;
  /** Ids the feed changed since the tree was last placed. */
  private touched: TreeChanges = noChanges();
  /** The placement of the tree as it is (while nothing is touched): a quiet poll reuses it. */
  private placed: PlacedRemoteTree | null = null;
  /**
   * What the index holds: the tree at `sequence`, placed at `rows.paths` (a placement, whose
   * paths are worked out only when a write of differences needs them). A write stores the difference.
   */
  private stored: { sequence: Sequence; rows: { readonly paths: TreePaths } } | null = null;
  /**
   * The tree is the one read from the index, unchanged, and its stored paths were placed as this
   * process places (`placementOf`): they are the placement, without placing it again.
   */
  private asStored = false;
  /** When the tree last came from a full listing (ms since the epoch); null: not known. */
  private listedAt: number | null = null;
  /** After a failed periodic listing: not tried again before this time. */
  private retryListingAt: number | null = null;
  /** After a feed page that could not be used: the feed is not asked before `retryAt`. */
  private feedRest: { retryAt: number; waitMs: number } | null = null;
  /** This process has brought the tree up to date once (its start-up refresh is behind it). */
  private refreshed = false;

  constructor(
    private readonly workspace: { id: string; excluded: readonly string[] },
    private readonly deps: RemoteMirrorDeps,
  ) {}

  /** Told while the service sends items this device cannot read: which, and that they are left as they are. */
  unreadableProblem(): Problem {
    const items = [...(this.tree?.unknown.values() ?? [])];
    const named = items
      .slice(0, 3)
      .map((item) => `${item.type} ${item.id ?? item.fileName ?? '(no id)'} (${item.why})`)
      .join('; ');
    return {
      workspaceId: this.workspace.id,
      path: null,
      kind: 'degraded',
      message: `The service sent ${items.length} item(s) Asset Sync cannot read: ${named}${items.length > 3 ? '; …' : ''}. They are left as they are, here and on the service.`,
      hint: 'Nothing was deleted. The next sync reads them again; if this stays, the service needs a look.',
    };
  }

  /**
   * Changes since the cursor when the service offers them, a full listing otherwise. A fresh
   * process starts from the tree the index kept, so a restart costs the changes made while it
   * was stopped rather than a listing of the whole workspace. Once the last full listing is
   * older than the interval, the workspace is listed again and checked against the tree.
   */
  async placedTree(signal?: AbortSignal): Promise<PlacedRemoteTree> {
    const ws = this.workspace;
    const opts = signal ? { signal } : {};
    if (!this.known()) this.loadStoredTree();
    // A start that follows the feed without a listing names uploads as the service writes them.
    const kept = keptChecksumForm(this.deps.index, ws.id);
    if (kept && this.deps.client.checksumForm(ws.id) === undefined) this.deps.client.rememberChecksumForm(ws.id, kept);
    const feed = this.known() && !this.feedResting() ? await this.followChanges(opts) : null;
    if (feed === 'unavailable') this.forgetTree();
    let listedAt: number | undefined;
    if (!this.known()) {
      listedAt = Date.now();
      this.adoptListing(this.treeFrom(await this.deps.client.getHierarchy(ws.id, opts)), listedAt);
    } else if (this.feedRest !== null) {
      // The feed could not bring the tree up to date: a listing does, and only what differs is stored.
      listedAt = Date.now();
      const listed = this.treeFrom(await this.deps.client.getHierarchy(ws.id, opts));
      this.markDifferences(this.rawTree(), listed);
      this.adoptListing(listed, listedAt);
    } else if (this.listingDue(!this.refreshed)) {
      const startedAt = Date.now();
      const listed = await this.periodicListing(opts);
      if (listed) {
        this.checkAgainst(this.rawTree(), listed);
        listedAt = startedAt;
        this.adoptListing(listed, startedAt);
      }
    }
    if (this.feedRest !== null) this.deps.onProblem(slowerChanges(ws.id));
    const touched = this.touched.folders.size > 0 || this.touched.assets.size > 0;
    if (touched) this.asStored = false;
    if (!this.placed || touched) {
      const tree = this.rawTree();
      const asStored = this.asStored && this.stored ? placeAsStored(tree, this.stored.rows.paths) : null;
      // Placed where the index has it: no row to write.
      if (asStored !== null && this.stored) this.stored.rows = asStored;
      this.placed = asStored ?? placeRemoteTree(tree, ws.excluded);
    }
    this.asStored = false;
    const placed = this.placed;
    this.store(placed, listedAt);
    this.touched = noChanges();
    this.refreshed = true;
    this.compactNow(placed);
    return this.placed;
  }

  /**
   * Whether the tree the index keeps is still the service's, learned without reading it: this
   * process holds no tree yet, no listing is due, and the feed answers nothing after the stored
   * cursor (a cursor it does not move). Null when the stored tree cannot serve (nothing is
   * asked); false whenever the feed cannot tell (no feed, a stale cursor, an error, a change):
   * `placedTree` then does what it always does. The request is made now and awaited by the
   * caller, who may do other work while it runs.
   */
  storedTreeCurrent(signal?: AbortSignal): Promise<boolean> | null {
    if (this.known() || this.feedResting()) return null;
    const ws = this.workspace;
    const kept = this.deps.index.remote.storedCursor(ws.id, placementOf(ws.excluded));
    if (kept === null) return null;
    this.listedAt = kept.listedAt;
    if (this.listingDue(!this.refreshed)) return null;
    return this.nothingAfter(kept.sequence, signal);
  }

  /** Whether the feed answers nothing after `sequence`, and the same cursor. */
  private async nothingAfter(sequence: Sequence, signal: AbortSignal | undefined): Promise<boolean> {
    let answer;
    try {
      answer = await this.deps.client.getChanges(this.workspace.id, sequence, 1, signal ? { signal } : {});
    } catch {
      // `placedTree` asks again, and says what failed.
      return false;
    }
    const current = answer.ok && answer.page.changes.length === 0 && !answer.page.has_more && compareSequences(sequence, answer.page.sequence) === 'same';
    if (current) this.refreshed = true;
    return current;
  }

  /** Whether this process holds the tree, raw or as its placement. */
  private known(): boolean {
    return this.tree !== null || this.compact !== null;
  }

  /** The raw tree, expanded from its placement if it is held as one. Only while `known()`. */
  private rawTree(): RawRemoteTree {
    if (this.compact !== null) {
      this.tree = expandTree(this.compact);
      this.compact = null;
    }
    if (this.tree === null) throw new Error('the remote tree is not known');
    return this.tree;
  }

  /** The cursor of the tree held. Only while `known()`. */
  private sequence(): Sequence {
    return this.compact?.sequence ?? this.rawTree().sequence;
  }

  /** Holds the tree as its placement when that is all of it; the placement and what is stored follow. */
  private compactNow(placed: PlacedRemoteTree): void {
    if (this.tree === null) return;
    const compact = compactTree(this.tree, placed);
    if (compact === null) return;
    this.compact = compact;
    this.tree = null;
    this.placed = compact.placed;
    if (this.stored?.rows === placed) this.stored.rows = compact.placed;
  }

  /**
   * The tree a listing describes, keeping what this device knew of any item the listing sends
   * unreadable; the service's checksum form is learned from it too.
   */
  private treeFrom(listing: Listing): RawRemoteTree {
    if (listing.checksumForm !== undefined) this.learnChecksumForm(listing.checksumForm);
    // What this device knew of an item matters only for one the listing sends unreadable.
    return treeFromListing(listing, listing.unreadable.length > 0 && this.known() ? this.rawTree() : this.tree);
  }

  private learnChecksumForm(form: ChecksumForm | null): void {
    keepChecksumForm(this.deps.index, this.workspace.id, form);
  }

  private adoptListing(listed: RawRemoteTree, listedAt: number): RawRemoteTree {
    this.tree = listed;
    this.compact = null;
    this.asStored = false;
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
      const listed = this.treeFrom(await this.deps.client.getHierarchy(this.workspace.id, opts));
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
  private store(placed: PlacedRemoteTree, listedAt: number | undefined): void {
    const { index } = this.deps;
    const ws = this.workspace;
    const stored = this.stored;
    const sequence = this.sequence();
    if (stored?.sequence === sequence && stored.rows === placed) return;
    const sameRows = stored?.rows === placed;
    // Items that could not be read would never be told again by the feed: a restart lists in full.
    const resumable = (this.tree?.unknown.size ?? 0) === 0;
    const placement = placementOf(ws.excluded);
    const written =
      stored !== null &&
      index.remote.saveTree(
        ws.id,
        { sequence, since: stored.sequence, resumable, placement, ...(sameRows ? {} : treeDiff(this.rawTree(), placed.paths, stored.rows.paths, this.touched)) },
        listedAt,
      );
    if (!written) index.remote.saveTree(ws.id, { sequence, full: true, resumable, placement, ...treeRows(this.rawTree(), placed.paths) }, listedAt);
    this.stored = { sequence, rows: placed };
  }

  /**
   * Applies the feed from the tree's cursor. 'unavailable': the service cannot answer from there
   * (cursor expired, no feed) and the workspace must be listed in full; 'unusable': a page could
   * not be used, the feed rests (`feedRest`) and the cycle lists in full. Pages applied before
   * an unusable one stay applied: the listing then sets the tree right.
   */
  private async followChanges(opts: { signal?: AbortSignal }): Promise<FeedOutcome> {
    let since = this.sequence();
    for (;;) {
      let answer;
      try {
        answer = await this.deps.client.getChanges(this.workspace.id, since, 1000, opts);
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
      // A page that only moves the cursor leaves a tree held as its placement as it is.
      if (this.compact !== null && answer.page.changes.length === 0) this.compact.sequence = answer.page.sequence;
      else applyChanges(this.rawTree(), answer.page.changes, answer.page.sequence, this.touched);
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
    const { remote } = this.deps.index;
    const ws = this.workspace;
    this.touched = noChanges();
    let kept;
    try {
      // Most starts: every item placed as this process places. Read as the placement alone.
      const placement = remote.loadPlacement(ws.id, placementOf(ws.excluded));
      if (placement) {
        this.compact = compactFromStore(placement);
        this.listedAt = placement.listedAt;
        this.placed = this.compact.placed;
        this.stored = { sequence: placement.sequence, rows: this.placed };
        this.asStored = false;
        return;
      }
      kept = remote.loadTree(ws.id);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'the stored remote tree could not be read; listing the workspace in full');
      return;
    }
    if (!kept) return;
    this.tree = { folders: kept.folders, assets: kept.assets, sequence: kept.sequence, unknown: new Map() };
    this.listedAt = kept.listedAt;
    this.placed = null;
    this.stored = { sequence: kept.sequence, rows: { paths: { folders: kept.folderPaths, assets: kept.assetPaths } } };
    this.asStored = kept.placement === placementOf(ws.excluded);
  }

  /** The feed cannot go on from the tree: the next listing replaces it and every stored row. */
  private forgetTree(): void {
    this.tree = null;
    this.compact = null;
    this.asStored = false;
    this.touched = noChanges();
    this.placed = null;
    this.stored = null;
  }
}

/**
 * A feed answer that cannot be used, however often it is asked for: not JSON, not the shape the
 * protocol gives, or refused as a bad request. An outage, a refused token or a workspace gone are
 * not: the listing would fail the same way, and the cycle reports them.
 */
function unusablePage(error: unknown): boolean {
  return isServiceError(error) && (error.kind === 'malformed' || error.kind === 'client');
}
