/**
 * Both sides changed a file: the local edit steps aside as a conflicted copy (and is uploaded
 * as a new asset), the service's version takes the name. The steps run in order; the first that
 * does not complete stops the rest, and its failure is reported at its own path.
 */
import type { Action, Conflict } from '../actions.js';
import { conflictProblem, recordConflict } from './open-conflicts.js';
import { DONE, recordActivity, reportProblem, type ExecutorDeps, type Outcome } from './context.js';

/** A step that failed, with the path its error belongs to. */
export class StepFailedError extends Error {
  constructor(
    readonly path: string,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'StepFailedError';
  }
}

export async function resolveConflict(
  action: Conflict,
  deps: ExecutorDeps,
  runStep: (step: Action) => Promise<Outcome>,
  stepPath: (step: Action) => string,
): Promise<Outcome> {
  for (const step of action.steps) {
    let outcome: Outcome;
    try {
      outcome = await runStep(step);
    } catch (err) {
      throw new StepFailedError(stepPath(step), err);
    }
    if (outcome !== DONE) return outcome;
    if (step.kind === 'move-local') {
      const open = { path: action.path, copyPath: action.copyPath, at: new Date().toISOString() };
      recordConflict(deps.index, deps.workspaceId, open);
      recordActivity(deps, 'conflict', action.copyPath, `${action.path} was changed on both sides: your edit is kept as ${action.copyPath}`);
      const { workspaceId: _, ...problem } = conflictProblem(deps.workspaceId, open);
      reportProblem(deps, problem);
    }
  }
  return DONE;
}
