/**
 * The executor as the rest of the app sees it: run a plan, finish what a crash interrupted,
 * carry out the user's choice about a conflict, and read back what it keeps in the index (open
 * conflicts, paths waiting for the service). How it does each stays inside this folder, free to
 * change: outside main/sync/, lint allows no other import from it.
 */
export type { ExecutorDeps } from './context.js';
export { executePlan, recoverJournal, removeLeftoverTemps, tidyBeforePlan, type ExecutionResult } from './execute-plan.js';
export { applyConflictChoice, ConflictNotFoundError, CopyChangingError, TheirsUnknownError, type ConflictResolution, type KeepSide } from './conflict-choice.js';
export { ownCopies, stillOpen, waitingConflicts, type OpenConflict } from './open-conflicts.js';
export { pathErrorKind, pathErrorProblems, retryOfflineNow } from './offline.js';
