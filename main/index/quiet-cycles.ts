/**
 * The record of each workspace's last cycle that planned nothing, kept with the index's count of
 * writes at that moment (migration 9 counts every row written to what a cycle plans from, by any
 * connection). A fresh process whose count is the same knows the index holds exactly what that
 * cycle saw, without reading it. The record itself is not counted.
 */
import type { Db } from './database.js';

export interface StoredQuietCycle<T> {
  /** The index's write count when the record was kept. */
  writes: number;
  record: T;
}

export class QuietCycleStore {
  private readonly countStmt;
  private readonly getStmt;
  private readonly putStmt;
  private readonly saveTx;

  constructor(db: Db) {
    this.countStmt = db.prepare<[], number>('SELECT n FROM index_writes').pluck();
    this.getStmt = db.prepare<[string], string>('SELECT memo FROM quiet_cycles WHERE workspace_id = ?').pluck();
    this.putStmt = db.prepare<[string, string]>('INSERT OR REPLACE INTO quiet_cycles (workspace_id, memo) VALUES (?, ?)');
    // The count and the record in one write transaction: no other connection's write falls between.
    this.saveTx = db.transaction((workspaceId: string, record: unknown) => {
      const stored: StoredQuietCycle<unknown> = { writes: this.writeCount(), record };
      this.putStmt.run(workspaceId, JSON.stringify(stored));
    });
  }

  /** Rows written so far to what a cycle plans from, by any connection, across restarts. */
  writeCount(): number {
    return this.countStmt.get() ?? 0;
  }

  /** Keeps `record` (JSON) for the workspace, as of the write count now. */
  save(workspaceId: string, record: unknown): void {
    this.saveTx.immediate(workspaceId, record);
  }

  /** The record kept for the workspace, if any; the caller checks its shape. */
  load<T>(workspaceId: string): StoredQuietCycle<T> | undefined {
    const memo = this.getStmt.get(workspaceId);
    return memo === undefined ? undefined : (JSON.parse(memo) as StoredQuietCycle<T>);
  }
}
