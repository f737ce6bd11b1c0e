/**
 * `asset-sync resolve <file> --keep mine|theirs|both`: the user's choice about a conflict, as
 * the app offers it (sync/executor/conflict-choice.ts). <file> is the conflicted copy, or the file
 * it was made from when that has one open conflict. A sync follows, which brings the kept
 * version to the file's name and removes the copy's asset on the service (softly).
 */
import { ConflictNotFoundError, CopyChangingError, waitingConflicts, type KeepSide, type OpenConflict } from '../sync/executor/index.js';
import { pathKey } from '../local/paths.js';
import { EXIT_OK, EXIT_PROBLEMS, RefusedError } from './outcomes.js';
import { openFileSession } from './file-session.js';
import { locateFile } from './local-file.js';
import { readConfig, type GlobalOptions } from './options.js';
import { print, problemLines } from './output.js';
import { syncOnceShown } from './progress.js';
import type { FileOptions } from './versions.js';

export interface ResolveOptions extends FileOptions {
  keep: KeepSide;
}

export async function resolve(fileArg: string, options: ResolveOptions, globals: GlobalOptions): Promise<number> {
  const file = await locateFile(fileArg, options.root, readConfig(), (found, index) => ({ ...found, conflict: conflictOf(waitingConflicts(index, found.workspace.id), found.relPath) }));
  const session = await openFileSession(file, options, globals);
  try {
    await session.engine.init();
    const done = await session.engine.resolveConflict(file.workspace.id, file.conflict.copyPath, options.keep).catch((error: unknown) => {
      if (error instanceof ConflictNotFoundError || error instanceof CopyChangingError) throw new RefusedError(`${error.message}.`);
      throw error;
    });
    if (done.keep === 'both') {
      print(`Kept both: ${done.path} and ${done.copyPath} are two files from now on.`);
      return EXIT_OK;
    }
    const trashed = done.trashed?.where === 'workspace' ? `the trash folder in the workspace (${done.trashed.path})` : 'the trash';
    print(
      done.keep === 'mine'
        ? `Kept your version of ${done.path}: it is version ${done.version?.number ?? '?'} on the service. ${done.copyPath} went to ${trashed}.`
        : `Kept the service's version of ${done.path}. ${done.copyPath} went to ${trashed}.`,
    );
    print(`Syncing ${file.workspace.name} (anything else waiting is synced too)…`);
    const report = await syncOnceShown(session.engine);
    if (report.ok) return EXIT_OK;
    for (const ws of report.workspaces) for (const problem of ws.problems) problemLines(problem).forEach((line) => print(line));
    return EXIT_PROBLEMS;
  } finally {
    await session.close();
  }
}

/** The conflict of a copy, or of the file it was made from when that has exactly one. */
function conflictOf(open: readonly OpenConflict[], relPath: string): OpenConflict {
  const key = pathKey(relPath);
  const byCopy = open.find((c) => pathKey(c.copyPath) === key);
  if (byCopy) return byCopy;
  const byOriginal = open.filter((c) => pathKey(c.path) === key);
  if (byOriginal.length === 1 && byOriginal[0]) return byOriginal[0];
  if (byOriginal.length > 1) {
    throw new RefusedError(`${relPath} has ${byOriginal.length} conflicted copies: name the one to resolve (${byOriginal.map((c) => c.copyPath).join(', ')}).`);
  }
  throw new RefusedError(`${relPath} has no conflict waiting. \`asset-sync status\` lists the conflicts.`);
}
