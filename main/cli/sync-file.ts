/**
 * One sync of the workspace a file command works in (restore, save-version --note), shown as
 * `sync` shows it: it carries out whatever else was waiting too, and each transfer is printed.
 */
import { basename } from 'node:path';
import type { SyncReport } from '../../shared/engine.js';
import { openSession, type Session } from '../bootstrap.js';
import type { SyncedFile } from './local-file.js';
import type { GlobalOptions } from './options.js';
import { print, problemLines } from './output.js';
import { attachReporter } from './progress.js';
import { serviceFor, type FileOptions } from './versions.js';

/** A session on the file's sync folder that syncs only the file's workspace (it takes the folder's lock). */
export function openFileSession(file: SyncedFile, options: FileOptions, globals: GlobalOptions): Promise<Session> {
  return openSession({
    ...serviceFor(file, options),
    root: file.root,
    workspaces: [{ id: file.workspace.id, folder: basename(file.workspace.localPath), excluded: file.workspace.excludedPaths }],
    logToStderr: globals.verbose,
  });
}

export async function syncWorkspace(session: Session): Promise<SyncReport> {
  const reporter = attachReporter(session.engine, { tty: Boolean(process.stdout.isTTY), multipleWorkspaces: false, liveProblems: false });
  try {
    await session.engine.init();
    return await session.engine.syncOnce();
  } finally {
    reporter.stop();
  }
}

/** What the sync left to fix, as `sync` prints it. */
export function printProblems(report: SyncReport): void {
  for (const ws of report.workspaces) for (const problem of ws.problems) problemLines(problem).forEach((line) => print(line));
}
