/**
 * One file's sync state as the Files view shows it, from the three views the engine keeps (what
 * is on disk, what both sides last agreed on, what the service has) and what went wrong with it.
 * Pure: the same inputs always give the same badge.
 */
import type { ProblemKind } from '../../shared/engine.js';
import type { FileSyncState } from '../../shared/ipc.js';
import type { FileStamp } from '../local/stamp.js';
import type { BaseFile, RemoteFile } from '../model/views.js';

export interface FileSides {
  local: FileStamp | undefined;
  base: BaseFile | undefined;
  remote: RemoteFile | undefined;
  /** Never synced: ignored by the rules, or under a folder left out by selective sync. */
  ignored: boolean;
  /** The engine's problem with this path, if any (a failing transfer, a conflict, a lock). */
  problem: ProblemKind | undefined;
  /** Locks held by this user are no locks (null: unknown, every lock counts). */
  selfUserId: string | null;
}

const PROBLEM_STATES: Partial<Record<ProblemKind, FileSyncState>> = { conflict: 'conflict', locked: 'locked', error: 'error', unstable: 'pending-upload' };

export function fileState(s: FileSides): FileSyncState {
  if (s.ignored) return s.local ? 'local-only' : 'remote-only';
  const fromProblem = s.problem && PROBLEM_STATES[s.problem];
  if (fromProblem) return fromProblem;
  const lockedByOther = s.remote?.lockedByUserId != null && s.remote.lockedByUserId !== s.selfUserId;
  const { local, base, remote } = s;
  if (!base) {
    if (local && remote) return local.size === remote.size ? 'pending-download' : 'conflict';
    if (local) return 'pending-upload';
    return 'pending-download';
  }
  const localChanged = !local || local.size !== base.size || local.mtimeNs !== base.mtimeNs;
  const remoteChanged = !remote || remote.versionId !== base.versionId;
  if (localChanged && remoteChanged) return local && remote ? 'conflict' : 'pending-download';
  // A local edit of a file someone else holds cannot be uploaded until they let go.
  if (localChanged) return lockedByOther ? 'locked' : 'pending-upload';
  if (remoteChanged) return 'pending-download';
  return lockedByOther ? 'locked' : 'synced';
}

export interface FolderSides {
  local: boolean;
  synced: boolean;
  remote: boolean;
  /** Left out of this device by selective sync. */
  excluded: boolean;
  ignored: boolean;
  /** The worst problem of anything below it. */
  problem: ProblemKind | undefined;
}

export function folderState(s: FolderSides): FileSyncState {
  if (s.excluded) return 'remote-only';
  if (s.ignored) return 'local-only';
  const fromProblem = s.problem && PROBLEM_STATES[s.problem];
  if (fromProblem) return fromProblem;
  if (s.local && !s.synced && !s.remote) return 'pending-upload';
  if (!s.local) return s.synced ? 'pending-upload' : 'pending-download';
  return 'synced';
}
