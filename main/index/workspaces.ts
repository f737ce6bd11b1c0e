/** The workspaces this device syncs, each bound to one local folder. */
import type { Db } from './database.js';

export interface WorkspaceRecord {
  id: string;
  accountId: string;
  name: string;
  /** Absolute path of the local folder this workspace syncs into. */
  localPath: string;
  /** Remote change cursor (`GET /workspaces/changes?since=`), as the service gave it; null until the first full listing. */
  sequence: string | null;
  /** When the last full listing was applied, ms since the epoch. */
  lastFullListingAt: number | null;
  /** Selective sync: folders (relative paths) this device does not sync. */
  excludedPaths: string[];
  paused: boolean;
}

export type NewWorkspace = Pick<WorkspaceRecord, 'id' | 'accountId' | 'name' | 'localPath'> &
  Partial<Pick<WorkspaceRecord, 'excludedPaths' | 'paused'>>;

/** What a user may change; the cursor moves only with the remote state it describes (remote-state.ts). */
export type WorkspacePatch = Partial<Pick<WorkspaceRecord, 'accountId' | 'name' | 'localPath' | 'excludedPaths' | 'paused'>>;

interface WorkspaceRow {
  id: string;
  account_id: string;
  name: string;
  local_path: string;
  cursor: string | null;
  last_full_listing_at: number | null;
  excluded_paths: string;
  paused: number;
}

const COLUMNS = 'id, account_id, name, local_path, cursor, last_full_listing_at, excluded_paths, paused';

function fromRow(row: WorkspaceRow): WorkspaceRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    localPath: row.local_path,
    sequence: row.cursor,
    lastFullListingAt: row.last_full_listing_at,
    excludedPaths: JSON.parse(row.excluded_paths) as string[],
    paused: row.paused === 1,
  };
}

export class UnknownWorkspaceError extends Error {
  constructor(readonly workspaceId: string) {
    super(`unknown workspace ${workspaceId}`);
    this.name = 'UnknownWorkspaceError';
  }
}

export class WorkspaceStore {
  private readonly insertStmt;
  private readonly getStmt;
  private readonly listStmt;
  private readonly updateStmt;
  private readonly deleteStmt;
  private readonly updateTx;

  constructor(db: Db) {
    this.insertStmt = db.prepare<[string, string, string, string, string, number]>(
      // `num` names the workspace in the per-asset tables (compact-values.ts). A number freed by
      // a removed workspace may be given again: its rows went with it.
      `INSERT INTO workspaces (id, account_id, name, local_path, excluded_paths, paused, num)
       VALUES (?, ?, ?, ?, ?, ?, (SELECT coalesce(max(num), 0) + 1 FROM workspaces))`,
    );
    this.getStmt = db.prepare<[string], WorkspaceRow>(`SELECT ${COLUMNS} FROM workspaces WHERE id = ?`);
    this.listStmt = db.prepare<[], WorkspaceRow>(`SELECT ${COLUMNS} FROM workspaces ORDER BY name, id`);
    this.updateStmt = db.prepare<[string, string, string, string, number, string]>(
      'UPDATE workspaces SET account_id = ?, name = ?, local_path = ?, excluded_paths = ?, paused = ? WHERE id = ?',
    );
    this.deleteStmt = db.prepare<[string]>('DELETE FROM workspaces WHERE id = ?');
    this.updateTx = db.transaction((id: string, patch: WorkspacePatch): WorkspaceRecord => {
      const next = { ...this.require(id), ...definedOnly(patch) };
      this.updateStmt.run(next.accountId, next.name, next.localPath, JSON.stringify(next.excludedPaths), next.paused ? 1 : 0, id);
      return next;
    });
  }

  add(ws: NewWorkspace): WorkspaceRecord {
    const excludedPaths = ws.excludedPaths ?? [];
    const paused = ws.paused ?? false;
    this.insertStmt.run(ws.id, ws.accountId, ws.name, ws.localPath, JSON.stringify(excludedPaths), paused ? 1 : 0);
    return { ...ws, excludedPaths, paused, sequence: null, lastFullListingAt: null };
  }

  get(id: string): WorkspaceRecord | undefined {
    const row = this.getStmt.get(id);
    return row && fromRow(row);
  }

  require(id: string): WorkspaceRecord {
    const ws = this.get(id);
    if (!ws) throw new UnknownWorkspaceError(id);
    return ws;
  }

  list(): WorkspaceRecord[] {
    return this.listStmt.all().map(fromRow);
  }

  update(id: string, patch: WorkspacePatch): WorkspaceRecord {
    return this.updateTx.immediate(id, patch);
  }

  /** Forgets the workspace and, by cascade, everything the index holds about it. */
  remove(id: string): void {
    this.deleteStmt.run(id);
  }
}

/** Drops keys set to undefined, so `{ paused: undefined }` leaves `paused` as it was. */
function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}
