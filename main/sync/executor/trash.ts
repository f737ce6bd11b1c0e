/**
 * Local deletions never unlink: the file goes to the OS trash, or where there
 * is none (a headless Linux without a home trash), to a dated folder inside the workspace.
 */
import { lstat, mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { WORKSPACE_TRASH_DIR } from '../../local/own-files.js';
import { numberedName } from '../../local/paths.js';
import { joinPath, nameOf, parentOf } from '../rel-path.js';
import { nowOf, suppress, type ExecutorDeps } from './context.js';
import { writablePath } from './disk.js';
import { errorMessage, isMissing } from './failures.js';

/** The fallback trash inside the workspace folder. */
export { WORKSPACE_TRASH_DIR };

/**
 * The OS trash, through the `trash` package; globbing off, so a name like "a[1].psd" is only itself.
 * The package (with the globbing library it brings) loads on the first deletion: a run that
 * deletes nothing never pays its 20 MiB and 80 ms.
 */
export async function systemTrash(absPath: string): Promise<void> {
  const trash = await loadSystemTrash();
  await trash(absPath, { glob: false });
}

/** The `trash` package, loaded once. */
export async function loadSystemTrash(): Promise<typeof import('trash').default> {
  return (await import('trash')).default;
}

export type Trashed =
  /** The OS trash. */
  | { where: 'system' }
  /** The workspace trash, at `path` (relative to the root). */
  | { where: 'workspace'; path: string };

/** Moves the file at `relPath` (already checked: `abs`) to a trash; throws if it cannot. */
export async function moveToTrash(deps: ExecutorDeps, relPath: string, abs: string): Promise<Trashed> {
  suppress(deps, relPath);
  const before = await inodeAt(abs);
  try {
    await (deps.trash ?? systemTrash)(abs);
    // The package returns quietly for a path it did not find: check the file is really gone
    // (a new file the user saved at the name since is not it).
    const now = await inodeAt(abs);
    if (now === null || now !== before) return { where: 'system' };
  } catch (err) {
    deps.logger.warn({ path: relPath, err: errorMessage(err) }, 'the system trash failed; using the workspace trash');
  }
  // The file's folders under the day's folder; a file at the root goes straight in it.
  const inTrash = (name: string): string => joinPath(joinPath(WORKSPACE_TRASH_DIR, dateStamp(nowOf(deps))), joinPath(parentOf(relPath), name));
  let name = nameOf(relPath);
  for (let n = 2; await exists(await writablePath(deps, inTrash(name))); n++) name = numberedName(nameOf(relPath), n);
  const destRel = inTrash(name);
  const dest = await writablePath(deps, destRel);
  await mkdir(path.dirname(dest), { recursive: true });
  await rename(abs, dest);
  deps.logger.info({ path: relPath, trashedTo: destRel }, 'moved to the workspace trash');
  return { where: 'workspace', path: destRel };
}

function dateStamp(at: Date): string {
  return at.toISOString().slice(0, 10);
}

async function inodeAt(abs: string): Promise<bigint | null> {
  return lstat(abs, { bigint: true }).then(
    (stats) => stats.ino,
    (err: unknown) => {
      if (isMissing(err)) return null;
      throw err;
    },
  );
}

async function exists(abs: string): Promise<boolean> {
  return lstat(abs).then(
    () => true,
    (err: unknown) => {
      if (isMissing(err)) return false;
      throw err;
    },
  );
}
