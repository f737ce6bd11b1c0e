/**
 * The service out of reach, told as one problem of the whole workspace: when it goes away in the
 * middle of a sync, every transfer in flight fails, and one "could not sync" row per file, each
 * with a raw "ECONNREFUSED" line, hid the one thing to know.
 */
import type { Problem } from '../../../shared/engine.js';

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
