/**
 * The conflicts a sync recorded as they are stored (a setting per workspace), and the reads of
 * them. Apart from the executor that writes them (sync/executor/open-conflicts.ts), so that
 * `status` reads them without loading the executor.
 */
import type { SyncIndex } from './sync-index.js';

export interface OpenConflict {
  /** The file both sides changed; the service's version keeps this name. */
  path: string;
  /** Where the local edit was kept. */
  copyPath: string;
  /** When the copy was made (ISO time). */
  at: string;
  /**
   * The user chose to keep both: the copy is a file of its own from now on and the conflict is
   * not reported again. The record stays while the copy is on disk, so the planner still knows
   * the copy as ours (`ownCopies`).
   */
  kept?: boolean;
}

export const conflictsSetting = (workspaceId: string): string => `conflicts:${workspaceId}`;

export function openConflicts(index: SyncIndex, workspaceId: string): OpenConflict[] {
  return index.settings.get<OpenConflict[]>(conflictsSetting(workspaceId)) ?? [];
}

/** The conflicts that wait for the user (not kept as two files). */
export function waitingConflicts(index: SyncIndex, workspaceId: string): OpenConflict[] {
  return openConflicts(index, workspaceId).filter((c) => c.kept !== true);
}
