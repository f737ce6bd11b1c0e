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
}

export interface EngineStatus {
  state: SyncState;
  workspaces: WorkspaceStatus[];
  transfers: TransferProgress[];
  paused: boolean;
}

export type ActivityKind =
  | 'downloaded' | 'uploaded' | 'created' | 'moved' | 'deleted' | 'trashed' | 'conflict' | 'locked'
  | 'error' | 'brake' | 'scan' | 'listing' | 'restored';

export interface ActivityItem {
  at: string;
  workspaceId: string;
  kind: ActivityKind;
  path: string | null;
  message: string;
}

export interface ReviewNotification {
  kind: 'review_request' | 'change_request';
  /** Stable key of the item, to remember it was seen. */
  remoteKey: string;
  workspaceId: string | null;
  assetId: string;
  versionId: string | null;
  assetName: string;
  from: string;
  message: string;
  at: string | null;
}

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
