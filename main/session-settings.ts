/**
 * The index settings a session writes for later commands (`status`, `versions`) to read. Kept
 * apart from bootstrap.ts so that reading them loads no engine: `asset-sync status` only opens
 * the index.
 */

/** Index settings that let later commands (status, versions) find the service without options. */
export const SERVICE_SETTING = 'service';
export interface ServiceSetting {
  baseUrl: string;
  accountId: string;
}

/** Index setting: per workspace, when the engine last finished a cycle (ISO time). */
export const LAST_SYNC_SETTING = 'lastSyncAt';

/**
 * Index setting: per workspace, the problems of the whole workspace (no path) the engine last
 * reported: the mass-delete brake, a missing marker, an unreachable service. `status` reads them:
 * without them it said "up to date" while the brake held everything back.
 */
export const WORKSPACE_PROBLEMS_SETTING = 'workspaceProblems';

/**
 * Index setting, present while the running Asset Sync is paused: since when, and per workspace the
 * local changes saved since, waiting for the resume. `status` tells it (when that process still
 * holds the root); it said "up to date" over files saved after the pause.
 */
export const PAUSED_SETTING = 'paused';
export interface PausedSetting {
  since: string;
  changes: Record<string, number>;
}
