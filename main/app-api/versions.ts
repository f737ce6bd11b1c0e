/**
 * A synced file's versions: listed with who made them, saved or opened as copies, and restored.
 * A restore never rewrites history: the old bytes are committed again as a new version whose
 * parent is the current one, so a concurrent edit makes it fail (409) instead of being lost.
 */
import { createReadStream } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { personName } from '../../shared/api/index.js';
import type { AssetVersion } from '../service-client/index.js';
import type { OpenOutcome, VersionInfo } from '../../shared/ipc.js';
import type { SyncIndex } from '../index/sync-index.js';
import { pathKey, sanitizeName } from '../local/paths.js';
import type { ServiceClient } from '../service-client/index.js';
import { authorNames, NotYourVersionError, writeVersionNote } from '../version-notes.js';
import { downloadVersionTo } from './download.js';
import { AppError } from './bridge-errors.js';
import type { AppHooks } from './hooks.js';
import { refusalToOpen } from './open-file.js';

export interface VersionsContext {
  client: ServiceClient;
  index: SyncIndex;
  hooks: AppHooks;
  /** Where opened versions are written: a folder of this user's alone (private-temp.ts). */
  tempRoot: string;
  /** The signed-in user's id on the service, to tell their versions from others'; null: unknown. */
  selfUserId: string | null;
}

export interface FileRef {
  workspaceId: string;
  path: string;
}

/** The asset behind a synced path: the last synced state first, else what the service has there. */
export function assetAt(index: SyncIndex, ref: FileRef): string {
  const synced = index.base.getFile(ref.workspaceId, ref.path);
  if (synced) return synced.assetId;
  const remote = index.remote.load(ref.workspaceId).files.get(pathKey(ref.path));
  if (remote) return remote.assetId;
  throw new AppError('not_found', 'This file is not on the service yet, so it has no versions.');
}


export function versionInfo(v: AssetVersion, currentVersionId: string, names: ReadonlyMap<string, string> = new Map(), selfUserId: string | null = null): VersionInfo {
  return {
    id: v.id,
    number: v.version_number,
    author: (v.created_by_user_id === undefined ? undefined : names.get(v.created_by_user_id)) ?? personName(v.user, v.created_by_user_id === undefined ? 'someone' : `user ${v.created_by_user_id}`),
    mine: selfUserId !== null && v.created_by_user_id === selfUserId,
    createdAt: v.created_at ?? null,
    size: v.size,
    checksum: v.checksum,
    parentId: v.commit_parent_id ?? null,
    current: v.id === currentVersionId,
    deleted: v.deleted ?? false,
    description: v.description || null,
  };
}

export async function listVersions(ctx: VersionsContext, ref: FileRef): Promise<VersionInfo[]> {
  const assetId = assetAt(ctx.index, ref);
  const [versions, asset] = await Promise.all([ctx.client.listVersions(ref.workspaceId, assetId), ctx.client.getAsset(ref.workspaceId, assetId)]);
  const names = await authorNames(ctx.client, ref.workspaceId, versions);
  return versions.map((v) => versionInfo(v, asset.current_version_id, names, ctx.selfUserId)).sort((a, b) => b.number - a.number);
}

/** Writes the note of a version the user made (version-notes.ts); another's is refused. */
export async function setVersionNote(ctx: VersionsContext, ref: FileRef, versionId: string, note: string): Promise<VersionInfo> {
  const { assetId, version } = await findVersion(ctx, ref, versionId);
  if (ctx.selfUserId === null) throw new AppError('offline', 'Asset Sync cannot tell who you are on the service right now, so it cannot change a note. Try again in a moment.');
  let updated: AssetVersion;
  try {
    updated = await writeVersionNote(ctx.client, ref.workspaceId, assetId, version, note, ctx.selfUserId);
  } catch (error) {
    if (error instanceof NotYourVersionError) throw new AppError(error.code, error.message);
    throw error;
  }
  const asset = await ctx.client.getAsset(ref.workspaceId, assetId);
  return versionInfo(updated, asset.current_version_id, await authorNames(ctx.client, ref.workspaceId, [updated]), ctx.selfUserId);
}

async function findVersion(ctx: VersionsContext, ref: FileRef, versionId: string): Promise<{ assetId: string; version: AssetVersion }> {
  const assetId = assetAt(ctx.index, ref);
  const version = (await ctx.client.listVersions(ref.workspaceId, assetId)).find((v) => v.id === versionId);
  if (!version) throw new AppError('not_found', 'That version no longer exists on the service.');
  return { assetId, version };
}

/** "hero.psd", version 3 → "hero (v3).psd": a copy's name says which version it holds. */
export function copyName(path: string, versionNumber: number): string {
  const name = basename(path);
  const ext = extname(name);
  return sanitizeName(`${name.slice(0, name.length - ext.length)} (v${versionNumber})${ext}`);
}

export async function saveVersionCopy(ctx: VersionsContext, ref: FileRef, versionId: string): Promise<{ savedTo: string | null }> {
  const { assetId, version } = await findVersion(ctx, ref, versionId);
  const target = await ctx.hooks.chooseSavePath(copyName(ref.path, version.version_number));
  if (target === null) return { savedTo: null };
  await downloadVersionTo(ctx.client, { workspaceId: ref.workspaceId, assetId, versionId, checksum: version.checksum, size: version.size }, target);
  return { savedTo: target };
}

/** Who made the asset's newest version, by name; throws when the service cannot say. */
export async function newestAuthor(client: ServiceClient, workspaceId: string, assetId: string): Promise<string | null> {
  const versions = await client.listVersions(workspaceId, assetId);
  const newest = versions.filter((v) => !v.deleted).sort((a, b) => b.version_number - a.version_number)[0];
  return newest ? personName(newest.user, newest.created_by_user_id ?? 'someone') : null;
}

export async function openVersion(ctx: VersionsContext, ref: FileRef, versionId: string, runConfirmed: boolean): Promise<OpenOutcome> {
  const { assetId, version } = await findVersion(ctx, ref, versionId);
  const name = copyName(ref.path, version.version_number);
  const refused = await refusalToOpen(ctx.hooks, { name, uploadedBy: async () => personName(version.user, version.created_by_user_id ?? 'someone') }, runConfirmed);
  if (refused) return refused;
  const folder = await mkdtemp(join(ctx.tempRoot, 'version-'));
  const file = join(folder, name);
  await downloadVersionTo(ctx.client, { workspaceId: ref.workspaceId, assetId, versionId, checksum: version.checksum, size: version.size }, file);
  // Read-only: edits to an opened old version would go nowhere, so the editor says so up front.
  await chmod(file, 0o444);
  await ctx.hooks.openPath(file);
  return { opened: true };
}

export async function restoreVersion(ctx: VersionsContext, ref: FileRef, versionId: string, note = ''): Promise<{ assetId: string; versionId: string; number: number; from: number }> {
  const { client } = ctx;
  const assetId = assetAt(ctx.index, ref);
  const [versions, asset] = await Promise.all([client.listVersions(ref.workspaceId, assetId), client.getAsset(ref.workspaceId, assetId)]);
  const source = versions.find((v) => v.id === versionId);
  if (!source) throw new AppError('not_found', 'That version no longer exists on the service.');
  if (source.id === asset.current_version_id) throw new AppError('already_current', `Version ${source.version_number} is already the current version.`);
  const folder = await mkdtemp(join(ctx.tempRoot, 'restore-'));
  try {
    const file = join(folder, 'bytes');
    const { checksum, size } = source;
    await downloadVersionTo(client, { workspaceId: ref.workspaceId, assetId, versionId, checksum, size }, file);
    const contentType = source.content_type ?? 'application/octet-stream';
    const ticket = await client.requestUpload(ref.workspaceId, { fileName: asset.file_name ?? asset.name ?? basename(ref.path), contentType, checksum, size });
    await client.putSignedUpload(ticket.signed_url, () => createReadStream(file), { size, contentType });
    const created = await client.createVersion(ref.workspaceId, assetId, {
      key: ticket.key,
      checksum,
      size,
      commit_parent_id: asset.current_version_id,
      description: note.trim() || `Restored from version ${source.version_number}`,
    });
    return { assetId, versionId: created.id, number: created.version_number, from: source.version_number };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
