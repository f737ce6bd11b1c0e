/**
 * Files still being written (the stability wait, main/local/stability.ts) told as what they are:
 * "Waiting for teaser.mov to finish writing", once per file while it lasts, instead of a state
 * that flickers between "Looking for changes" and "Syncing" every few seconds of a long export.
 */
import type { ActivityItem } from '../../shared/engine.js';
import { nameOf } from '../sync/rel-path.js';

/** How many of them the status lists; the rest are counted by the activity line. */
export const WRITING_SHOWN = 20;
/** More newly found at once than this are told in one line ("Waiting for 40 files…"). */
const TOLD_ONE_BY_ONE = 3;

export class WritingFiles {
  private waiting: readonly string[] = [];

  /** The paths the last cycle found still being written; answers the lines for those new since the last. */
  update(workspaceId: string, waiting: readonly string[], at: Date): ActivityItem[] {
    const before = new Set(this.waiting);
    this.waiting = waiting;
    const fresh = waiting.filter((path) => !before.has(path));
    const line = (path: string | null, message: string): ActivityItem => ({ at: at.toISOString(), workspaceId, kind: 'waiting', path, message });
    if (fresh.length > TOLD_ONE_BY_ONE) return [line(null, `Waiting for ${fresh.length} files to finish writing`)];
    return fresh.map((path) => line(path, `Waiting for ${nameOf(path)} to finish writing`));
  }

  /** The first few of them, for the status. */
  shown(): string[] {
    return this.waiting.slice(0, WRITING_SHOWN);
  }
}
