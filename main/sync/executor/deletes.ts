/**
 * Deletions, guarded: a local file goes to the trash only if it still holds
 * the bytes the plan judged safe to delete; a remote asset is soft-deleted only if its current
 * version is still the one the plan saw; folders go only when empty, on either side.
 */
import { rmdir } from 'node:fs/promises';
import { pathKey, resolveInsideRoot } from '../../local/paths.js';
import { isServiceError } from '../../service-client/index.js';
import type { DeleteLocal, DeleteLocalFolder, DeleteRemote, DeleteRemoteFolder } from '../actions.js';
import { DONE, deferred, lockedBy, recordActivity, signalOpt, suppress, type ExecutorDeps, type Outcome } from './context.js';
import { currentFile, writablePath } from './disk.js';
import { errorCode, isMissing } from './failures.js';
import { trashIfUnchanged } from './guarded-trash.js';

export async function deleteLocal(action: DeleteLocal, deps: ExecutorDeps): Promise<Outcome> {
  const abs = await writablePath(deps, action.path);
  const now = await currentFile(deps, action.path, abs);
  if (now !== null) {
    // Edited since the plan: unsynced work is never deleted; the next cycle uploads it.
    if (now.checksum !== action.expectedChecksum) return deferred('the file changed since the plan was made');
    const done = await trashIfUnchanged(deps, action.path, abs, now.stamp);
    // Only a file the trash holds is forgotten: whatever else happened, the next cycle looks again.
    if (done.kind !== 'trashed') {
      return deferred(done.kind === 'changed' ? 'the file changed since the plan was made' : 'the file was saved while it went to the trash: the edit was kept');
    }
    const where = done.trashed.where === 'system' ? 'the trash' : `"${done.trashed.path}"`;
    recordActivity(deps, 'trashed', action.path, `Moved ${action.path} to ${where} (deleted on the service)`);
  }
  forgetFile(deps, action.path);
  return DONE;
}

export async function deleteRemote(action: DeleteRemote, deps: ExecutorDeps): Promise<Outcome> {
  resolveInsideRoot(deps.root, action.path);
  try {
    await deps.client.deleteAssets(deps.workspaceId, [action.assetId], {
      ifCurrentVersionIds: { [action.assetId]: action.parentVersionId },
      ...signalOpt(deps),
    });
  } catch (err) {
    if (isServiceError(err)) {
      // A newer version arrived: it wins over the deletion, the next cycle downloads it.
      if (err.kind === 'conflict') return deferred('the asset changed on the service since the plan was made');
      if (err.kind === 'locked') {
        return deferred('the asset is locked by someone else', {
          locked: true,
          problem: { kind: 'locked', message: `"${action.path}" is ${lockedBy(deps, action.path)}: it was not deleted on the service` },
        });
      }
      if (err.kind !== 'not_found') throw err;
    } else {
      throw err;
    }
  }
  forgetFile(deps, action.path);
  recordActivity(deps, 'deleted', action.path, `Deleted ${action.path} on the service (restorable there)`);
  return DONE;
}

export async function deleteLocalFolder(action: DeleteLocalFolder, deps: ExecutorDeps): Promise<Outcome> {
  const abs = await writablePath(deps, action.path);
  suppress(deps, action.path);
  try {
    await rmdir(abs);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return deferred('the folder is not empty');
    if (!isMissing(err)) throw err;
  }
  forgetFolder(deps, action.path);
  recordActivity(deps, 'deleted', action.path, `Removed the empty folder ${action.path}`);
  return DONE;
}

export async function deleteRemoteFolder(action: DeleteRemoteFolder, deps: ExecutorDeps): Promise<Outcome> {
  resolveInsideRoot(deps.root, action.path);
  try {
    await deps.client.deleteFolder(deps.workspaceId, action.folderId, signalOpt(deps));
  } catch (err) {
    if (isServiceError(err) && err.kind === 'conflict') return deferred('the folder is not empty on the service');
    if (!(isServiceError(err) && err.kind === 'not_found')) throw err;
  }
  forgetFolder(deps, action.path);
  recordActivity(deps, 'deleted', action.path, `Deleted the folder ${action.path} on the service`);
  return DONE;
}

function forgetFile(deps: ExecutorDeps, relPath: string): void {
  deps.index.transaction(() => {
    deps.index.base.deleteFile(deps.workspaceId, relPath);
    deps.index.hashCache(deps.workspaceId).delete(pathKey(relPath));
  });
}

function forgetFolder(deps: ExecutorDeps, relPath: string): void {
  deps.index.base.deleteFolder(deps.workspaceId, relPath);
  deps.folderIds.delete(pathKey(relPath));
}
