/**
 * The service out of reach, told as one problem of the whole workspace: when it goes away in the
 * middle of a sync, every transfer in flight fails, and one "could not sync" row per file, each
 * with a raw "ECONNREFUSED" line, hid the one thing to know.
 */
import type { Problem } from '../../../shared/engine.js';
import type { PathError } from '../../index/path-errors.js';
import type { SyncIndex } from '../../index/sync-index.js';

/** The `path_errors.code` of a path that failed because the service could not be reached. */
export const OFFLINE_CODE = 'offline';

export function offlineProblem(waiting: number, nextRetryAt: number): Omit<Problem, 'workspaceId'> & { path: null } {
  return {
    path: null,
    kind: 'offline',
    message: waiting > 1 ? `The service cannot be reached: ${waiting} files wait to be synced.` : 'The service cannot be reached: files wait to be synced.',
    hint: 'Nothing is lost: Asset Sync tries again on its own once the service answers. Check the network if this lasts.',
    nextRetryAt: new Date(nextRetryAt).toISOString(),
  };
}

/** The kind of problem a recorded path error is (its `code` as `recordFailure` stored it). */
export function pathErrorKind(code: string): 'locked' | 'offline' | 'error' {
  if (code === 'asset_locked') return 'locked';
  return code === OFFLINE_CODE ? 'offline' : 'error';
}

/**
 * The service answered again: what failed only because it could not be reached is tried again
 * now, not after a backoff that grew during the outage.
 */
export function retryOfflineNow(index: SyncIndex, workspaceId: string): void {
  index.errors.makeDueWithCode(workspaceId, OFFLINE_CODE);
}

/** The recorded path errors as the user reads them: those of the service out of reach as one problem of the workspace. */
export function pathErrorProblems(pathErrors: readonly PathError[]): Problem[] {
  const offline = pathErrors.filter((e) => e.code === OFFLINE_CODE);
  const fromOffline: Problem[] =
    offline.length === 0 ? [] : [{ workspaceId: offline[0]?.workspaceId ?? '', ...offlineProblem(offline.length, Math.min(...offline.map((e) => e.nextRetryAt))) }];
  const fromPaths = pathErrors.filter((e) => e.code !== OFFLINE_CODE).map(
    (e): Problem => ({
      workspaceId: e.workspaceId,
      path: e.path,
      kind: pathErrorKind(e.code),
      message: e.message,
      attempts: e.attempts,
      nextRetryAt: new Date(e.nextRetryAt).toISOString(),
      hint: 'Asset Sync retries on its own.',
    }),
  );
  return [...fromOffline, ...fromPaths];
}
