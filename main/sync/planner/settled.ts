/**
 * A file settled on all three sides: on disk and on the service as the base recorded it, at the
 * base's path. Nearly every file of a workspace is settled at nearly every cycle, so this is
 * checked first, field by field, before anything is looked up, copied or allocated for the file.
 *
 * It is exactly the cell of the three-way matrix that plans nothing (plan.ts): the local file
 * unchanged (same checksum, size, mtime and inode as the base), the service's asset unchanged
 * (same asset, version and checksum), neither renamed, the base row not stale and at its own key.
 * Whatever else (a touch, a new version with the same bytes, a case-only rename) leaves the file
 * to the full comparison.
 */
import { pathKey } from '../../local/paths.js';
import type { BaseFile, LocalFile, RemoteFile } from '../../model/views.js';

export function isSettled(key: string, local: LocalFile, base: BaseFile, remote: RemoteFile): boolean {
  return (
    local.path === base.path &&
    remote.path === base.path &&
    remote.assetId === base.assetId &&
    remote.versionId === base.versionId &&
    local.size === base.size &&
    local.inode === base.inode &&
    local.mtimeNs === base.mtimeNs &&
    local.checksum === base.checksum &&
    remote.checksum === base.checksum &&
    // Keys are the paths case-folded: most paths are their own key, and need no folding to tell.
    (key === base.path || key === pathKey(base.path))
  );
}
