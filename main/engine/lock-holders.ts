/**
 * Who holds the locks a cycle runs into, by name: "locked by Rafael Reviewer" tells the user whom
 * to ask, "locked by another user" did not. The holder comes from the service's tree (each asset's
 * `locked_by_user_id`), the name from the workspace's members (GET /workspaces/members), asked at
 * most once per cycle and only by a cycle that has a lock to report. When the name cannot be had,
 * the message names the user id instead. The executor asks by path (`ExecutorDeps.lockHolder`).
 */
import { personName } from '../../shared/api/index.js';
import { pathKey } from '../local/paths.js';
import type { Logger } from '../logging.js';
import type { ServiceClient } from '../service-client/index.js';
import { actionPath, type Action } from '../sync/actions.js';
import type { RemoteFile } from '../model/views.js';

/**
 * The holder of each lock the actions may run into, by the pathKey of the path they report:
 * planned waits for a lock (`locked`), and actions on an asset someone else holds.
 */
export function lockHolders(actions: readonly Action[], remoteFiles: ReadonlyMap<string, RemoteFile>, selfUserId: string): Map<string, string> {
  const holders = new Map<string, string>();
  let lockedAssets: Map<string, string> | null = null;
  for (const action of actions) {
    if (action.kind === 'locked') {
      holders.set(pathKey(action.path), action.lockedByUserId);
      continue;
    }
    if (action.kind !== 'upload-version' && action.kind !== 'delete-remote' && !(action.kind === 'move-remote' && action.item !== 'folder')) continue;
    lockedAssets ??= new Map([...remoteFiles.values()].filter((f) => f.lockedByUserId && f.lockedByUserId !== selfUserId).map((f) => [f.assetId, f.lockedByUserId ?? '']));
    const holder = lockedAssets.get(action.assetId);
    if (holder) holders.set(pathKey(actionPath(action)), holder);
  }
  return holders;
}

/** Each holder's name, from one request; a holder the answer does not name (or a failed request) is "user <id>". */
export async function holderNames(client: ServiceClient, workspaceId: string, holders: ReadonlyMap<string, string>, logger: Logger | undefined, signal?: AbortSignal): Promise<Map<string, string>> {
  const ids = new Set(holders.values());
  const names = new Map([...ids].map((id) => [id, `user ${id}`]));
  if (ids.size === 0) return names;
  try {
    const members = await client.listWorkspaceMembers(workspaceId, signal ? { signal } : {});
    for (const member of members) if (ids.has(member.user_id)) names.set(member.user_id, personName(member.user, `user ${member.user_id}`));
  } catch (error) {
    logger?.warn({ err: error }, 'the workspace members could not be listed; locks name the user id');
  }
  return names;
}

/** The name of who holds the lock at a path, for `ExecutorDeps.lockHolder`. */
export function holderAt(holders: ReadonlyMap<string, string>, names: ReadonlyMap<string, string>): (relPath: string) => string | undefined {
  return (relPath) => {
    const holder = holders.get(pathKey(relPath));
    return holder === undefined ? undefined : names.get(holder);
  };
}
