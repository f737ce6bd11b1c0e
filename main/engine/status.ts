/** Folding what the engine knows into the status a user sees: pending work is never "up to date". */
import type { EngineStatus, PendingCounts, Problem, SyncState, WorkspaceStatus } from '../../shared/engine.js';
import type { PathError } from '../index/path-errors.js';
import { OFFLINE_CODE, offlineProblem, pathErrorKind } from '../sync/executor/offline.js';
import type { Plan } from '../sync/planner.js';

/** What a plan still had to do: zero only when the last cycle found nothing to do. */
export function pendingFrom(plan: Plan | null): PendingCounts {
  const c = plan?.summary.counts;
  if (!c) return { downloads: 0, uploads: 0, deletes: 0, moves: 0, conflicts: 0 };
  return {
    downloads: c.download,
    uploads: c['upload-new'] + c['upload-version'],
    deletes: c['delete-local'] + c['delete-remote'] + c['delete-local-folder'] + c['delete-remote-folder'],
    moves: c['move-local'] + c['move-remote'],
    conflicts: c.conflict,
  };
}

export function problemsFrom(pathErrors: readonly PathError[], cycleProblems: readonly Problem[]): Problem[] {
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
  const fromErrors = [...fromOffline, ...fromPaths];
  const seen = new Set(fromErrors.map((p) => `${p.kind}:${p.path}`));
  return [...fromErrors, ...cycleProblems.filter((p) => !seen.has(`${p.kind}:${p.path}`))];
}

const NEEDS_USER = new Set(['error', 'brake', 'marker', 'auth', 'locked']);

/** A workspace's state from its phase and what is left. */
export function workspaceState(phase: SyncState, pending: boolean, problems: readonly Problem[]): SyncState {
  if (phase === 'paused' || phase === 'stopped' || phase === 'starting') return phase;
  if (problems.some((p) => p.kind === 'offline')) return 'offline';
  if (phase === 'scanning' || phase === 'listing' || phase === 'syncing') return phase;
  if (problems.some((p) => NEEDS_USER.has(p.kind))) return 'attention';
  return pending ? 'syncing' : 'up-to-date';
}

const PRECEDENCE: SyncState[] = ['stopped', 'paused', 'offline', 'attention', 'starting', 'syncing', 'listing', 'scanning', 'up-to-date'];

export function overallState(workspaces: readonly WorkspaceStatus[], paused: boolean): SyncState {
  if (paused) return 'paused';
  if (workspaces.length === 0) return 'starting';
  for (const state of PRECEDENCE) if (workspaces.some((w) => w.state === state)) return state;
  return 'up-to-date';
}

export function engineStatus(workspaces: WorkspaceStatus[], transfers: EngineStatus['transfers'], paused: boolean): EngineStatus {
  return { state: overallState(workspaces, paused), workspaces, transfers, paused };
}
