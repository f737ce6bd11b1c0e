/**
 * What the sync engine tells its hosts (the command line, the Electron main process, the
 * headless UI): its status and its events. Declared once here; the IPC contract reuses it.
 */

/** Overall state, in the order a user cares about: anything pending is never "up to date". */
export type SyncState = 'starting' | 'scanning' | 'listing' | 'syncing' | 'up-to-date' | 'paused' | 'offline' | 'attention' | 'stopped';

export type TransferDirection = 'download' | 'upload';

export interface TransferProgress {
  id: string;
  workspaceId: string;
  path: string;
  direction: TransferDirection;
  bytesDone: number;
  bytesTotal: number;
  /** Bytes per second over the last few seconds. */
  speed: number;
  /** Seconds left at the current speed; null when unknown. */
  etaSeconds: number | null;
  state: 'queued' | 'active' | 'done' | 'failed';
}

/**
 * `not_synced`: left out by design (a symbolic link, a FIFO). `degraded`: sync works, less well
 * (the service's changes feed cannot be read, so changes come slower). Both are told, never a
 * failure: see `isNotice`.
 */
export type ProblemKind = 'error' | 'conflict' | 'locked' | 'brake' | 'marker' | 'auth' | 'offline' | 'unstable' | 'not_synced' | 'degraded';

/** A problem that is only told: it needs nothing of the user and fails no sync. */
export const isNotice = (problem: { kind: ProblemKind }): boolean => problem.kind === 'not_synced' || problem.kind === 'degraded';

const NEEDS_USER: ReadonlySet<ProblemKind> = new Set(['error', 'brake', 'marker', 'auth', 'locked', 'conflict']);

/**
 * A problem that waits for the user: it makes the state "needs attention", never "up to date".
 * A conflict is one: both versions are kept and synced, but which one is the work is the user's
 * call, and "Up to date" beside two versions of a file told them nothing was left to do.
 */
export const needsUser = (problem: { kind: ProblemKind }): boolean => NEEDS_USER.has(problem.kind);

/** "2 conflicts to resolve" when conflicts are all that wait for the user, else null. */
export function conflictsWaiting(problems: ReadonlyArray<{ kind: ProblemKind }>): string | null {
  const waiting = problems.filter(needsUser);
  if (waiting.length === 0 || waiting.some((p) => p.kind !== 'conflict')) return null;
  return `${waiting.length} conflict${waiting.length === 1 ? '' : 's'} to resolve`;
}

/** Something that needs the user, or will be retried: one per path, with what to do. */
export interface Problem {
  workspaceId: string;
  path: string | null;
  kind: ProblemKind;
  message: string;
  /** What the user can do about it, in words. */
  hint?: string | undefined;
  attempts?: number | undefined;
  nextRetryAt?: string | null | undefined;
}

export interface PendingCounts {
  downloads: number;
  uploads: number;
  deletes: number;
  moves: number;
  conflicts: number;
}

export interface WorkspaceStatus {
  workspaceId: string;
  name: string;
  folder: string;
  state: SyncState;
  pending: PendingCounts;
  /**
   * While sync is paused: files added, changed or deleted on this computer since the pause,
   * waiting for the resume (absent or 0: none, or not paused).
   */
  pausedChanges?: number;
  files: number;
  lastSyncAt: string | null;
  problems: Problem[];
  /**
   * Files still being written (changed within the last moments): uploaded once they stop
   * changing. The first few, by path; absent or empty: none.
   */
  writing?: string[];
}

export interface EngineStatus {
  state: SyncState;
  workspaces: WorkspaceStatus[];
  transfers: TransferProgress[];
  paused: boolean;
}

export type ActivityKind =
  | 'downloaded' | 'uploaded' | 'created' | 'moved' | 'deleted' | 'trashed' | 'conflict' | 'locked'
  | 'error' | 'brake' | 'scan' | 'listing' | 'restored' | 'resolved' | 'unlocked' | 'waiting';

export interface ActivityItem {
  at: string;
  workspaceId: string;
  kind: ActivityKind;
  path: string | null;
  message: string;
  /**
   * The version the entry is about, when it is one (a download, an upload, a restore): the feed
   * names its number, who made it and its note, looked up when shown (`describeVersions`).
   */
  version?: { assetId: string; versionId: string; number: number | null };
}

export interface ReviewNotification {
  kind: 'review_request' | 'change_request';
  /** Stable key of the item, to remember it was seen. */
  remoteKey: string;
  workspaceId: string | null;
  assetId: string;
  versionId: string | null;
  /** The number of the version in question, when the service says. */
  versionNumber?: number | null;
  /** The asset's folder on the service ('' at the top), when the service says. */
  folder?: string | null;
  assetName: string;
  from: string;
  message: string;
  at: string | null;
}

/** How a new review or change request is announced: who, and about what. */
export const reviewTitle = (item: Pick<ReviewNotification, 'kind' | 'from' | 'assetName'>): string =>
  item.kind === 'review_request' ? `${item.from} asks you to review ${item.assetName}` : `${item.from} reviewed ${item.assetName}`;

export interface EngineEvents {
  status: [EngineStatus];
  transfer: [TransferProgress];
  activity: [ActivityItem];
  problem: [Problem];
  review: [ReviewNotification];
}

export interface SyncReport {
  workspaces: Array<{
    workspaceId: string;
    downloaded: number;
    uploaded: number;
    deleted: number;
    moved: number;
    conflicts: number;
    failed: number;
    problems: Problem[];
  }>;
  /** True when everything converged with no problem left. */
  ok: boolean;
}
