/**
 * What the scanner left out, told to the user: a file that is silently never synced is the
 * "stuck sync with no reason given" users of sync clients complain about. Links and special
 * files are never synced by design: they are listed as not synced, which is no failure. The
 * last scan's list is kept in the index (setting `notSynced:<workspace>`), so that `status`
 * tells it without syncing.
 */
import type { Problem } from '../../shared/engine.js';
import type { SyncIndex } from '../index/sync-index.js';
import { pathKey, sanitizeName } from '../local/paths.js';
import type { SkippedEntry } from '../local/skipped-entry.js';
import { assertNever } from '../sync/actions.js';
import { nameOf } from '../sync/rel-path.js';
import { isUnder } from './local-view.js';

/** `held`: the synced paths each skipped name holds as they were synced (local-view.ts). */
export function skippedProblems(
  workspaceId: string,
  skipped: readonly SkippedEntry[],
  excludedKeys: ReadonlySet<string>,
  held: ReadonlyMap<string, readonly string[]> = new Map(),
): Problem[] {
  const problems: Problem[] = [];
  for (const entry of skipped) {
    if (isUnder(pathKey(entry.path), excludedKeys)) continue;
    const problem = describe(entry);
    const kept = held.get(entry.path);
    if (kept !== undefined && kept.length > 0) problem.message += ` ${keptWords(kept)}`;
    problems.push({ workspaceId, path: entry.path, ...problem });
  }
  return problems;
}

/** What a name holds as it was synced, until it is renamed to a name that syncs. */
function keptWords(paths: readonly string[]): string {
  const [first] = paths;
  if (paths.length === 1) return `Until it is renamed, "${first}" stays on the service as it was synced, here and on other computers.`;
  return `Until it is renamed, "${first}" and ${paths.length - 1} other synced item${paths.length === 2 ? '' : 's'} stay on the service as they were synced, here and on other computers.`;
}

export const notSyncedSetting = (workspaceId: string): string => `notSynced:${workspaceId}`;

/** Keeps the last scan's list for `status`, written only when it changed. */
export function storeNotSynced(index: SyncIndex, workspaceId: string, problems: readonly Problem[]): void {
  const key = notSyncedSetting(workspaceId);
  const stored = index.settings.get<Problem[]>(key) ?? [];
  if (JSON.stringify(stored) === JSON.stringify(problems)) return;
  if (problems.length === 0) index.settings.delete(key);
  else index.settings.set(key, problems);
}

function describe(entry: SkippedEntry): { kind: 'error' | 'not_synced'; message: string; hint: string } {
  switch (entry.reason) {
    case 'case_clash':
      return {
        kind: 'error',
        message: `"${entry.path}" is not synced: ${entry.error ? `"${entry.error}"` : 'another item'} in the same folder has the same name apart from letter case or the encoding of its accents, which the service and other computers cannot tell apart.`,
        hint: 'Rename one of the two.',
      };
    case 'invalid_name':
      return {
        kind: 'error',
        message: `"${entry.path}" is not synced: ${entry.error ?? 'its name cannot be kept as it is on other computers'}.`,
        hint: `Rename it, for example to "${entry.rename ?? sanitizeName(nameOf(entry.path))}", and it syncs.`,
      };
    case 'unreadable':
      return {
        kind: 'error',
        message: `"${entry.path}" could not be read (${entry.error ?? 'unknown error'}); it is left as it was.`,
        hint: 'Check its permissions.',
      };
    case 'symlink':
      return {
        kind: 'not_synced',
        message: `"${entry.path}" is a symbolic link: links are not synced, nor what they point to.`,
        hint: 'To sync what it points to, move or copy that into the folder.',
      };
    case 'special':
      return {
        kind: 'not_synced',
        message: `"${entry.path}" is not a regular file (a pipe, socket or device): it is not synced.`,
        hint: 'Nothing to do.',
      };
    default:
      return assertNever(entry.reason);
  }
}
