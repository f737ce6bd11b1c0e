/**
 * A file's bytes committed as a new version of an asset, outside a sync plan: a restored version
 * (`asset-sync restore`) and the conflicted copy the user keeps over the service's version. The
 * bytes are pinned by their checksum three times: the signed upload is refused unless the bytes
 * sent hash to it, the commit is refused unless the stored upload does, and the version the
 * service answers must carry it. The commit names its parent, so it never lands on a version the
 * caller did not see.
 */
import { createReadStream } from 'node:fs';
import type { AssetVersion } from '../service-client/index.js';
import type { ServiceClient } from '../service-client/index.js';

export interface CommitFile {
  /** The file whose bytes become the version (read as it is: the caller checked it). */
  absPath: string;
  /** The name the upload is announced with (the asset's file name). */
  fileName: string;
  checksum: string;
  size: number;
  contentType?: string | undefined;
  /** The version the caller saw as current: 409 `version_conflict` if the service has another. */
  parentVersionId: string;
  /** The version's note. */
  description?: string | undefined;
}

export class CommittedOtherBytesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommittedOtherBytesError';
  }
}

export async function commitFileAsVersion(client: ServiceClient, workspaceId: string, assetId: string, file: CommitFile, signal?: AbortSignal): Promise<AssetVersion> {
  const opts = signal ? { signal } : {};
  const ticket = await client.requestUpload(
    workspaceId,
    { fileName: file.fileName, contentType: file.contentType ?? 'application/octet-stream', checksum: file.checksum, size: file.size },
    opts,
  );
  await client.putSignedUpload(ticket.signed_url, () => createReadStream(file.absPath), { size: file.size, ...opts });
  const version = await client.createVersion(
    workspaceId,
    assetId,
    {
      key: ticket.key,
      checksum: file.checksum,
      size: file.size,
      commit_parent_id: file.parentVersionId,
      ...(file.description !== undefined ? { description: file.description } : {}),
    },
    opts,
  );
  if (version.checksum !== file.checksum) {
    throw new CommittedOtherBytesError(`the service recorded version ${version.version_number} with checksum ${version.checksum}, not ${file.checksum}`);
  }
  return version;
}
