/**
 * What the engine keeps per workspace while it runs. Each part that goes through stages says
 * which stage it is in (a cycle running, the watcher starting, files settling) as one value, so
 * a combination the engine never makes cannot be written down either.
 */
import type { PendingCounts, Problem, SyncState } from '../../shared/engine.js';
import type { TreeWatcher } from '../local/watcher.js';
import type { Sequence } from '../service-client/index.js';
import type { PausedChanges } from './paused-changes.js';
import type { RecentDeletes } from './recent-deletes.js';
import type { CycleOutcome, WorkspaceSync } from './workspace-sync.js';
import type { WritingFiles } from './writing-files.js';

export interface EngineWorkspace {
  id: string;
  /** Folder name under the root; default: the workspace's name, made safe. */
  folder?: string | undefined;
  excluded?: readonly string[] | undefined;
}

/** The workspace's one place for a cycle: cycles run one at a time, and a task of the user's takes the place of one. */
export type CycleSlot =
  | { state: 'idle' }
  | {
      state: 'cycle';
      run: Promise<CycleOutcome>;
      /** It carries out deletions the user confirmed: they do not count toward the next brake. */
      confirmedDeletions: boolean;
    }
  /** A task of the user's (a conflict resolved) runs between two cycles, never beside one. */
  | { state: 'task'; run: Promise<CycleOutcome> };

export type WatchState =
  | { state: 'off' }
  /** Its ignore rules load. */
  | { state: 'starting' }
  /** `inode`: the folder it watches, to tell when the folder was made anew. */
  | { state: 'on'; watcher: TreeWatcher; inode: number | undefined };

/** Files the last cycle held back as still being written, and whether a wait for them to settle runs (settle.ts). */
export type SettleState = { state: 'none' } | { state: 'waiting'; paths: readonly string[] };

export interface WorkspaceRuntime {
  /** What the workspace was set up from: another folder or exclusion sets it up anew. */
  spec: EngineWorkspace;
  sync: WorkspaceSync;
  /** Ends this workspace's work alone (it is dropped or set up anew); follows the engine's stop. */
  stop: AbortController;
  signal: AbortSignal;
  phase: SyncState;
  cycle: CycleSlot;
  /** Another cycle is asked for once the running one ends. */
  again: boolean;
  /** What the last cycle ended with; not its plan, which would keep every action it carried out alive. */
  last: Omit<CycleOutcome, 'plan'> | null;
  lastSyncAt: string | null;
  cycleProblems: Problem[];
  watch: WatchState;
  /** The user confirmed the deletions the mass-delete brake held back: the next cycle carries them out. */
  nextCycleDeletes: 'guarded' | 'confirmed';
  /**
   * What the current (or last) plan leaves to do, counted down as actions complete: a first sync
   * of 300 files said "nothing pending" while it ran, because the count came from the last
   * finished cycle's plan.
   */
  pending: PendingCounts;
  /** File deletions carried out in the last minutes, per side: kept in the index across restarts. */
  recentDeletes: RecentDeletes;
  /** Local changes the watcher saw while sync is paused (none are uploaded before the resume). */
  pausedChanges: PausedChanges;
  /** Files the last cycle found still being written. */
  writing: WritingFiles;
  /**
   * Synced files, counted again only after a cycle that acted: a count of 100,000 rows at every
   * status update (each phase change) was a tenth of a second of every start-up.
   */
  files: number | null;
  /** Whether the service answers the changes feed for this workspace, as the last probe found. */
  feed: 'unknown' | 'yes' | 'no';
  /** When the last cycle started (ms since the epoch); null: none yet. */
  lastCycleAt: number | null;
  /**
   * The cursor a probe found changes after and started a cycle for. Still the cursor after that
   * cycle: the cycle could not take them in (a missing marker, a listing that fails). Probes then
   * leave it to the cycle at the configured interval rather than start one every 2 s.
   */
  probedFrom: Sequence | null;
  settle: SettleState;
}

/** The watcher, once it runs. */
export function watcherOf(runtime: WorkspaceRuntime): TreeWatcher | null {
  return runtime.watch.state === 'on' ? runtime.watch.watcher : null;
}

/** The cycle or task running now, if any. */
export function runningOf(runtime: WorkspaceRuntime): Promise<CycleOutcome> | null {
  return runtime.cycle.state === 'idle' ? null : runtime.cycle.run;
}
