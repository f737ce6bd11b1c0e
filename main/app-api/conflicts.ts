/**
 * The conflicts that wait for the user, with both sides to look at: theirs (the service's
 * version at the file's name, with who made it and when) and mine (the conflicted copy on this
 * computer). Pictures of each come through the media channels: theirs by asset id, mine by the
 * copy's path.
 */
import { lstat } from 'node:fs/promises';
import { personName } from '../../shared/api/index.js';
import type { AssetVersion } from '../service-client/index.js';
import type { ConflictView } from '../../shared/ipc.js';
import type { SyncIndex } from '../index/sync-index.js';
import type { Logger } from '../logging.js';
import { resolveInsideRoot } from '../local/paths.js';
import type { ServiceClient } from '../service-client/index.js';
import { waitingConflicts, type OpenConflict } from '../sync/executor/index.js';

export async function listConflicts(index: SyncIndex, client: ServiceClient, logger?: Logger): Promise<ConflictView[]> {
  const views: ConflictView[] = [];
  for (const workspace of index.workspaces.list()) {
    for (const conflict of waitingConflicts(index, workspace.id)) views.push(await conflictView(index, client, workspace.id, workspace.localPath, conflict, logger));
  }
  return views.sort((a, b) => b.at.localeCompare(a.at));
}

async function conflictView(index: SyncIndex, client: ServiceClient, workspaceId: string, dir: string, c: OpenConflict, logger?: Logger): Promise<ConflictView> {
  const base = index.base.getFile(workspaceId, c.path);
  const remote = base ? index.remote.getFile(workspaceId, base.assetId) : undefined;
  const versionId = remote?.versionId ?? base?.versionId ?? null;
  const copy = await lstat(resolveInsideRoot(dir, c.copyPath)).catch(() => null);
  let theirs: ConflictView['theirs'] = null;
  if (base && versionId) {
    const version = await versionOf(client, workspaceId, base.assetId, versionId, logger);
    theirs = {
      versionId,
      versionNumber: version?.version_number ?? (remote?.versionNumber || null),
      author: version ? personName(version.user, 'a colleague') : 'a colleague',
      createdAt: version?.created_at ?? null,
      size: version?.size ?? remote?.size ?? base.size,
    };
  }
  return {
    workspaceId,
    path: c.path,
    copyPath: c.copyPath,
    at: c.at,
    assetId: base?.assetId ?? null,
    copyAssetId: index.base.getFile(workspaceId, c.copyPath)?.assetId ?? null,
    theirs,
    mine: { size: copy?.size ?? null, modifiedAt: copy ? copy.mtime.toISOString() : null },
  };
}

/** Who made the version and when; null when the service cannot say now (the view shows less). */
async function versionOf(client: ServiceClient, workspaceId: string, assetId: string, versionId: string, logger?: Logger): Promise<AssetVersion | null> {
  try {
    return (await client.listVersions(workspaceId, assetId)).find((v) => v.id === versionId) ?? null;
  } catch (error) {
    logger?.warn({ err: error }, "the versions of a conflict's file could not be listed");
    return null;
  }
}
