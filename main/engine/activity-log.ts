/**
 * The engine's activity lines: each is shown at once (the event) and stored in the index's next
 * group commit (`commitLater`), with the other writes of the next moment: one transaction per line
 * was a twentieth of a small file's download time, and lines held back for a quarter of a second
 * outlived the young generation (100,000 downloads promoted each line to the old one). A crash
 * loses at most the last moment's lines of the log, never sync state.
 */
import type { ActivityItem } from '../../shared/engine.js';
import { activityInput, type ActivityInput } from '../index/activity.js';
import type { SyncIndex } from '../index/sync-index.js';

export class ActivityLog {
  /** Lines not stored yet: the next group commit stores them (the batch it was handed). */
  private pending: ActivityInput[] = [];
  /** What each path's last line said, to tell a repeat (`repeats`). */
  private readonly lastLines = new Map<string, string>();

  constructor(
    private readonly index: Pick<SyncIndex, 'activity' | 'commitLater'>,
    private readonly show: (item: ActivityItem) => void,
  ) {}

  add(item: ActivityItem): void {
    if (this.repeats(item)) return;
    if (this.pending.push(activityInput(item)) === 1) {
      const batch = this.pending;
      // An index closed before the commit loses the last lines, as a crash would.
      this.index.commitLater(() => this.store(batch)).catch(() => undefined);
    }
    this.show(item);
  }

  /** Stores the lines waiting for their group commit now. */
  flush(): void {
    const batch = this.pending;
    this.store(batch);
    // Stored: the group commit it was handed to has nothing left to do.
    batch.length = 0;
  }

  /**
   * Writes a batch; run again if its group commit is rolled back and retried, so the batch is
   * kept until then (lines of later turns go to a new one).
   */
  private store(batch: ActivityInput[]): void {
    if (batch === this.pending) this.pending = [];
    if (batch.length > 0) this.index.activity.addMany(batch);
  }

  /**
   * A path held by a lock, or failing the same way, says so once, not at every cycle or retry:
   * the repeats pushed the history out of the 50 lines the app shows within minutes. Only such
   * lines are remembered: any other line of the path ends the run of repeats, and a line kept
   * for each of 100,000 downloaded files was garbage the old generation filled with.
   */
  private repeats(item: ActivityItem): boolean {
    if (item.path === null) return false;
    const repeatable = item.kind === 'locked' || item.kind === 'error';
    if (!repeatable && this.lastLines.size === 0) return false;
    const key = `${item.workspaceId ?? ''}\0${item.path}`;
    if (!repeatable) {
      this.lastLines.delete(key);
      return false;
    }
    const line = `${item.kind}\0${item.message}`;
    const repeated = this.lastLines.get(key) === line;
    if (this.lastLines.size >= 10_000) this.lastLines.clear();
    this.lastLines.set(key, line);
    return repeated;
  }
}
