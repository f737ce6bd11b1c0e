/**
 * File deletions carried out in the last few minutes, per side, for the mass-delete brake
 * (`PlannerInput.recentDeletes`): an `rm -rf` of a large tree reaches the watcher in bursts over
 * seconds, a slow disk's over a minute or two, and each burst alone may stay under the brake.
 *
 * Kept in the index (setting `recentDeletes:<workspace>`), not only in memory: a restart in the
 * middle of a slow `rm -rf` (the app updated, the machine put to sleep, a crash) started the count
 * again, so a tree deleted across the restart went through a share at a time. Stored as a count
 * per second, so the setting holds at most one entry per second of the window and side, however
 * many files go; entries that leave the window are dropped.
 */
import type { SyncIndex } from '../index/sync-index.js';

/** How long carried-out deletions count toward the brake. */
export const RECENT_DELETES_MS = 5 * 60_000;
const BUCKET_MS = 1000;

export type DeleteSide = 'local' | 'remote';
/** [start of the second (ms since the epoch), file deletions carried out in it] */
type Buckets = [number, number][];
type Stored = Record<DeleteSide, Buckets>;

export const recentDeletesSetting = (workspaceId: string): string => `recentDeletes:${workspaceId}`;

export class RecentDeletes {
  private buckets: Stored;
  /** A write of the buckets waits for the next group commit: it writes them as they are then. */
  private saving = false;

  constructor(
    private readonly index: SyncIndex,
    private readonly workspaceId: string,
    private readonly now: () => number = Date.now,
    private readonly windowMs = RECENT_DELETES_MS,
  ) {
    this.buckets = parseStored(index.settings.get(recentDeletesSetting(workspaceId)));
    if (this.prune()) this.save();
  }

  /** A file deletion was carried out on `side`. */
  record(side: DeleteSide): void {
    const at = Math.floor(this.now() / BUCKET_MS) * BUCKET_MS;
    const list = this.buckets[side];
    const last = list[list.length - 1];
    if (last?.[0] === at) last[1] += 1;
    else list.push([at, 1]);
    this.save();
  }

  /** Deletions carried out on each side within the window. */
  counts(): Record<DeleteSide, number> {
    if (this.prune()) this.save();
    return { local: total(this.buckets.local), remote: total(this.buckets.remote) };
  }

  /** The user confirmed the deletions: those before no longer count. */
  clear(): void {
    this.buckets = { local: [], remote: [] };
    this.save();
  }

  /** Drops what left the window (and what a clock set back put in the future); true when anything went. */
  private prune(): boolean {
    const now = this.now();
    const keep = ([at]: [number, number]): boolean => at + BUCKET_MS > now - this.windowMs && at <= now + BUCKET_MS;
    const local = this.buckets.local.filter(keep);
    const remote = this.buckets.remote.filter(keep);
    const changed = local.length !== this.buckets.local.length || remote.length !== this.buckets.remote.length;
    this.buckets = { local, remote };
    return changed;
  }

  /**
   * Written with the executor's next group commit: a deletion is remembered in the same commit
   * as its base row, or the one after. A closed index (the engine stopped) keeps what it has.
   */
  private save(): void {
    if (this.saving || !this.index.isOpen) return;
    this.saving = true;
    this.index
      .commitSoon(() => {
        this.saving = false;
        this.prune();
        const empty = this.buckets.local.length === 0 && this.buckets.remote.length === 0;
        this.index.settings.set(recentDeletesSetting(this.workspaceId), empty ? undefined : this.buckets);
      })
      .catch(() => {
        this.saving = false;
      });
  }
}

const total = (buckets: Buckets): number => buckets.reduce((sum, [, count]) => sum + count, 0);

/** The stored buckets, leaving out anything malformed (an index written by a newer version, say). */
function parseStored(value: unknown): Stored {
  const side = (raw: unknown): Buckets =>
    Array.isArray(raw)
      ? raw.filter((b): b is [number, number] => Array.isArray(b) && b.length === 2 && Number.isFinite(b[0]) && Number.isInteger(b[1]) && (b[1] as number) > 0)
      : [];
  const stored = (value ?? {}) as Partial<Record<DeleteSide, unknown>>;
  return { local: side(stored.local), remote: side(stored.remote) };
}
