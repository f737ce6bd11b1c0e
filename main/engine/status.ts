/** Folding what the engine knows into the status a user sees: pending work is never "up to date". */
import { needsUser, type EngineStatus, type PendingCounts, type Problem, type SyncState, type WorkspaceStatus } from '../../shared/engine.js';
import type { PathError } from '../index/path-errors.js';
import type { SyncIndex } from '../index/sync-index.js';
import { pathErrorProblems } from '../sync/executor/index.js';
import type { Action } from '../sync/actions.js';
import { noFeedNotice } from './feed-probe.js';
import type { WorkspaceRuntime } from './workspace-runtime.js';

/** What a plan still had to do: zero only when the last cycle found nothing to do. */
export const NOTHING_PENDING: Readonly<PendingCounts> = { downloads: 0, uploads: 0, deletes: 0, moves: 0, conflicts: 0 };

/** The count an action adds to, or null for bookkeeping and folder creation. */
export function pendingKey(kind: Action['kind']): keyof PendingCounts | null {
  switch (kind) {
    case 'download':
      return 'downloads';
    case 'upload-new':
    case 'upload-version':
      return 'uploads';
    case 'delete-local':
    case 'delete-remote':
    case 'delete-local-folder':
    case 'delete-remote-folder':
      return 'deletes';
    case 'move-local':
    case 'move-remote':
      return 'moves';
    case 'conflict':
      return 'conflicts';
    default:
      return null;
  }
}

/** What a plan's actions leave to do, before any of them has run. */
export function pendingOf(actions: readonly Action[]): PendingCounts {
  const counts = { ...NOTHING_PENDING };
  for (const action of actions) {
    const key = pendingKey(action.kind);
    if (key) counts[key] += 1;
  }
  return counts;
}

export function problemsFrom(pathErrors: readonly PathError[], cycleProblems: readonly Problem[]): Problem[] {
  const fromErrors = pathErrorProblems(pathErrors);
  const seen = new Set(fromErrors.map((p) => `${p.kind}:${p.path}`));
  return [...fromErrors, ...cycleProblems.filter((p) => !seen.has(`${p.kind}:${p.path}`))];
}

/** A workspace's state from its phase and what is left. */
export function workspaceState(phase: SyncState, pending: boolean, problems: readonly Problem[]): SyncState {
  if (phase === 'paused' || phase === 'stopped' || phase === 'starting') return phase;
  if (problems.some((p) => p.kind === 'offline')) return 'offline';
  if (phase === 'scanning' || phase === 'listing' || phase === 'syncing') return phase;
  if (problems.some(needsUser)) return 'attention';
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

/** What the status reads besides the workspace's runtime. */
export interface StatusFacts {
  index: SyncIndex;
  /** The configured poll interval, named by the notice of a service without the changes feed. */
  pollMs: number;
  paused: boolean;
  /** The engine stopped (or is stopping). */
  stopped: boolean;
}

/** One workspace's status, from what its runtime holds and the path errors in the index. */
export function workspaceStatus(runtime: WorkspaceRuntime, facts: StatusFacts): WorkspaceStatus {
  const target = runtime.sync.target;
  const notices = runtime.feed === 'no' ? [noFeedNotice(target.id, facts.pollMs)] : [];
  const problems = problemsFrom(facts.index.errors.list(target.id), [...runtime.cycleProblems, ...notices]);
  const last = runtime.last;
  // Pending: the last cycle did work (its effects are unconfirmed), files wait, or one runs now.
  const pending = runtime.cycle.state !== 'idle' || !last || last.work > 0 || last.waiting.length > 0 || runtime.again;
  const phase = facts.stopped ? 'stopped' : facts.paused ? 'paused' : runtime.cycle.state !== 'idle' ? runtime.phase : last ? 'up-to-date' : runtime.phase;
  return {
    workspaceId: target.id,
    name: target.name,
    folder: target.dir,
    state: workspaceState(phase, pending, problems),
    pending: runtime.pending,
    pausedChanges: facts.paused ? runtime.pausedChanges.count : 0,
    files: (runtime.files ??= facts.index.base.countFiles(target.id)),
    lastSyncAt: runtime.lastSyncAt,
    problems,
    ...(runtime.writing.shown().length > 0 ? { writing: runtime.writing.shown() } : {}),
  };
}
