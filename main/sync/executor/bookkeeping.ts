/** Actions that only write the index, and the report of a change held up by a lock. */
import { pathKey } from '../../local/paths.js';
import type { ForgetBase, ForgetFolderBase, Locked, RecordBase, RecordFolderBase } from '../actions.js';
import { DONE, deferred, lockedBy, recordActivity, type ExecutorDeps, type Outcome } from './context.js';
import { openEntriesAt } from './journal-entries.js';
import { recordFolder } from './folders.js';

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
