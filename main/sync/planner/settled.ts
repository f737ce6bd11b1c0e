/**
 * A file settled on all three sides: on disk and on the service as the base recorded it, at the
 * base's path. Nearly every file of a workspace is settled at nearly every cycle, so this is
 * checked first, field by field, before anything is copied or made for the file.
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
  // Numbers first: they sit in the objects, while each string is one more read from memory.
  return (
    local.size === base.size &&
    local.inode === base.inode &&
    local.path === base.path &&
    remote.path === base.path &&
    remote.assetId === base.assetId &&
    remote.versionId === base.versionId &&
    local.mtimeNs === base.mtimeNs &&
    local.checksum === base.checksum &&
    remote.checksum === base.checksum &&
    isKeyOf(key, base.path)
  );
}

/** Whether `key` is `pathKey(path)`, told without making the key for an ASCII path. */
function isKeyOf(key: string, path: string): boolean {
  if (key === path) return true;
  if (key.length !== path.length) return key === pathKey(path);
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    // Beyond ASCII, case folding and NFC are pathKey's business.
    if (code > 0x7f) return key === pathKey(path);
    if (key.charCodeAt(i) !== (code >= 0x41 && code <= 0x5a ? code + 0x20 : code)) return false;
  }
  return true;
}
