/**
 * Operations in flight. The executor writes an entry before it touches anything and removes it
 * once the outcome is recorded; entries still open at start-up are operations a crash
 * interrupted, which the executor resumes or rolls back from what their state says. Transfers
 * of small files keep none: there is nothing to resume, and what a crash leaves of them is
 * found without one (a stray temp file, a commit with the local checksum).
 */
import { pathKey } from '../local/paths.js';
import type { Db } from './database.js';

export type JournalKind = 'upload' | 'download' | 'delete' | 'move';

/** What the executor needs to resume or undo an operation. Keys it does not use stay unset. */
export interface JournalState {
  /** Upload: the key of the signed upload, to commit it without sending the bytes again. */
  uploadKey?: string;
  /** The version the edit started from (conditional commit / conditional delete). */
  parentVersionId?: string;
  checksum?: string;
  size?: number;
  /** Download: the hidden temp file, to resume with `Range`. */
  tempPath?: string;
  bytesDone?: number;
  /** Move: where the item was before. */
  fromPath?: string;
  /** Which side the operation changes, for kinds that exist on both (delete, move). */
  side?: 'local' | 'remote';
  [key: string]: unknown;
}

export interface JournalEntry {
  id: number;
  workspaceId: string;
  kind: JournalKind;
  path: string;
  assetId: string | null;
  state: JournalState;
  startedAt: number;
  updatedAt: number;
}

export interface JournalBegin {
  workspaceId: string;
  kind: JournalKind;
  path: string;
  assetId?: string | null;
  state?: JournalState;
}

export interface JournalPatch {
  /** Merged into the stored state key by key. */
  state?: Partial<JournalState>;
  /** E.g. the id a new asset received on its first commit. */
  assetId?: string | null;
  path?: string;
}

interface EntryRow {
  id: number;
  workspace_id: string;
  kind: string;
  path: string;
  asset_id: string | null;
  state: string;
  started_at: number;
  updated_at: number;
}

const COLUMNS = 'id, workspace_id, kind, path, asset_id, state, started_at, updated_at';

const fromRow = (row: EntryRow): JournalEntry => ({
  id: row.id,
  workspaceId: row.workspace_id,
  kind: row.kind as JournalKind,
  path: row.path,
  assetId: row.asset_id,
  state: JSON.parse(row.state) as JournalState,
  startedAt: row.started_at,
  updatedAt: row.updated_at,
});

export class UnknownJournalEntryError extends Error {
  constructor(readonly entryId: number) {
    super(`no open journal entry ${entryId}`);
    this.name = 'UnknownJournalEntryError';
  }
}

export class JournalStore {
  private readonly insertStmt;
  private readonly getStmt;
  private readonly openStmt;
  private readonly openAtStmt;
  private readonly countOpenStmt;
  private readonly updateStmt;
  private readonly deleteStmt;

  constructor(db: Db) {
    this.insertStmt = db.prepare<[string, string, string, string, string | null, string, number, number], EntryRow>(
      `INSERT INTO journal (workspace_id, kind, path, path_key, asset_id, state, started_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
    );
    this.getStmt = db.prepare<[number], EntryRow>(`SELECT ${COLUMNS} FROM journal WHERE id = ?`);
    this.openStmt = db.prepare<[string], EntryRow>(`SELECT ${COLUMNS} FROM journal WHERE workspace_id = ? ORDER BY id`);
    this.countOpenStmt = db.prepare<[string], number>('SELECT count(*) FROM journal WHERE workspace_id = ?').pluck();
    this.openAtStmt = db.prepare<[string, string, string], EntryRow>(
      `SELECT ${COLUMNS} FROM journal WHERE workspace_id = ? AND kind = ? AND path_key = ? ORDER BY id`,
    );
    // One statement, no read first: the state is merged by SQLite (RFC 7396 merge patch), and
    // patches never carry null, which would delete a key.
    this.updateStmt = db.prepare<[string | null, string | null, number, string | null, string, number, number], EntryRow>(
      `UPDATE journal SET path = coalesce(?, path), path_key = coalesce(?, path_key),
         asset_id = CASE WHEN ? THEN ? ELSE asset_id END, state = json_patch(state, ?), updated_at = ?
       WHERE id = ? RETURNING ${COLUMNS}`,
    );
    this.deleteStmt = db.prepare<[number]>('DELETE FROM journal WHERE id = ?');
  }

  begin(op: JournalBegin, now: number = Date.now()): JournalEntry {
    const row = this.insertStmt.get(op.workspaceId, op.kind, op.path, pathKey(op.path), op.assetId ?? null, JSON.stringify(op.state ?? {}), now, now);
    if (!row) throw new Error('journal insert returned no row');
    return fromRow(row);
  }

  update(id: number, patch: JournalPatch, now: number = Date.now()): JournalEntry {
    const row = this.updateStmt.get(
      patch.path ?? null,
      patch.path === undefined ? null : pathKey(patch.path),
      patch.assetId === undefined ? 0 : 1,
      patch.assetId ?? null,
      JSON.stringify(patch.state ?? {}),
      now,
      id,
    );
    if (!row) throw new UnknownJournalEntryError(id);
    return fromRow(row);
  }

  /** The operation is over (done, or given up): nothing is left to resume. */
  finish(id: number): void {
    this.deleteStmt.run(id);
  }

  get(id: number): JournalEntry | undefined {
    const row = this.getStmt.get(id);
    return row && fromRow(row);
  }

  /** Open entries of `kind` whose path has the same `pathKey` as `path`, oldest first. */
  openAt(workspaceId: string, kind: JournalKind, path: string): JournalEntry[] {
    return this.openAtStmt.all(workspaceId, kind, pathKey(path)).map(fromRow);
  }

  /** Entries still open for the workspace, oldest first. */
  open(workspaceId: string): JournalEntry[] {
    return this.openStmt.all(workspaceId).map(fromRow);
  }

  /** How many entries are open for the workspace. */
  countOpen(workspaceId: string): number {
    return this.countOpenStmt.get(workspaceId) ?? 0;
  }
}
