/**
 * Who made a version, by name, and its note (the service's `description`), as the app and the
 * command line both write it. A note is written only on a version the user made: it is its
 * author's account of the change, and the service would let any editor overwrite it.
 */
import { personName } from '../shared/api/index.js';
import type { AssetVersion } from './service-client/index.js';
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
    const id = v.created_by_user_id;
    if (id === undefined) continue;
    if (v.user) names.set(id, personName(v.user, `user ${id}`));
    else unnamed.set(id, id);
  }
  for (const id of names.keys()) unnamed.delete(id);
  if (unnamed.size > 0) for (const [id, name] of await holderNames(client, workspaceId, unnamed, undefined)) names.set(id, name);
  return names;
}

/** Writes the note of `version`, which `selfUserId` must have made; '' (or only spaces) clears it. */
export async function writeVersionNote(client: ServiceClient, workspaceId: string, assetId: string, version: AssetVersion, note: string, selfUserId: string): Promise<AssetVersion> {
  const author = version.created_by_user_id;
  if (author !== selfUserId) {
    const names = await authorNames(client, workspaceId, [version]);
    throw new NotYourVersionError(`Version ${version.version_number} was made by ${(author === undefined ? undefined : names.get(author)) ?? 'someone else'}: only they can change its note.`);
  }
  return client.updateVersion(workspaceId, assetId, version.id, { description: note.trim() });
}
