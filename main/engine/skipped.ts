/**
 * What the scanner left out, told to the user: a file that is silently never synced is the
 * "stuck sync with no reason given" users of sync clients complain about. Links and special
 * files are never synced by design: they are listed as not synced, which is no failure.
 */
import type { Problem } from '../../shared/engine.js';
import { pathKey, sanitizeName } from '../local/paths.js';
import type { SkippedEntry } from '../local/scanner.js';
import { assertNever } from '../sync/actions.js';
import { nameOf } from '../sync/rel-path.js';
import { isUnder } from './local-view.js';

export function skippedProblems(workspaceId: string, skipped: readonly SkippedEntry[], excludedKeys: ReadonlySet<string>): Problem[] {
  const problems: Problem[] = [];
  for (const entry of skipped) {
    if (isUnder(pathKey(entry.path), excludedKeys)) continue;
    problems.push({ workspaceId, path: entry.path, ...describe(entry) });
  }
  return problems;
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
        hint: `Rename it, for example to "${sanitizeName(nameOf(entry.path))}", and it syncs.`,
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
