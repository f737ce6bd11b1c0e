/** The activity log the UI shows ("Uploaded hero.psd"), capped so it never grows without bound. */
import type { ActivityItem, ActivityKind } from '../../shared/engine.js';
import type { Db } from './database.js';

export const DEFAULT_ACTIVITY_CAP = 10_000;

export interface ActivityInput {
  /** null for events not tied to one workspace (sign-in, update). */
  workspaceId?: string | null;
  kind: string;
  path?: string | null;
  message: string;
  /** Any JSON value. */
  details?: unknown;
  /** ms since the epoch; now when omitted. */
  at?: number;
}

export interface ActivityEntry {
  id: number;
  at: number;
  workspaceId: string | null;
  kind: string;
  path: string | null;
  message: string;
  details: unknown;
}

export interface ActivityQuery {
  /** Only this workspace's entries. */
  workspaceId?: string;
  /** Entries older than this id (paging back through the log). */
  beforeId?: number;
  limit?: number;
}

interface EntryRow {
  id: number;
  at: number;
  workspace_id: string | null;
  kind: string;
  path: string | null;
  message: string;
  details: string | null;
}

const fromRow = (row: EntryRow): ActivityEntry => ({
  id: row.id,
  at: row.at,
  workspaceId: row.workspace_id,
  kind: row.kind,
  path: row.path,
  message: row.message,
  details: row.details === null ? null : JSON.parse(row.details),
});

export class ActivityLog {
  private readonly insertStmt;
  private readonly pruneStmt;
  private readonly listStmt;
  private readonly addManyTx;

  constructor(
    db: Db,
    /** How many of the newest entries to keep. */
    readonly cap: number = DEFAULT_ACTIVITY_CAP,
  ) {
    this.insertStmt = db.prepare<[number, string | null, string, string | null, string, string | null]>(
      'INSERT INTO activity (at, workspace_id, kind, path, message, details) VALUES (?, ?, ?, ?, ?, ?)',
    );
    // Ids only grow (AUTOINCREMENT), so "older than the newest `cap`" is an id range: a cheap
    // delete on the primary key, run at each write instead of by a timer.
    this.pruneStmt = db.prepare<[number]>('DELETE FROM activity WHERE id <= ?');
    this.listStmt = db.prepare<{ ws: string | null; before: number; limit: number }, EntryRow>(
      `SELECT id, at, workspace_id, kind, path, message, details FROM activity
       WHERE (@ws IS NULL OR workspace_id = @ws) AND id < @before ORDER BY id DESC LIMIT @limit`,
    );
    this.addManyTx = db.transaction((entries: Iterable<ActivityInput>): number => {
      let lastId = 0;
      for (const entry of entries) lastId = this.insert(entry);
      if (lastId > 0) this.pruneStmt.run(lastId - this.cap);
      return lastId;
    });
  }

  /** Returns the new entry's id. */
  add(entry: ActivityInput): number {
    return this.addManyTx.immediate([entry]);
  }

  addMany(entries: Iterable<ActivityInput>): void {
    this.addManyTx.immediate(entries);
  }

  /** Newest first. */
  list(query: ActivityQuery = {}): ActivityEntry[] {
    return this.listStmt
      .all({ ws: query.workspaceId ?? null, before: query.beforeId ?? Number.MAX_SAFE_INTEGER, limit: query.limit ?? 100 })
      .map(fromRow);
  }

  private insert(entry: ActivityInput): number {
    const info = this.insertStmt.run(
      entry.at ?? Date.now(),
      entry.workspaceId ?? null,
      entry.kind,
      entry.path ?? null,
      entry.message,
      entry.details === undefined ? null : JSON.stringify(entry.details),
    );
    return Number(info.lastInsertRowid);
  }
}

/** An item of the engine's feed as a row of the log: the version it names goes in `details`. */
export function activityInput(item: ActivityItem): ActivityInput {
  return {
    workspaceId: item.workspaceId,
    kind: item.kind,
    path: item.path,
    message: item.message,
    at: Date.parse(item.at),
    ...(item.version ? { details: { version: item.version } } : {}),
  };
}

/** A row of the log as the feed shows it; `details` written by an older version are left out. */
export function activityItem(entry: ActivityEntry): ActivityItem {
  const item: ActivityItem = { at: new Date(entry.at).toISOString(), workspaceId: entry.workspaceId ?? '', kind: entry.kind as ActivityKind, path: entry.path, message: entry.message };
  const version = (entry.details as { version?: unknown } | null)?.version;
  if (isVersionRef(version)) item.version = { assetId: version.assetId, versionId: version.versionId, number: version.number ?? null };
  return item;
}

function isVersionRef(value: unknown): value is { assetId: string; versionId: string; number?: number | null } {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.assetId === 'string' && typeof v.versionId === 'string' && (v.number === undefined || v.number === null || typeof v.number === 'number');
}
