/**
 * What the scanner left out, told to the user: a file that is silently never synced is the
 * "stuck sync with no reason given" users complain about (design notes §11). Links and special
 * files are never synced by design and are not problems.
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
    const text = describe(entry);
    if (text) problems.push({ workspaceId, path: entry.path, kind: 'error', ...text });
  }
  return problems;
}

function describe(entry: SkippedEntry): { message: string; hint: string } | null {
  switch (entry.reason) {
    case 'case_clash':
      return {
        message: `"${entry.path}" is not synced: ${entry.error ? `"${entry.error}"` : 'another item'} in the same folder has the same name apart from letter case or the encoding of its accents, which the service and other computers cannot tell apart.`,
        hint: 'Rename one of the two.',
      };
    case 'invalid_name':
      return {
        message: `"${entry.path}" is not synced: ${entry.error ?? 'its name cannot be kept as it is on other computers'}.`,
        hint: `Rename it, for example to "${sanitizeName(nameOf(entry.path))}", and it syncs.`,
      };
    case 'unreadable':
      return {
        message: `"${entry.path}" could not be read (${entry.error ?? 'unknown error'}); it is left as it was.`,
        hint: 'Check its permissions.',
      };
    case 'symlink':
    case 'special':
      return null;
    default:
      return assertNever(entry.reason);
  }
}
