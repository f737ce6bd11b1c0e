/**
 * Where a version's bytes are: the synced file, when the index says it holds that version and
 * its stamp (size, mtime, inode) is still the one the engine left; otherwise a copy fetched from
 * the service into the cache (checked against the version's SHA-256 on the way). A path is only
 * ever reached from an asset id through the index, inside the workspace folder, never followed
 * through a symlink.
 */
import { lstatSync } from 'node:fs';
import { basename } from 'node:path';
import type { SyncIndex } from '../index/sync-index.js';
import { pathKey, resolveInsideRoot } from '../local/paths.js';
import { cacheVouches } from '../local/hash-cache-contract.js';
import { sameIgnoringCtime, sameStamp, stampOf, type FileStamp } from '../local/stamp.js';
import type { ServiceClient } from '../service-client/index.js';
import { AppError } from '../app-api/bridge-errors.js';

/** What the media service works through: the running session's index and service client. */
export interface MediaSession {
  index: SyncIndex;
  client: ServiceClient;
}

/** One version of one asset, its bytes pinned by their checksum. */
export interface VersionRef {
  workspaceId: string;
  assetId: string;
  versionId: string;
  checksum: string;
  size: number;
  /** The file's name (for the type a name suggests before the bytes are here). */
  name: string;
  versionNumber: number | null;
}

/** A synced file that holds a version, as it was checked. */
export interface LocalSource {
  file: string;
  stamp: FileStamp;
}

export interface AssetRequest {
  workspaceId: string;
  assetId?: string | undefined;
  path?: string | undefined;
  versionId?: string | undefined;
}

function assetIdOf(index: SyncIndex, request: AssetRequest): string {
  if (request.assetId) return request.assetId;
  const path = request.path ?? '';
  const synced = index.base.getFile(request.workspaceId, path);
  if (synced) return synced.assetId;
  const remote = index.remote.load(request.workspaceId).files.get(pathKey(path));
  if (remote) return remote.assetId;
  throw new AppError('not_found', 'This file is not on the service yet, so it has no pictures.');
}

/**
 * The synced file of `assetId` if it holds the bytes `checksum` names: the base row says so and
 * the file on disk is still the one the engine placed or read (same stamp). Null otherwise.
 */
export function localSource(index: SyncIndex, workspaceId: string, assetId: string, checksum: string): LocalSource | null {
  const remote = index.remote.getFile(workspaceId, assetId);
  const workspace = index.workspaces.get(workspaceId);
  if (!remote || !workspace) return null;
  const base = index.base.getFile(workspaceId, remote.path);
  if (!base || base.assetId !== assetId || base.checksum !== checksum) return null;
  let file: string;
  try {
    file = resolveInsideRoot(workspace.localPath, base.path);
  } catch {
    return null;
  }
  try {
    const stats = lstatSync(file, { bigint: true });
    const stamp = stampOf(stats);
    // The hash cache vouches for the checksum by the whole stamp, ctime included: a rewrite that
    // kept size and mtime is not the synced version.
    const cached = index.hashCache(workspaceId).get(pathKey(base.path));
    if (!stats.isFile() || !sameIgnoringCtime(stamp, base) || !cached || cached.checksum !== checksum || !cacheVouches(cached, stamp)) return null;
    return { file, stamp };
  } catch {
    return null;
  }
}

/** True while `source` is still the file that was checked (re-checked after it was read). */
export function unchanged(source: LocalSource): boolean {
  try {
    const stats = lstatSync(source.file, { bigint: true });
    return stats.isFile() && sameStamp(stampOf(stats), source.stamp);
  } catch {
    return false;
  }
}

/**
 * The version a request means, with its checksum: the one asked for, or without a version the
 * one synced here (what the user sees on disk), else the service's current one.
 */
export async function resolveVersion(session: MediaSession, request: AssetRequest): Promise<VersionRef> {
  const { index, client } = session;
  const { workspaceId } = request;
  index.workspaces.require(workspaceId);
  const assetId = assetIdOf(index, request);
  const remote = index.remote.getFile(workspaceId, assetId);
  const baseRow = remote ? index.base.getFile(workspaceId, remote.path) : undefined;
  const base = baseRow?.assetId === assetId ? baseRow : undefined;
  const name = basename(remote?.path ?? base?.path ?? request.path ?? '');
  const numberOf = (versionId: string) => (remote?.versionId === versionId ? remote.versionNumber : null);
  const wanted = request.versionId;
  if (base && (wanted === undefined || wanted === base.versionId) && (wanted !== undefined || localSource(index, workspaceId, assetId, base.checksum))) {
    return { workspaceId, assetId, versionId: base.versionId, checksum: base.checksum, size: base.size, name, versionNumber: numberOf(base.versionId) };
  }
  if (remote && (wanted === undefined || wanted === remote.versionId)) {
    return { workspaceId, assetId, versionId: remote.versionId, checksum: remote.checksum, size: remote.size, name, versionNumber: remote.versionNumber };
  }
  const versions = await client.listVersions(workspaceId, assetId);
  const version = wanted === undefined ? undefined : versions.find((v) => v.id === wanted);
  if (!version) throw new AppError('not_found', 'That version no longer exists on the service.');
  return {
    workspaceId,
    assetId,
    versionId: version.id,
    checksum: version.checksum,
    size: version.size,
    name: name || version.name || '',
    versionNumber: version.version_number,
  };
}
