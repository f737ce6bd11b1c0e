/**
 * `sync --once`: every workspace converges, cycle after cycle, until nothing is left to do, and
 * the report says what was done and what was not.
 */
import { isNotice, type Problem, type SyncReport, type WorkspaceStatus } from '../../shared/engine.js';
import type { SyncIndex } from '../index/sync-index.js';
import { onlyFailures } from './cycle-scheduler.js';
import type { WorkspaceRuntime } from './workspace-runtime.js';
import type { CycleOutcome } from './workspace-sync.js';

export interface SyncOnceOptions {
  /** Cycles per workspace at most (default 8). */
  maxRounds?: number;
  /** The deletions the mass-delete brake would hold back are carried out. */
  allowMassDelete?: boolean;
}

/** What converging asks of the engine. */
export interface SyncOnceHost {
  runtimes: ReadonlyMap<string, WorkspaceRuntime>;
  index: SyncIndex;
  /** How long a file must be left alone before it is uploaded. */
  quietMs: number;
  /** The engine's stop: a wait for files still being written ends with it. */
  signal: AbortSignal;
  runCycle(workspaceId: string, allowMassDelete: boolean): Promise<CycleOutcome>;
  workspaceStatus(runtime: WorkspaceRuntime): WorkspaceStatus;
}

/** Converges every workspace: cycles until nothing is left to do (or `maxRounds`), then reports. */
export async function syncOnce(host: SyncOnceHost, options: SyncOnceOptions = {}): Promise<SyncReport> {
  const report: SyncReport = { workspaces: [], ok: true };
  for (const [id, runtime] of host.runtimes) {
    const totals = { workspaceId: id, downloaded: 0, uploaded: 0, deleted: 0, moved: 0, conflicts: 0, failed: 0, problems: [] as Problem[] };
    // Asked for now: what failed before is tried again at once, and only then backs off.
    host.index.errors.makeDue(id);
    for (let round = 0; round < (options.maxRounds ?? 8); round += 1) {
      const outcome = await host.runCycle(id, options.allowMassDelete ?? false);
      const r = outcome.result;
      if (r) {
        totals.downloaded += r.downloaded;
        totals.uploaded += r.uploaded;
        totals.deleted += r.deleted;
        totals.moved += r.moved;
        totals.conflicts += r.conflicts;
        totals.failed = r.failed.length;
      }
      if (outcome.blocked) break;
      if (outcome.work === 0 && outcome.waiting.length === 0) break;
      // Files still being written and nothing else moving forward (what is left waits for a
      // lock, a retry or themselves): give them the quiet period.
      const stalled = !r || r.uploaded + r.downloaded + r.deleted + r.moved === 0;
      if (outcome.waiting.length > 0 && stalled) await delay(host.quietMs, host.signal);
      // Only failures left: more rounds would fail the same way. A file still being written is
      // not among them: it gets its quiet period above and is uploaded in a later round.
      if (onlyFailures(outcome)) break;
    }
    // A file that never stopped changing is not an error, but it was not synced: say so.
    const stillWritten = (runtime.last?.waiting ?? []).map((path): Problem => ({
      workspaceId: id,
      path,
      kind: 'unstable',
      message: `"${path}" was still being written, so it was not uploaded yet.`,
      hint: 'Asset Sync uploads it once it has not changed for a moment: sync again when the program writing it is done.',
    }));
    totals.problems = [...host.workspaceStatus(runtime).problems, ...stillWritten];
    // Out of rounds with work still planned (actions deferred again and again) is no convergence.
    const settled = runtime.last !== null && runtime.last.work === 0 && runtime.last.waiting.length === 0;
    // A conflict is listed for the user, but it is no failure: both versions are kept and synced.
    const problems = totals.problems.filter((p) => p.kind !== 'conflict' && !isNotice(p));
    if (problems.length > 0 || totals.failed > 0 || runtime.last?.blocked || !settled) report.ok = false;
    report.workspaces.push(totals);
  }
  return report;
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
