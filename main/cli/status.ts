/**
 * `asset-sync status`: what the index knows from the last sync (workspaces, files, failing paths
 * and their next retry, operations a stop interrupted, recent activity), without syncing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isNotice, type Problem, type ProblemKind } from '../../shared/engine.js';
import { LAST_SYNC_SETTING, PAUSED_SETTING, SERVICE_SETTING, WORKSPACE_PROBLEMS_SETTING, type PausedSetting, type ServiceSetting } from '../session-settings.js';
import { indexPathFor } from '../config.js';
import { openIndex, type SyncIndex } from '../index/sync-index.js';
import { notSyncedSetting } from '../engine/skipped.js';
import { waitingConflicts } from '../index/conflict-records.js';
import { pathKey } from '../local/paths.js';
import type { PathError } from '../index/path-errors.js';
import { rootHeld } from '../root-lock.js';
import { EXIT_OK } from './outcomes.js';
import { readConfig, resolveRoot } from './options.js';
import { activityLine, formatDate, formatTable, print, printJson, problemLines } from './output.js';

/**
 * As of the last sync: `incomplete` means operations wait to resume, or changes the service
 * listed have not reached the disk yet; the next sync finishes them.
 */
export type StoredState = 'never-synced' | 'up-to-date' | 'attention' | 'incomplete';

export interface WorkspaceReport {
  id: string;
  name: string;
  folder: string;
  state: StoredState;
  files: number;
  excluded: string[];
  lastSyncAt: string | null;
  /** Operations a stop cut short (journalled). */
  interrupted: number;
  /** Files the service listed that the disk does not hold in that version yet. */
  behind: number;
  /** Sync is paused in the running Asset Sync: files saved here since, waiting for the resume (else 0). */
  pausedChanges: number;
  /** Failing paths, then problems of the whole workspace (path null: the brake, a missing marker, the service out of reach). */
  problems: Array<{ path: string | null; code: string; message: string; hint?: string; attempts: number; nextRetryAt: string | null }>;
  /** What the last scan left out, with why and what to do: names other computers cannot hold, links, unreadable files. */
  notSynced: Problem[];
  /** Files changed on both sides: the service's version kept the name, the edit here waits beside it as `copyPath`. */
  conflicts: Array<{ path: string; copyPath: string; at: string }>;
}

export interface StatusReport {
  root: string;
  state: StoredState;
  service: ServiceSetting | null;
  /** The Asset Sync syncing this folder now (the app, `sync --ui`) is paused, since when; null otherwise. */
  paused: { since: string } | null;
  workspaces: WorkspaceReport[];
  activity: Array<{ at: string; workspaceId: string | null; kind: string; path: string | null; message: string }>;
}

const ORDER: StoredState[] = ['attention', 'incomplete', 'never-synced', 'up-to-date'];

export function storedState(input: { listed: boolean; errors: number; interrupted: number; behind: number }): StoredState {
  if (!input.listed) return 'never-synced';
  if (input.errors > 0) return 'attention';
  if (input.interrupted > 0 || input.behind > 0) return 'incomplete';
  return 'up-to-date';
}

/**
 * Remote files (outside the excluded folders) whose listed version is not the synced one. The
 * index finds them; only their paths are read, and only when folders are excluded, since a path
 * is matched to them as on disk (`pathKey`: Unicode-normalised, case-folded), which SQL cannot.
 */
export function filesBehind(index: SyncIndex, workspaceId: string, excluded: readonly string[]): number {
  if (excluded.length === 0) return index.remote.countBehind(workspaceId);
  const skipped = excluded.map((p) => `${pathKey(p)}/`);
  let behind = 0;
  for (const path of index.remote.pathsBehind(workspaceId)) {
    const key = pathKey(path);
    if (!skipped.some((prefix) => key.startsWith(prefix))) behind += 1;
  }
  return behind;
}

export function overallStoredState(states: readonly StoredState[]): StoredState {
  return ORDER.find((s) => states.includes(s)) ?? 'never-synced';
}

/**
 * `running`: a process holds the root now. Only then is its pause news: one that crashed while
 * paused left the setting behind.
 */
export function statusFromIndex(root: string, index: SyncIndex | null, activityLimit = 10, running = false): StatusReport {
  if (!index) return { root, state: 'never-synced', service: null, paused: null, workspaces: [], activity: [] };
  const paused = running ? (index.settings.get<PausedSetting>(PAUSED_SETTING) ?? null) : null;
  const lastSync = index.settings.get<Record<string, string>>(LAST_SYNC_SETTING) ?? {};
  const workspaceProblems = index.settings.get<Record<string, Problem[]>>(WORKSPACE_PROBLEMS_SETTING) ?? {};
  const workspaces = index.workspaces.list().map((ws): WorkspaceReport => {
    const problems = [...index.errors.list(ws.id).map(problemOf), ...(workspaceProblems[ws.id] ?? []).map(workspaceProblemOf)];
    const notSynced = index.settings.get<Problem[]>(notSyncedSetting(ws.id)) ?? [];
    const conflicts = waitingConflicts(index, ws.id).map(({ path, copyPath, at }) => ({ path, copyPath, at }));
    // As for `sync --once`: a link is left out by design, a name to change needs the user, and
    // so does a conflict; a notice (changes arrive slower) is no problem.
    const errors = problems.filter((p) => !noticeCode(p.code)).length + notSynced.filter((p) => p.kind !== 'not_synced').length + conflicts.length;
    const interrupted = index.journal.countOpen(ws.id);
    const behind = filesBehind(index, ws.id, ws.excludedPaths);
    return {
      id: ws.id,
      name: ws.name,
      folder: ws.localPath,
      state: storedState({ listed: ws.sequence !== null || ws.lastFullListingAt !== null, errors, interrupted, behind }),
      files: index.base.countFiles(ws.id),
      excluded: ws.excludedPaths,
      lastSyncAt: lastSync[ws.id] ?? null,
      interrupted,
      behind,
      pausedChanges: paused?.changes[ws.id] ?? 0,
      problems,
      notSynced,
      conflicts,
    };
  });
  return {
    root,
    state: overallStoredState(workspaces.map((w) => w.state)),
    service: index.settings.get<ServiceSetting>(SERVICE_SETTING) ?? null,
    paused: paused ? { since: paused.since } : null,
    workspaces,
    activity: index.activity.list({ limit: activityLimit }).map((a) => ({ at: new Date(a.at).toISOString(), workspaceId: a.workspaceId, kind: a.kind, path: a.path, message: a.message })),
  };
}

const noticeCode = (code: string): boolean => isNotice({ kind: code as ProblemKind });

const problemOf = (e: PathError): WorkspaceReport['problems'][number] => ({
  path: e.path,
  code: e.code,
  message: e.message,
  attempts: e.attempts,
  nextRetryAt: new Date(e.nextRetryAt).toISOString(),
});

const workspaceProblemOf = (p: Problem): WorkspaceReport['problems'][number] => ({
  path: null,
  code: p.kind,
  message: p.message,
  ...(p.hint ? { hint: p.hint } : {}),
  attempts: 0,
  nextRetryAt: null,
});

const STATE_WORDS: Record<StoredState, string> = {
  'never-synced': 'not synced yet',
  'up-to-date': 'up to date',
  attention: 'needs attention',
  incomplete: 'not finished (the next sync finishes it)',
};

/** "paused since …, 3 changes waiting": the running Asset Sync holds what was saved since the pause. */
function pausedWords(report: StatusReport): string {
  const waiting = report.workspaces.reduce((n, ws) => n + ws.pausedChanges, 0);
  const changes = waiting === 0 ? 'nothing waiting' : `${waiting} change${waiting === 1 ? '' : 's'} waiting`;
  return `paused since ${formatDate(report.paused?.since ?? null)}, ${changes} (resume in the app to sync)`;
}

export function statusLines(report: StatusReport): string[] {
  const lines = [`Sync folder: ${report.root}`, `State: ${report.paused ? pausedWords(report) : STATE_WORDS[report.state]}`];
  if (report.workspaces.length === 0) {
    lines.push('Nothing has been synced here yet: `asset-sync sync --once` starts.');
    return lines;
  }
  for (const ws of report.workspaces) {
    lines.push('', `${ws.name} (${ws.id})`);
    lines.push(
      ...formatTable(
        [
          ['folder', ws.folder],
          ['state', STATE_WORDS[ws.state]],
          ['files', String(ws.files)],
          ['last sync', formatDate(ws.lastSyncAt)],
          ...(ws.excluded.length > 0 ? [['not synced here', ws.excluded.join(', ')]] : []),
          ...(ws.interrupted > 0 ? [['interrupted', `${ws.interrupted} operation${ws.interrupted === 1 ? '' : 's'}`]] : []),
          ...(ws.behind > 0 ? [['from the service', `${ws.behind} file${ws.behind === 1 ? '' : 's'} not on disk yet`]] : []),
          ...(ws.pausedChanges > 0 ? [['paused', `${ws.pausedChanges} change${ws.pausedChanges === 1 ? '' : 's'} waiting`]] : []),
        ],
        '  ',
      ),
    );
    for (const p of ws.problems) {
      if (p.path === null) {
        lines.push(`  ${noticeCode(p.code) ? 'note' : 'problem'}: ${p.message}`);
        if (p.hint) lines.push(`    what to do: ${p.hint}`);
      } else {
        lines.push(`  problem ${p.path}: ${p.message} (${p.attempts} attempt${p.attempts === 1 ? '' : 's'}, next retry ${formatDate(p.nextRetryAt)})`);
      }
    }
    // As `sync --once` lists them.
    for (const p of ws.notSynced) lines.push(...problemLines(p, '  '));
    for (const c of ws.conflicts) {
      lines.push(`  conflict ${c.path}: changed on both sides; the service's version kept the name, yours is ${c.copyPath}`);
      lines.push(`    what to do: asset-sync resolve ${JSON.stringify(join(ws.folder, c.copyPath))} --keep mine|theirs|both`);
    }
  }
  if (report.activity.length > 0) {
    lines.push('', 'Recent activity:');
    for (const a of report.activity) lines.push(`  ${formatDate(a.at)}  ${activityLine(a)}`);
  }
  return lines;
}

export async function status(options: { root?: string; json?: boolean }): Promise<number> {
  const root = resolveRoot(options.root, readConfig());
  const indexPath = indexPathFor(root);
  const index = existsSync(indexPath) ? openIndex(indexPath) : null;
  let report: StatusReport;
  try {
    report = statusFromIndex(root, index, 10, index !== null && (await rootHeld(indexPath)));
  } finally {
    index?.close();
  }
  if (options.json) printJson(report);
  else statusLines(report).forEach((line) => print(line));
  return EXIT_OK;
}
