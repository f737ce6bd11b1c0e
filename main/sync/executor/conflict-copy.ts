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
import { isMissing } from './errors.js';
import { renameLocalFile } from './moves.js';
import { recordConflict } from './open-conflicts.js';

/** Moves the file at `fromRel` to a free conflicted-copy name of `relPath`; answers that name. */
export async function moveToConflictCopy(deps: ExecutorDeps, relPath: string, fromRel: string): Promise<string> {
  const taken = await takenKeys(deps, parentOf(relPath));
  const copy = conflictCopyPath(relPath, deviceNameOf(deps), nowOf(deps), (key) => taken.has(key));
  await renameLocalFile(deps, fromRel, copy);
  recordConflict(deps.index, deps.workspaceId, { path: relPath, copyPath: copy, at: new Date().toISOString() });
  return copy;
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
