/**
 * The engine's local index: one SQLite file holding, per workspace, the remote tree as last
 * seen, the synced base, the hash cache, operations in flight, per-path errors, and beside them
 * notifications seen, the activity log and settings.
 *
 * Never store secrets (API key, secret, access tokens) here: the file is readable by anything
 * running as the user and ends up in backups. They live in the OS keychain.
 *
 * Crash safety: every write is a transaction in WAL mode (see database.ts), so a process killed
 * at any point, even mid-batch, leaves the last committed state on the next open.
 */
import { ActivityLog, DEFAULT_ACTIVITY_CAP } from './activity.js';
import { BaseStateStore } from './base-state.js';
import Database from 'better-sqlite3';
import { type Db, openDatabase } from './database.js';
import { type HashCacheAlike, HashCacheStatements, SqliteHashCache } from './hash-cache.js';
import { JournalStore } from './journal.js';
import { migrate } from './migrations.js';
import { NotificationStore } from './notifications.js';
import { QuietCycleStore } from './quiet-cycles.js';
import { type BackoffPolicy, DEFAULT_BACKOFF, PathErrorStore } from './path-errors.js';
import { RemoteStateStore } from './remote-state.js';
import { SettingsStore } from './settings.js';
import { WorkspaceStore } from './workspaces.js';

export interface IndexOptions {
  /** Newest activity entries kept (default 10,000). */
  activityCap?: number;
  /** Retry backoff of failing paths (default: 10 s doubling up to 1 h). */
  backoff?: BackoffPolicy;
  busyTimeoutMs?: number;
}

/** How long a `commitLater` write may wait for others, and how many make the commit go at once. */
const LATER_COMMIT_MS = 50;
const LATER_WRITES_MAX = 128;

interface GroupedWrite {
  fn: () => void;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class SyncIndex {
  readonly workspaces: WorkspaceStore;
  readonly remote: RemoteStateStore;
  readonly base: BaseStateStore;
  readonly journal: JournalStore;
  readonly errors: PathErrorStore;
  readonly notifications: NotificationStore;
  readonly activity: ActivityLog;
  readonly settings: SettingsStore;
  readonly quietCycles: QuietCycleStore;
  private readonly hashCacheStatements: HashCacheStatements;
  private readonly totalChanges;

  /** Takes a migrated database; use `openIndex`. */
  constructor(
    private readonly db: Db,
    options: IndexOptions = {},
  ) {
    this.workspaces = new WorkspaceStore(db);
    this.remote = new RemoteStateStore(db);
    this.base = new BaseStateStore(db);
    this.journal = new JournalStore(db);
    this.errors = new PathErrorStore(db, options.backoff ?? DEFAULT_BACKOFF);
    this.notifications = new NotificationStore(db);
    this.activity = new ActivityLog(db, options.activityCap ?? DEFAULT_ACTIVITY_CAP);
    this.settings = new SettingsStore(db);
    this.quietCycles = new QuietCycleStore(db);
    this.hashCacheStatements = new HashCacheStatements(db);
    this.totalChanges = db.prepare('SELECT total_changes()').pluck();
  }

  /**
   * The scanner's `HashCache` for one workspace (which must exist: rows belong to it). `alike`:
   * the cycle's remote files, whose strings loaded entries share where equal.
   */
  hashCache(workspaceId: string, alike?: HashCacheAlike): SqliteHashCache {
    return new SqliteHashCache(this.hashCacheStatements, workspaceId, alike);
  }

  /**
   * A mark that changes with every write to the index, this connection's (its count of changed
   * rows) or another's (SQLite's `data_version`): equal marks, nothing was written in between.
   */
  writeMark(): string {
    return `${this.db.pragma('data_version', { simple: true }) as number}/${this.totalChanges.get() as number}`;
  }

  /**
   * Runs `fn` as one transaction, so writes that belong together commit together, e.g. a
   * finished download: its base row, the end of its journal entry and the clearing of its
   * error. The stores' own batch writes nest inside it. `fn` must be synchronous.
   */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * Runs `fn` in a transaction shared with the other writes asked for in the same turn of the
   * event loop (a group commit), and resolves once it is committed. For the last write of a
   * finished transfer: 32 small files landing at once cost one commit, not 32. Only for writes
   * whose loss in a crash is harmless (the next run finds the same state by checksum).
   */
  commitSoon(fn: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.grouped.push({ fn, resolve, reject });
      this.commitAtTurnEnd();
    });
  }

  /**
   * `commitSoon` for writes nobody waits on in the meantime (the record of a finished upload, an
   * activity line): committed with the writes of the next few milliseconds, or at once when a
   * `commitSoon` or enough of them wait. Uploads finish one per turn of the event loop, so each
   * turn's commit held one or two of them: a transaction, and its pages written to the WAL
   * again, per small file.
   */
  commitLater(fn: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiting = this.grouped.push({ fn, resolve, reject });
      if (waiting >= LATER_WRITES_MAX) this.commitAtTurnEnd();
      else if (!this.turnEndCommit && this.laterCommit === undefined) this.laterCommit = setTimeout(() => this.commitGrouped(), LATER_COMMIT_MS);
    });
  }

  /** Writes waiting for the next group commit. */
  private grouped: GroupedWrite[] = [];
  private turnEndCommit = false;
  private laterCommit: NodeJS.Timeout | undefined;

  private commitAtTurnEnd(): void {
    if (this.turnEndCommit) return;
    this.turnEndCommit = true;
    setImmediate(() => this.commitGrouped());
  }

  private commitGrouped(): void {
    this.turnEndCommit = false;
    clearTimeout(this.laterCommit);
    this.laterCommit = undefined;
    const batch = this.grouped;
    this.grouped = [];
    if (batch.length === 0) return;
    if (!this.db.open) {
      for (const write of batch) write.reject(new Error('the index was closed before the write was committed'));
      return;
    }
    try {
      this.transaction(() => {
        for (const write of batch) write.fn();
      });
    } catch {
      // One write's failure must not sink the others: each again on its own.
      for (const write of batch) {
        try {
          this.transaction(write.fn);
          write.resolve();
        } catch (err) {
          write.reject(err);
        }
      }
      return;
    }
    for (const write of batch) write.resolve();
  }

  get isOpen(): boolean {
    return this.db.open;
  }

  close(): void {
    if (!this.db.open) return;
    this.commitGrouped();
    // Lets SQLite refresh its query planner statistics where they went stale; cheap when not.
    this.db.pragma('optimize');
    this.db.close();
  }
}

/**
 * A migration that rebuilds tables, or a removed workspace, leaves their pages free: the file
 * keeps its size (95 MiB for an upgraded 100,000-asset index that needs 38) until it is vacuumed.
 * Vacuuming rewrites the whole file, so it is done only when most of it is free. Another
 * connection in the middle of a transaction makes it wait for the next start.
 */
function vacuumIfMostlyFree(db: Db): void {
  const free = db.pragma('freelist_count', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  if (free * 2 <= pages) return;
  try {
    db.exec('VACUUM');
  } catch (error) {
    if (!(error instanceof Database.SqliteError && error.code.startsWith('SQLITE_BUSY'))) throw error;
  }
}

/** Opens (creating if needed) the index at `filePath`, or `':memory:'`, and migrates it. */
export function openIndex(filePath: string, options: IndexOptions = {}): SyncIndex {
  const db = openDatabase(filePath, options);
  try {
    migrate(db);
    vacuumIfMostlyFree(db);
    return new SyncIndex(db, options);
  } catch (err) {
    db.close();
    throw err;
  }
}
