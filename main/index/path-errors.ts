/**
 * Per-path failures with a retry backoff (Nextcloud's blacklist): a file that
 * keeps failing waits longer and longer between attempts, and never holds up the others.
 */
import { pathKey } from '../local/paths.js';
import type { Db } from './database.js';

export interface BackoffPolicy {
  /** Wait after the first failure. */
  initialMs: number;
  /** Longest wait, however many failures. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 10_000, maxMs: 60 * 60 * 1000 };

/** Wait before the next attempt after `attempts` failures in a row: doubles from `initialMs`, capped. */
export function retryDelayMs(attempts: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const doublings = Math.max(0, attempts - 1);
  // 2^31 ms is weeks: beyond that the cap applies anyway, and the exponent stays finite.
  return Math.min(policy.initialMs * 2 ** Math.min(doublings, 31), policy.maxMs);
}

export interface PathErrorInput {
  /** A stable code to branch on (`asset_locked`, `EACCES`, ...); `unknown` when absent. */
  code?: string | undefined;
  message: string;
}

export interface PathError {
  workspaceId: string;
  path: string;
  code: string;
  message: string;
  /** Failures in a row. */
  attempts: number;
  firstFailedAt: number;
  lastFailedAt: number;
  nextRetryAt: number;
}

interface ErrorRow {
  workspace_id: string;
  path: string;
  code: string;
  message: string;
  attempts: number;
  first_failed_at: number;
  last_failed_at: number;
  next_retry_at: number;
}

const COLUMNS = 'workspace_id, path, code, message, attempts, first_failed_at, last_failed_at, next_retry_at';

const fromRow = (row: ErrorRow): PathError => ({
  workspaceId: row.workspace_id,
  path: row.path,
  code: row.code,
  message: row.message,
  attempts: row.attempts,
  firstFailedAt: row.first_failed_at,
  lastFailedAt: row.last_failed_at,
  nextRetryAt: row.next_retry_at,
});

export class PathErrorStore {
  private readonly getStmt;
  private readonly upsertStmt;
  private readonly deleteStmt;
  private readonly existsStmt;
  private readonly deleteAllStmt;
  private readonly dueStmt;
  private readonly listStmt;
  private readonly makeDueStmt;
  private readonly makeDueCodeStmt;
  private readonly notDueStmt;
  private readonly recordTx;

  constructor(
    db: Db,
    private readonly policy: BackoffPolicy = DEFAULT_BACKOFF,
  ) {
    this.getStmt = db.prepare<[string, string], ErrorRow>(
      `SELECT ${COLUMNS} FROM path_errors WHERE workspace_id = ? AND path_key = ?`,
    );
    this.upsertStmt = db.prepare<[string, string, string, string, string, number, number, number, number]>(
      `INSERT OR REPLACE INTO path_errors
         (workspace_id, path_key, path, code, message, attempts, first_failed_at, last_failed_at, next_retry_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.deleteStmt = db.prepare<[string, string]>('DELETE FROM path_errors WHERE workspace_id = ? AND path_key = ?');
    this.existsStmt = db.prepare<[string, string], { found: number }>('SELECT 1 AS found FROM path_errors WHERE workspace_id = ? AND path_key = ?');
    this.deleteAllStmt = db.prepare<[string]>('DELETE FROM path_errors WHERE workspace_id = ?');
    this.dueStmt = db.prepare<[string, number], ErrorRow>(
      `SELECT ${COLUMNS} FROM path_errors WHERE workspace_id = ? AND next_retry_at <= ? ORDER BY next_retry_at, path`,
    );
    this.listStmt = db.prepare<[string], ErrorRow>(`SELECT ${COLUMNS} FROM path_errors WHERE workspace_id = ? ORDER BY path`);
    this.makeDueStmt = db.prepare<[number, string, number]>('UPDATE path_errors SET next_retry_at = ? WHERE workspace_id = ? AND next_retry_at > ?');
    this.makeDueCodeStmt = db.prepare<[number, string, string, number]>('UPDATE path_errors SET next_retry_at = ? WHERE workspace_id = ? AND code = ? AND next_retry_at > ?');
    this.notDueStmt = db.prepare<[string, number], { path_key: string; next_retry_at: number }>(
      'SELECT path_key, next_retry_at FROM path_errors WHERE workspace_id = ? AND next_retry_at > ?',
    );
    this.recordTx = db.transaction((workspaceId: string, path: string, err: PathErrorInput, now: number): PathError => {
      const previous = this.get(workspaceId, path);
      const attempts = (previous?.attempts ?? 0) + 1;
      const next: PathError = {
        workspaceId,
        path,
        code: err.code ?? 'unknown',
        message: err.message,
        attempts,
        firstFailedAt: previous?.firstFailedAt ?? now,
        lastFailedAt: now,
        nextRetryAt: now + retryDelayMs(attempts, this.policy),
      };
      this.upsertStmt.run(
        workspaceId,
        pathKey(path),
        next.path,
        next.code,
        next.message,
        next.attempts,
        next.firstFailedAt,
        next.lastFailedAt,
        next.nextRetryAt,
      );
      return next;
    });
  }

  /** Notes one more failure of `path` and schedules its next attempt. */
  record(workspaceId: string, path: string, err: PathErrorInput, now: number = Date.now()): PathError {
    return this.recordTx.immediate(workspaceId, path, err, now);
  }

  get(workspaceId: string, path: string): PathError | undefined {
    const row = this.getStmt.get(workspaceId, pathKey(path));
    return row && fromRow(row);
  }

  /** The path synced: forget its failures. */
  clear(workspaceId: string, path: string): void {
    const key = pathKey(path);
    // Called after every completed action, nearly always with nothing to clear: a read costs
    // far less than a write transaction.
    if (this.existsStmt.get(workspaceId, key) !== undefined) this.deleteStmt.run(workspaceId, key);
  }

  /** "Retry all now". */
  clearAll(workspaceId: string): void {
    this.deleteAllStmt.run(workspaceId);
  }

  /**
   * Makes every failing path due now, keeping its count of failures (so its backoff goes on
   * growing if it fails again): for a start or a `sync --once`, which the user asked for now.
   */
  makeDue(workspaceId: string, now: number = Date.now()): void {
    this.makeDueStmt.run(now, workspaceId, now);
  }

  /** Makes the failures with this code due now (the service answers again: what waited for it goes). */
  makeDueWithCode(workspaceId: string, code: string, now: number = Date.now()): void {
    this.makeDueCodeStmt.run(now, workspaceId, code, now);
  }

  /** The paths still waiting out their backoff at `now`: pathKey → when they are due. */
  notYetDue(workspaceId: string, now: number = Date.now()): Map<string, number> {
    return new Map(this.notDueStmt.all(workspaceId, now).map((row) => [row.path_key, row.next_retry_at]));
  }

  /** Paths whose wait is over at `now`, longest-waiting first. */
  due(workspaceId: string, now: number = Date.now()): PathError[] {
    return this.dueStmt.all(workspaceId, now).map(fromRow);
  }

  list(workspaceId: string): PathError[] {
    return this.listStmt.all(workspaceId).map(fromRow);
  }
}
