/**
 * The bytes of one version in a new file, checked against the version's checksum (in the
 * service's algorithm; by size where it cannot be told) before anyone uses them: a file that does
 * not match is removed, never left looking like the real thing.
 */
import { once } from 'node:events';
import { open, rm } from 'node:fs/promises';
import type { AssetVersion } from '../service-client/index.js';
import { hashFile } from '../local/hash.js';
import { hashingFor, verifies } from '../local/checksum.js';
import type { ServiceClient } from '../service-client/index.js';
import { RefusedError } from './outcomes.js';

/** Downloads `version` into `target`, which must not exist yet (it is created exclusively). */
export async function downloadVersion(client: ServiceClient, workspaceId: string, assetId: string, version: AssetVersion, target: string, signal?: AbortSignal): Promise<void> {
  const opts = signal ? { signal } : {};
  const { url } = await client.getDownloadUrl(workspaceId, assetId, version.id, opts);
  // Exclusive create: an existing file is never touched, and a failure below removes only ours.
  const handle = await open(target, 'wx');
  try {
    const stream = handle.createWriteStream();
    try {
      await client.downloadToStream(url, stream, opts);
    } finally {
      if (!stream.closed) {
        stream.destroy();
        await once(stream, 'close');
      }
    }
    const got = await hashFile(target, { ...opts, algorithm: hashingFor(version.checksum) });
    const { checksum } = got;
    if (!verifies(version, got)) {
      throw new RefusedError(
        `The download of version ${version.version_number} did not match its checksum (got ${checksum.slice(0, 12)}…, expected ${version.checksum.slice(0, 12)}…); nothing was kept. Try again.`,
      );
    }
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
}

/** The version numbered `number`, or a clear refusal listing the ones there are. */
export function pickVersion(versions: readonly AssetVersion[], number: number): AssetVersion {
  const found = versions.find((v) => v.version_number === number);
  const live = versions.filter((v) => !v.deleted).map((v) => v.version_number).sort((a, b) => a - b);
  if (!found) throw new RefusedError(`There is no version ${number}; the versions are ${live.join(', ')}. See \`asset-sync versions FILE\`.`);
  if (found.deleted) throw new RefusedError(`Version ${number} was deleted on the service; restore it there first, or pick one of ${live.join(', ')}.`);
  return found;
}
