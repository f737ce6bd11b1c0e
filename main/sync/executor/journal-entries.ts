/**
 * The executor's use of the journal: finding the entry an earlier attempt left open for a path
 * (to resume a download or re-commit an upload key), and dropping a download's temp file.
 */
import { rm } from 'node:fs/promises';
import type { JournalEntry, JournalKind } from '../../index/journal.js';
import { isTempName } from '../../local/own-files.js';
import { resolveInsideRoot } from '../../local/paths.js';
import { nameOf } from '../rel-path.js';
import type { ExecutorDeps } from './context.js';
import { errorCode } from './failures.js';

/** Open entries of `kind` for `relPath` (compared by key), oldest first. */
export function openEntriesAt(deps: ExecutorDeps, kind: JournalKind, relPath: string): JournalEntry[] {
  return deps.index.journal.openAt(deps.workspaceId, kind, relPath);
}

/** The temp file a download entry names, relative to the root; undefined if it names none or something else. */
export function tempPathOf(entry: JournalEntry): string | undefined {
  const temp = entry.state.tempPath;
  return typeof temp === 'string' && isTempName(nameOf(temp)) ? temp : undefined;
}

/**
 * Removes the entry's temp file, if any, and closes the entry. A folder found at the temp file's
 * name is not ours (we only ever make files there): it is left with all it holds, and the entry
 * closed all the same, or every later attempt at the path would stop on it.
 */
export async function discardDownload(deps: Pick<ExecutorDeps, 'index' | 'root'>, entry: JournalEntry): Promise<void> {
  const temp = tempPathOf(entry);
  if (temp !== undefined) {
    await rm(resolveInsideRoot(deps.root, temp), { force: true }).catch((err: unknown) => {
      if (errorCode(err) !== 'ERR_FS_EISDIR') throw err;
    });
  }
  deps.index.journal.finish(entry.id);
}
