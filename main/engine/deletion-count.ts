/**
 * What the engine counts for the mass-delete brake: each file deletion a cycle carries out, per
 * side (recent-deletes.ts keeps the count), except those the user confirmed; a confirmation lets
 * the next cycle through and starts the count again.
 */
import type { Action } from '../sync/actions.js';
import type { WorkspaceRuntime } from './workspace-runtime.js';

/** A deletion carried out counts toward the brake, unless it is one the user confirmed. */
export function countDeletion(runtime: WorkspaceRuntime, action: Action): void {
  if (runtime.cycle.state === 'cycle' && runtime.cycle.confirmedDeletions) return;
  if (action.kind === 'delete-remote') runtime.recentDeletes.record('remote');
  if (action.kind === 'delete-local') runtime.recentDeletes.record('local');
}

/** File deletions carried out on each side within RECENT_DELETES_MS, for the mass-delete brake. */
export function recentDeleteCounts(runtime: WorkspaceRuntime | undefined): { local: number; remote: number } {
  return runtime?.recentDeletes.counts() ?? { local: 0, remote: 0 };
}

/**
 * The user confirms the deletions the brake held back: the next cycle carries them out, and the
 * brake guards every cycle after it again.
 */
export function confirmDeletionsOnce(runtime: WorkspaceRuntime): void {
  runtime.nextCycleDeletes = 'confirmed';
  // Confirmed: what went before is part of what the user agreed to.
  runtime.recentDeletes.clear();
}
