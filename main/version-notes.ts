/**
 * Who made a version, by name, and its note (the service's `description`), as the app and the
 * command line both write it. A note is written only on a version the user made: it is its
 * author's account of the change, and the service would let any editor overwrite it.
 */
import { personName, type AssetVersion } from '../shared/api/index.js';
import { holderNames } from './engine/lock-holders.js';
import type { ServiceClient } from './service-client/index.js';

/** A note on someone else's version was refused; the message names who made it. */
export class NotYourVersionError extends Error {
  override readonly name = 'NotYourVersionError';
  readonly code = 'not_yours';
}

/** Who made each version, by name: the record's `user`, else the workspace's members (asked once, only when needed). */
export async function authorNames(client: ServiceClient, workspaceId: string, versions: readonly AssetVersion[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const unnamed = new Map<string, string>();
  for (const v of versions) {
    if (v.user) names.set(v.created_by_user_id, personName(v.user, `user ${v.created_by_user_id}`));
    else unnamed.set(v.created_by_user_id, v.created_by_user_id);
  }
  for (const id of names.keys()) unnamed.delete(id);
  if (unnamed.size > 0) for (const [id, name] of await holderNames(client, workspaceId, unnamed, undefined)) names.set(id, name);
  return names;
}

/** Writes the note of `version`, which `selfUserId` must have made; '' (or only spaces) clears it. */
export async function writeVersionNote(client: ServiceClient, workspaceId: string, version: AssetVersion, note: string, selfUserId: string): Promise<AssetVersion> {
  if (version.created_by_user_id !== selfUserId) {
    const names = await authorNames(client, workspaceId, [version]);
    throw new NotYourVersionError(`Version ${version.version_number} was made by ${names.get(version.created_by_user_id) ?? 'someone else'}: only they can change its note.`);
  }
  return client.updateVersion(workspaceId, version.asset_id, version.id, { description: note.trim() });
}
