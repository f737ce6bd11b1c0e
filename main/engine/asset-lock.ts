/**
 * Locking a file for editing, on the service (`PUT /workspaces/assets/{id}` with `locked`): the
 * lock is `locked_by_user_id`, and every other client makes the file read-only while it holds
 * (locked-files.ts). A lock someone else holds is refused by the service (403 `asset_locked`);
 * the refusal names the holder, so the user knows whom to ask. A role that may not change
 * content (403 `forbidden`) is told as such, with whom to ask.
 */
import { isServiceError, type ServiceClient } from '../service-client/index.js';
import { holderNames } from './lock-holders.js';

export interface LockState {
  /** Whether the asset is locked now, by anyone. */
  locked: boolean;
  /** The holder's user id; null when not locked. */
  holderId: string | null;
}

/** Someone else holds the lock: only they can release it, and nobody else can take it. */
export class LockHeldError extends Error {
  constructor(
    readonly fileName: string,
    readonly holder: string,
  ) {
    super(`${fileName} is locked by ${holder}: only they can unlock it. Ask them, or wait until they do.`);
    this.name = 'LockHeldError';
  }
}

/** The user's role in the workspace may not lock (a viewer or commenter): an admin can change it. */
export class LockNotAllowedError extends Error {
  constructor(readonly fileName: string) {
    super(`Your role in this workspace does not allow locking ${fileName}: ask a workspace admin for the editor role.`);
    this.name = 'LockNotAllowedError';
  }
}

/** Takes or releases the caller's lock on the asset; answers the lock as the service has it then. */
export async function setAssetLock(client: ServiceClient, workspaceId: string, assetId: string, locked: boolean, signal?: AbortSignal): Promise<LockState> {
  const opts = signal ? { signal } : {};
  try {
    const asset = await client.updateAsset(workspaceId, assetId, { locked }, opts);
    return { locked: Boolean(asset.locked_by_user_id), holderId: asset.locked_by_user_id ?? null };
  } catch (error) {
    if (isServiceError(error) && error.kind === 'forbidden') throw new LockNotAllowedError(nameOf(await client.getAsset(workspaceId, assetId, opts)));
    if (!(isServiceError(error) && error.kind === 'locked')) throw error;
    const asset = await client.getAsset(workspaceId, assetId, opts);
    throw new LockHeldError(nameOf(asset), await holderName(client, workspaceId, asset.locked_by_user_id ?? null, signal));
  }
}

/** "Rafael Reviewer" ("user <id>" when the members cannot be listed). */
async function holderName(client: ServiceClient, workspaceId: string, holderId: string | null, signal?: AbortSignal): Promise<string> {
  if (holderId === null) return 'another user';
  return (await holderNames(client, workspaceId, new Map([[holderId, holderId]]), undefined, signal)).get(holderId) ?? `user ${holderId}`;
}

const nameOf = (asset: { file_name?: string | undefined }): string => asset.file_name ?? 'this file';
