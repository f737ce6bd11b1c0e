/**
 * Conflicted copies made on disk by the executor: a local edit that cannot take its own name
 * steps aside to "name (conflicted copy <device> <date>).ext" beside it, which then syncs as a
 * new file, and the conflict stays listed until the user has dealt with it.
 */
import { readdir } from 'node:fs/promises';
import { pathKey } from '../../local/paths.js';
import { conflictCopyPath } from '../conflict-name.js';
import { joinPath, parentOf } from '../rel-path.js';
import { deviceNameOf, nowOf, type ExecutorDeps } from './context.js';
import { writablePath } from './disk.js';
import { isMissing } from './failures.js';
import { renameLocalFile } from './moves.js';
import { forgetConflict, recordConflict, type OpenConflict } from './open-conflicts.js';

/**
 * Moves the file at `fromRel` to a free conflicted-copy name of `relPath`; answers the conflict
 * recorded. The conflict is recorded before the file moves, so the copy is known as ours from the
 * moment it exists (the planner never takes it for a rename by the user), and a conflict recorded
 * for `fromRel` (a copy of ours moving on to another name) follows it.
 */
export async function moveToConflictCopy(deps: ExecutorDeps, relPath: string, fromRel: string): Promise<OpenConflict> {
  const taken = await takenKeys(deps, parentOf(relPath));
  const now = nowOf(deps);
  const copy = conflictCopyPath(relPath, deviceNameOf(deps), now, (key) => taken.has(key));
  const conflict = { path: relPath, copyPath: copy, at: now.toISOString() };
  recordConflict(deps.index, deps.workspaceId, conflict);
  try {
    await renameLocalFile(deps, fromRel, copy);
  } catch (err) {
    forgetConflict(deps.index, deps.workspaceId, copy);
    throw err;
  }
  forgetConflict(deps.index, deps.workspaceId, fromRel);
  return conflict;
}

/** Keys of the names in the folder now, on disk and in the base. */
async function takenKeys(deps: ExecutorDeps, folder: string): Promise<Set<string>> {
  const dir = await writablePath(deps, folder);
  const names = await readdir(dir).catch((err: unknown) => {
    if (isMissing(err)) return [];
    throw err;
  });
  const taken = new Set(names.map((name) => pathKey(joinPath(folder, name.normalize('NFC')))));
  const base = deps.index.base.load(deps.workspaceId);
  for (const key of [...base.files.keys(), ...base.folders.keys()]) taken.add(key);
  return taken;
}
