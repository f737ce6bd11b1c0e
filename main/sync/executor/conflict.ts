/**
 * Both sides changed a file: the local edit steps aside as a conflicted copy (and is uploaded
 * as a new asset), the service's version takes the name. The steps run in order; the first that
 * does not complete stops the rest, and its failure is reported at its own path.
 */
import type { Action, Conflict } from '../actions.js';
import { conflictProblem, forgetConflict, recordConflict } from './open-conflicts.js';
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
  const [move, ...rest] = action.steps;
  const open = { path: action.path, copyPath: action.copyPath, at: new Date().toISOString() };
  // The copy is ours from the moment it exists: recorded before the edit moves aside, so a
  // conflict stopped at a later step never reads as the user renaming the original.
  recordConflict(deps.index, deps.workspaceId, open);
  const moved = await runOne(move, runStep, stepPath).catch((err: unknown) => {
    forgetConflict(deps.index, deps.workspaceId, action.copyPath);
    throw err;
  });
  if (moved !== DONE) {
    forgetConflict(deps.index, deps.workspaceId, action.copyPath);
    return moved;
  }
  recordActivity(deps, 'conflict', action.copyPath, `${action.path} was changed on both sides: your edit is kept as ${action.copyPath}`);
  const { workspaceId: _, ...problem } = conflictProblem(deps.workspaceId, open);
  reportProblem(deps, problem);
  for (const step of rest) {
    const outcome = await runOne(step, runStep, stepPath);
    if (outcome !== DONE) return outcome;
  }
  return DONE;
}

async function runOne(step: Action, runStep: (step: Action) => Promise<Outcome>, stepPath: (step: Action) => string): Promise<Outcome> {
  try {
    return await runStep(step);
  } catch (err) {
    throw new StepFailedError(stepPath(step), err);
  }
}
