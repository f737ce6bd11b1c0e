/**
 * Runs a plan: in the planner's order, with barriers between its batches.
 * Folder creations, moves, deletions and bookkeeping run one at a time in order (shallow to
 * deep, deep to shallow, as planned); a run of transfers runs concurrently through the
 * transfer queue, which holds each direction to its limit. One failing path never stalls the
 * others: its error is recorded (with retry backoff) and reported, and the plan goes on.
 */
import { pathKey } from '../../local/paths.js';
import { actionPath, assertNever, type Action } from '../actions.js';
import { createLocalFolder, createRemoteFolder } from './folders.js';
import { forgetBase, forgetFolderBase, locked, recordBase, recordFolderBase } from './bookkeeping.js';
import { StepFailedError, resolveConflict } from './conflict.js';
import { DONE, recordActivity, reportProblem, type ExecutorDeps, type Outcome } from './context.js';
import { deleteLocal, deleteLocalFolder, deleteRemote, deleteRemoteFolder } from './deletes.js';
import { download } from './download.js';
import { errorCode, errorMessage, failureMessage, problemKindOf } from './failures.js';
import { OFFLINE_CODE, offlineProblem } from './offline.js';
import { moveLocal, moveRemote } from './moves.js';
import { upload } from './upload.js';
import { discardDownload } from './journal-entries.js';
import { LateRecords } from './late-records.js';

export type { ExecutorDeps } from './context.js';
export { recoverJournal, removeLeftoverTemps } from './recovery.js';

export interface ExecutionResult {
  /** Actions that completed. */
  done: number;
  failed: Array<{ path: string; error: Error }>;
  downloaded: number;
  uploaded: number;
  deleted: number;
  moved: number;
  conflicts: number;
  locked: number;
  /** Left for the next cycle on purpose (a file still changing, a remote change meanwhile, a lock). */
  deferred: number;
  /** Not tried: the path failed before and its retry backoff is not over (`ExecutorDeps.backoff`). */
  backedOff: number;
}

const TRANSFERS: ReadonlySet<Action['kind']> = new Set(['download', 'upload-new', 'upload-version', 'conflict']);
const isTransfer = (action: Action): boolean => TRANSFERS.has(action.kind);

export async function executePlan(actions: readonly Action[], planDeps: ExecutorDeps): Promise<ExecutionResult> {
  const deps: ExecutorDeps = { ...planDeps, renamed: new Map(), lateRecords: new LateRecords() };
  const result: ExecutionResult = { done: 0, failed: [], downloaded: 0, uploaded: 0, deleted: 0, moved: 0, conflicts: 0, locked: 0, deferred: 0, backedOff: 0 };
  let at = 0;
  while (at < actions.length && !deps.signal?.aborted) {
    const action = actions[at] as Action;
    if (action.kind === 'create-remote-folder') {
      // Folders of one depth cannot contain each other: they are made together, a round trip
      // each. One at a time, a 200-folder tree took 10 s with the service 50 ms away.
      let end = at;
      const depth = depthOf(action.path);
      while (end < actions.length && actions[end]?.kind === 'create-remote-folder' && depthOf(actionPath(actions[end] as Action)) === depth) end++;
      await runConcurrently(actions, at, end, FOLDERS_AT_ONCE, deps, result);
      at = end;
      continue;
    }
    if (!isTransfer(action)) {
      await runOne(action, deps, result);
      at++;
      continue;
    }
    let end = at;
    while (end < actions.length && isTransfer(actions[end] as Action)) end++;
    await runTransfers(actions, at, end, deps, result);
    at = end;
  }
  return result;
}

/**
 * Transfers run concurrently; the queue decides how many move bytes at once. Only a few more
 * than its slots are started, so a plan of 100,000 downloads does not open 100,000 journal
 * entries up front. Both directions' slots count: fewer ready downloads (only the download
 * slots and a few) left slots idle while the next ones were prepared behind the disk's work,
 * and a 100,000-file download took a sixth longer.
 */
async function runTransfers(actions: readonly Action[], from: number, to: number, deps: ExecutorDeps, result: ExecutionResult): Promise<void> {
  const slots = deps.queue.slotsFor('download') + deps.queue.slotsFor('upload');
  try {
    await runConcurrently(actions, from, to, Math.max(8, slots + 8), deps, result);
  } finally {
    await settleLateRecords(deps, result);
  }
}

/**
 * Waits for the records of the finished uploads (late-records.ts). One that failed fails its
 * path, retried later: the upload is on the service, and the next plan records it by checksum.
 */
async function settleLateRecords(deps: ExecutorDeps, result: ExecutionResult): Promise<void> {
  const failures = await deps.lateRecords?.settle(() => void deps.index.commitSoon(() => undefined).catch(() => undefined));
  // A shutdown is not the file's fault: the next start records what landed.
  if (deps.signal?.aborted) return;
  for (const { path, error } of failures ?? []) {
    result.done--;
    result.uploaded--;
    recordFailure(deps, result, path, error);
  }
}

/** Remote folders created at once (each is one API call on the shared connections). */
const FOLDERS_AT_ONCE = 8;

const depthOf = (path: string): number => path.split('/').length;

/**
 * Runs `actions[from..to)` in plan order, at most `concurrency` at once, taking each from the
 * plan when a place is free: no job list or promise per action up front. Like `runPool`, it
 * starts nothing after a failure or an abort; an abort ends it quietly (the caller stops).
 */
function runConcurrently(actions: readonly Action[], from: number, to: number, concurrency: number, deps: ExecutorDeps, result: ExecutionResult): Promise<void> {
  return new Promise((resolve, reject) => {
    let next = from;
    let active = 0;
    let over = false;
    const end = (): void => {
      over = true;
      resolve();
    };
    const fail = (err: unknown): void => {
      if (over) return;
      if (deps.signal?.aborted) return end();
      over = true;
      reject(err);
    };
    const pump = (): void => {
      if (over) return;
      if (deps.signal?.aborted) return end();
      while (active < concurrency && next < to) {
        const action = actions[next++] as Action;
        active++;
        runOne(action, deps, result).then(() => {
          active--;
          pump();
        }, fail);
      }
      if (active === 0 && next >= to) end();
    };
    pump();
  });
}

async function runOne(action: Action, deps: ExecutorDeps, result: ExecutionResult): Promise<void> {
  if (deps.backoff !== undefined && deps.backoff.size > 0 && (deps.backoff.get(pathKey(actionPath(action))) ?? 0) > Date.now()) {
    result.backedOff++;
    return;
  }
  let outcome: Outcome;
  try {
    outcome = await runAction(action, deps);
  } catch (err) {
    // A shutdown is not the file's fault: nothing to record, the next start picks it up.
    if (deps.signal?.aborted) return;
    const failure = err instanceof StepFailedError ? err : new StepFailedError(actionPath(action), err);
    recordFailure(deps, result, failure.path, failure.cause);
    return;
  }
  if (outcome === DONE) {
    for (const path of pathsOf(action)) deps.index.errors.clear(deps.workspaceId, path);
    deps.onDone?.(action);
  }
  tally(result, action, outcome, deps);
}

/**
 * Before a plan runs, what earlier cycles left and the plan no longer carries on: failures of
 * paths it does not touch are forgotten, and interrupted downloads it no longer makes are
 * dropped. `held`: the deletions the brake held back, still to do, so their failures stand.
 */
export async function tidyBeforePlan(
  deps: Pick<ExecutorDeps, 'index' | 'workspaceId' | 'root'>,
  plan: { actions: readonly Action[]; held: readonly Action[] },
  stillOpen: readonly string[],
): Promise<void> {
  forgetSettledFailures(deps.index, deps.workspaceId, [plan.actions, plan.held], stillOpen);
  await discardUnplannedDownloads(deps, plan.actions);
}

/**
 * Forgets the failures of paths the plan has nothing for any more (the file was renamed or
 * deleted meanwhile, on either side): only a completed action clears a failure, so without this
 * a file that is gone would be reported as failing for ever. `stillOpen`: paths held back this
 * cycle, whose failures stand.
 */
function forgetSettledFailures(index: ExecutorDeps['index'], workspaceId: string, lists: ReadonlyArray<readonly Action[]>, stillOpen: readonly string[]): void {
  const failures = index.errors.list(workspaceId);
  // Usually none: a set of every planned path (100,000 in a first download) would be garbage.
  if (failures.length === 0) return;
  const open = new Set(stillOpen.map((p) => pathKey(p)));
  for (const actions of lists) for (const action of actions) for (const p of pathsOf(action)) open.add(pathKey(p));
  for (const failure of failures) {
    if (!open.has(pathKey(failure.path))) index.errors.clear(workspaceId, failure.path);
  }
}

/**
 * A download interrupted earlier keeps its temp file so the next attempt resumes it with Range.
 * When the plan no longer downloads that path (the asset changed, moved or went away
 * meanwhile), nothing would ever pick the temp file up again: drop it and its journal entry.
 */
async function discardUnplannedDownloads(deps: Pick<ExecutorDeps, 'index' | 'workspaceId' | 'root'>, actions: readonly Action[]): Promise<void> {
  const interrupted = deps.index.journal.open(deps.workspaceId).filter((entry) => entry.kind === 'download');
  if (interrupted.length === 0) return;
  const downloading = new Set<string>();
  for (const a of actions) {
    if (a.kind === 'download') downloading.add(pathKey(a.path));
    else if (a.kind === 'conflict') downloading.add(pathKey(a.steps[2].path));
  }
  for (const entry of interrupted) {
    if (!downloading.has(pathKey(entry.path))) await discardDownload(deps, entry);
  }
}

/** Every path an action settles: their failures are forgotten once it succeeds. */
function pathsOf(action: Action): string[] {
  if (action.kind === 'move-local' || action.kind === 'move-remote') return [action.from, action.to];
  if (action.kind === 'conflict') return [action.path, ...action.steps.flatMap(pathsOf)];
  return [actionPath(action)];
}

function runAction(action: Action, deps: ExecutorDeps): Promise<Outcome> {
  deps.logger.debug({ action: action.kind, path: actionPath(action), reason: action.reason }, 'running action');
  switch (action.kind) {
    case 'create-local-folder':
      return createLocalFolder(action, deps);
    case 'create-remote-folder':
      return createRemoteFolder(action, deps);
    case 'move-local':
      return moveLocal(action, deps);
    case 'move-remote':
      return moveRemote(action, deps);
    case 'delete-local':
      return deleteLocal(action, deps);
    case 'delete-remote':
      return deleteRemote(action, deps);
    case 'delete-local-folder':
      return deleteLocalFolder(action, deps);
    case 'delete-remote-folder':
      return deleteRemoteFolder(action, deps);
    case 'download':
      return download(action, deps);
    case 'upload-new':
    case 'upload-version':
      return upload(action, deps);
    case 'conflict':
      return resolveConflict(action, deps, (step) => runAction(step, deps), actionPath);
    case 'record-base':
      return Promise.resolve(recordBase(action, deps));
    case 'forget-base':
      return Promise.resolve(forgetBase(action, deps));
    case 'record-folder-base':
      return Promise.resolve(recordFolderBase(action, deps));
    case 'forget-folder-base':
      return Promise.resolve(forgetFolderBase(action, deps));
    case 'locked':
      return Promise.resolve(locked(action, deps));
    default:
      return assertNever(action);
  }
}

function tally(result: ExecutionResult, action: Action, outcome: Outcome, deps: ExecutorDeps): void {
  if (outcome !== DONE) {
    result.deferred++;
    if (outcome.conflict) result.conflicts++;
    if (outcome.locked) result.locked++;
    deps.logger.info({ action: action.kind, path: actionPath(action), why: outcome.reason }, 'action left for the next cycle');
    if (outcome.problem) reportProblem(deps, { path: actionPath(action), ...outcome.problem });
    return;
  }
  result.done++;
  switch (action.kind) {
    case 'download':
      result.downloaded++;
      return;
    case 'upload-new':
    case 'upload-version':
      result.uploaded++;
      return;
    case 'conflict':
      result.conflicts++;
      result.uploaded++;
      result.downloaded++;
      return;
    case 'delete-local':
    case 'delete-remote':
    case 'delete-local-folder':
    case 'delete-remote-folder':
      result.deleted++;
      return;
    case 'move-local':
    case 'move-remote':
      result.moved++;
      return;
    default:
      return;
  }
}

function recordFailure(deps: ExecutorDeps, result: ExecutionResult, path: string, cause: unknown): void {
  const error = cause instanceof Error ? cause : new Error(String(cause));
  const message = failureMessage(cause, path);
  const kind = problemKindOf(cause);
  // The path keeps its backoff either way; an unreachable service is one problem of the whole
  // workspace, not one per file (`OFFLINE_CODE`, status.ts).
  const recorded = deps.index.errors.record(deps.workspaceId, path, { code: kind === 'offline' ? OFFLINE_CODE : errorCode(cause), message });
  deps.logger.warn({ path, code: recorded.code, attempts: recorded.attempts, err: errorMessage(cause) }, 'action failed; retried later');
  result.failed.push({ path, error });
  if (kind === 'offline') {
    reportProblem(deps, offlineProblem(1, recorded.nextRetryAt));
    return;
  }
  recordActivity(deps, 'error', path, `${path}: ${message}`);
  reportProblem(deps, {
    path,
    kind: problemKindOf(cause),
    message,
    hint: 'Retried automatically.',
    attempts: recorded.attempts,
    nextRetryAt: new Date(recorded.nextRetryAt).toISOString(),
  });
}
