/**
 * Review and change requests the user has already been told about, so a restart or the next
 * poll does not raise the same desktop notification again.
 */
import type { Db } from './database.js';

export type NotificationKind = 'review_request' | 'change_request';

export interface NotificationKey {
  kind: NotificationKind;
  /**
   * Identifies one notice: the request's id, or a key the caller builds from it. Including the
   * version id makes a request refreshed to a new version a new notice.
   */
  remoteKey: string;
}

export interface SeenNotification extends NotificationKey {
  firstSeenAt: number;
  read: boolean;
}

interface SeenRow {
  kind: NotificationKind;
  remote_key: string;
  first_seen_at: number;
  read: number;
}

const fromRow = (row: SeenRow): SeenNotification => ({
  kind: row.kind,
  remoteKey: row.remote_key,
  firstSeenAt: row.first_seen_at,
  read: row.read === 1,
});

export class NotificationStore {
  private readonly insertStmt;
  private readonly markReadStmt;
  private readonly markAllReadStmt;
  private readonly listStmt;
  private readonly markSeenTx;
  private readonly markReadTx;
  private readonly deleteStmt;
  private readonly pruneTx;

  constructor(db: Db) {
    this.insertStmt = db.prepare<[string, string, number]>(
      'INSERT OR IGNORE INTO notifications (kind, remote_key, first_seen_at) VALUES (?, ?, ?)',
    );
    this.markReadStmt = db.prepare<[string, string]>('UPDATE notifications SET read = 1 WHERE kind = ? AND remote_key = ?');
    this.markAllReadStmt = db.prepare('UPDATE notifications SET read = 1 WHERE read = 0');
    this.listStmt = db.prepare<[], SeenRow>(
      'SELECT kind, remote_key, first_seen_at, read FROM notifications ORDER BY first_seen_at DESC, remote_key',
    );
    this.markSeenTx = db.transaction(<T extends NotificationKey>(items: readonly T[], now: number): T[] =>
      // An insert that changes nothing hit a row already there: seen before (or earlier in this list).
      items.filter((item) => this.insertStmt.run(item.kind, item.remoteKey, now).changes === 1),
    );
    this.markReadTx = db.transaction((items: readonly NotificationKey[], now: number): void => {
      for (const item of items) {
        this.insertStmt.run(item.kind, item.remoteKey, now);
        this.markReadStmt.run(item.kind, item.remoteKey);
      }
    });
    this.deleteStmt = db.prepare<[string, string]>('DELETE FROM notifications WHERE kind = ? AND remote_key = ?');
    this.pruneTx = db.transaction((current: readonly NotificationKey[], before: number): number => {
      const keep = new Set(current.map((c) => `${c.kind}\u0000${c.remoteKey}`));
      let removed = 0;
      for (const row of this.listStmt.all()) {
        if (row.first_seen_at >= before || keep.has(`${row.kind}\u0000${row.remote_key}`)) continue;
        removed += this.deleteStmt.run(row.kind, row.remote_key).changes;
      }
      return removed;
    });
  }

  /**
   * Forgets notices that are no longer current (the request was closed or moved on to another
   * version) once they are older than `before`: the table stays as small as the open requests,
   * and a notice that vanished only for a moment is not raised again.
   */
  prune(current: readonly NotificationKey[], before: number): number {
    return this.pruneTx.immediate(current, before) as number;
  }

  /** Records `items` as seen and returns those never seen before, in their order. */
  markSeen<T extends NotificationKey>(items: readonly T[], now: number = Date.now()): T[] {
    return this.markSeenTx.immediate(items, now) as T[];
  }

  markRead(kind: NotificationKind, remoteKey: string): void {
    this.markReadStmt.run(kind, remoteKey);
  }

  /**
   * Marks `items` read, recording them as seen first: the user may read a request the poll has
   * not reached yet, and it must not come back unread (or as a desktop notification) after it.
   */
  markItemsRead(items: readonly NotificationKey[], now: number = Date.now()): void {
    this.markReadTx.immediate(items, now);
  }

  markAllRead(): void {
    this.markAllReadStmt.run();
  }

  /** Newest first. */
  list(): SeenNotification[] {
    return this.listStmt.all().map(fromRow);
  }

  /** Whether the user marked a request read, answered from one read of the table. */
  readState(): (item: NotificationKey) => boolean {
    const read = new Set(this.list().filter((n) => n.read).map((n) => keyOf(n)));
    return (item) => read.has(keyOf(item));
  }
}

const keyOf = (item: NotificationKey): string => `${item.kind}\n${item.remoteKey}`;
