/**
 * Renames and moves, on disk or on the service. The base row moves with the file, so the next
 * cycle sees a synced file at its new path rather than a deletion and a new file; on disk the
 * hash cache entry moves too, so the moved file is not read again.
 */
import { lstat, rename } from 'node:fs/promises';
import path from 'node:path';
import { pathKey, resolveInsideRoot } from '../../local/paths.js';
import { isServiceError } from '../../service-client/index.js';
import type { MoveLocal, MoveRemote } from '../actions.js';
import { nameOf, parentOf } from '../rel-path.js';
import { DONE, deferred, recordActivity, remoteFolderId, signalOpt, suppress, type ExecutorDeps, type Outcome } from './context.js';
import { ensureParent, fsyncDir, writablePath } from './disk.js';
import { NotAFileError, TargetExistsError, isMissing } from './errors.js';

/**
 * Renames the file `from` to `to` inside the root, creating missing folders, and never over
 * another file (a case-only rename on a case-insensitive disk finds the same file there: fine).
 */
export async function renameLocalFile(deps: ExecutorDeps, from: string, to: string): Promise<void> {
  const source = await writablePath(deps, from);
  const target = await writablePath(deps, to);
  const sourceStats = await lstat(source);
  if (!sourceStats.isFile()) throw new NotAFileError(from);
  const targetStats = await lstat(target).catch((err: unknown) => {
    if (isMissing(err)) return undefined;
    throw err;
  });
  if (targetStats !== undefined && (targetStats.ino !== sourceStats.ino || targetStats.dev !== sourceStats.dev)) {
    throw new TargetExistsError(to);
  }
  await ensureParent(deps, to);
  suppress(deps, from, to);
  await rename(source, target);
  await fsyncDir(path.dirname(target));
}

/** Re-keys the base row at `basePath` to `to` (keeping what it says about the file). */
function moveBaseRow(deps: ExecutorDeps, basePath: string | null, to: string): void {
  if (basePath === null) return;
  const row = deps.index.base.getFile(deps.workspaceId, basePath);
  if (row === undefined) return;
  deps.index.base.deleteFile(deps.workspaceId, basePath);
  deps.index.base.putFile(deps.workspaceId, { ...row, path: to });
}

export async function moveLocal(action: MoveLocal, deps: ExecutorDeps): Promise<Outcome> {
  await renameLocalFile(deps, action.from, action.to);
  const cache = deps.index.hashCache(deps.workspaceId);
  deps.index.transaction(() => {
    moveBaseRow(deps, action.basePath, action.to);
    const cached = cache.get(pathKey(action.from));
    if (cached !== undefined) {
      cache.delete(pathKey(action.from));
      cache.put(pathKey(action.to), cached);
    }
  });
  recordActivity(deps, 'moved', action.to, `Moved ${action.from} to ${action.to}`);
  return DONE;
}

export async function moveRemote(action: MoveRemote, deps: ExecutorDeps): Promise<Outcome> {
  // Both are local paths: a hostile one is refused here like anywhere else.
  resolveInsideRoot(deps.root, action.from);
  resolveInsideRoot(deps.root, action.to);
  const folderId = remoteFolderId(deps, parentOf(action.to));
  try {
    await deps.client.updateAsset(deps.workspaceId, action.assetId, { file_name: nameOf(action.to), folder_id: folderId }, signalOpt(deps));
  } catch (err) {
    if (isServiceError(err) && err.kind === 'locked') {
      return deferred('the asset is locked by someone else', {
        locked: true,
        problem: { kind: 'locked', message: `"${action.from}" is locked by another user: it was not renamed to "${action.to}" on the service` },
      });
    }
    throw err;
  }
  deps.index.transaction(() => moveBaseRow(deps, action.basePath, action.to));
  recordActivity(deps, 'moved', action.to, `Moved ${action.from} to ${action.to} on the service`);
  return DONE;
}
