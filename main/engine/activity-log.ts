/**
 * The engine's activity lines: each is shown at once (the event) and stored in batches, because
 * one transaction per line was a twentieth of a small file's download time. A crash loses at
 * most the last moment's lines of the log, never sync state.
 */
import type { ActivityItem } from '../../shared/engine.js';
import { activityInput, type ActivityInput } from '../index/activity.js';
import type { SyncIndex } from '../index/sync-index.js';

/** Activity lines wait at most this long to be stored. */
const ACTIVITY_FLUSH_MS = 250;

export class ActivityLog {
  private pending: ActivityInput[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  /** What each path's last line said, to tell a repeat (`repeats`). */
  private readonly lastLines = new Map<string, string>();

  constructor(
    private readonly index: Pick<SyncIndex, 'activity'>,
    private readonly show: (item: ActivityItem) => void,
  ) {}

  add(item: ActivityItem): void {
    if (this.repeats(item)) return;
    this.pending.push(activityInput(item));
    this.flushTimer ??= setTimeout(() => this.flush(), ACTIVITY_FLUSH_MS);
    this.show(item);
  }

  /** Stores the lines waiting for their batch now. */
  flush(): void {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pending.length === 0) return;
    const entries = this.pending;
    this.pending = [];
    this.index.activity.addMany(entries);
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
