/** Actions that only write the index, the record of a file synced, and the report of a change held up by a lock. */
import type { JournalEntry } from '../../index/journal.js';
import { pathKey } from '../../local/paths.js';
import type { FileStamp } from '../../local/stamp.js';
import type { ForgetBase, ForgetFolderBase, Locked, RecordBase, RecordFolderBase } from '../actions.js';
import { DONE, deferred, lockedBy, recordActivity, type ExecutorDeps, type Outcome } from './context.js';
import { openEntriesAt } from './journal-entries.js';
import { recordFolder } from './folders.js';

/** A file that both sides now hold: the version it is, its checksum, and its stamp on disk. */
export interface SyncedFile {
  path: string;
  assetId: string;
  versionId: string;
  checksum: string;
  stamp: FileStamp;
}

/**
 * Records a file that a download or upload synced: its base row, the hash cache's entry for the
 * stamp it has on disk, and the end of its journal entry, in the next group commit. A crash
 * before that commit loses nothing: the next run finds the file and the remote version equal by
 * checksum. `later`: in a group commit of the next moment (`commitLater`), for a caller that
 * does not wait for it.
 */
export function recordSyncedFile(deps: ExecutorDeps, file: SyncedFile, entry: JournalEntry | undefined, later = false): Promise<void> {
  const { path, assetId, versionId, checksum, stamp } = file;
  return (later ? deps.index.commitLater : deps.index.commitSoon).call(deps.index, () => {
    deps.index.base.putFile(deps.workspaceId, { path, assetId, versionId, checksum, size: stamp.size, mtimeNs: stamp.mtimeNs, inode: stamp.inode });
    deps.index.hashCache(deps.workspaceId).put(pathKey(path), { size: stamp.size, mtimeNs: stamp.mtimeNs, ctimeNs: stamp.ctimeNs, inode: stamp.inode, checksum });
    if (entry !== undefined) deps.index.journal.finish(entry.id);
  });
}

export function recordBase(action: RecordBase, deps: ExecutorDeps): Outcome {
  deps.index.transaction(() => {
    deps.index.base.putFile(deps.workspaceId, action.base);
    // Both sides agree now: an upload an earlier run left open here has nothing left to do.
    for (const entry of openEntriesAt(deps, 'upload', action.base.path)) deps.index.journal.finish(entry.id);
  });
  return DONE;
}

export function forgetBase(action: ForgetBase, deps: ExecutorDeps): Outcome {
  deps.index.base.deleteFile(deps.workspaceId, action.path);
  return DONE;
}

export function recordFolderBase(action: RecordFolderBase, deps: ExecutorDeps): Outcome {
  recordFolder(deps, action.base.path, action.base.folderId);
  return DONE;
}

export function forgetFolderBase(action: ForgetFolderBase, deps: ExecutorDeps): Outcome {
  deps.index.base.deleteFolder(deps.workspaceId, action.path);
  deps.folderIds.delete(pathKey(action.path));
  return DONE;
}

export function locked(action: Locked, deps: ExecutorDeps): Outcome {
  const what = action.blocked === 'upload-version' ? 'your edit waits to be uploaded' : 'its deletion waits';
  const by = lockedBy(deps, action.path);
  recordActivity(deps, 'locked', action.path, `${action.path} is ${by}: ${what}`);
  return deferred(action.reason, {
    locked: true,
    problem: { kind: 'locked', message: `"${action.path}" is ${by}: ${what}`, hint: 'Ask them to unlock it.' },
  });
}
