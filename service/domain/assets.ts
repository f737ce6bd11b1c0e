/**
 * Asset and version state transitions (reference part 3, docs/protocol.md). Each function is
 * one transaction: it checks, writes the rows, bumps the workspace sequence, records history.
 */
import type { Db } from '../db/db.js';
import { ApiError, badRequest, conflict, notFound } from '../http/errors.js';
import { nameKey, newId, now } from '../http/ids.js';
import { assetTypeFor } from '../db/reference-data.js';
import { nextSequence } from '../store/sequence.js';
import { recordAssetHistory } from '../store/history.js';
import type { AssetRow, VersionRow } from '../store/rows.js';
import { nameProblem } from './names.js';
import { refreshReviewRequests } from './review-requests.js';

export interface Actor {
  userId: string;
  workspaceId: string;
}

export function getAsset(db: Db, workspaceId: string, assetId: string): AssetRow {
  const row = db.prepare('SELECT * FROM assets WHERE id = ? AND workspace_id = ? AND purged = 0').get(assetId, workspaceId) as AssetRow | undefined;
  if (!row) throw notFound('asset');
  return row;
}

export function getVersion(db: Db, assetId: string, versionId: string): VersionRow {
  const row = db.prepare('SELECT * FROM asset_versions WHERE id = ? AND asset_id = ?').get(versionId, assetId) as VersionRow | undefined;
  if (!row) throw notFound('version');
  return row;
}

/**
 * A version of an asset of the workspace in one lookup; when there is none, the two lookups above
 * tell whether the asset or the version is missing.
 */
export function getAssetVersion(db: Db, workspaceId: string, assetId: string, versionId: string): VersionRow {
  const row = db
    .prepare(
      `SELECT v.* FROM asset_versions v JOIN assets a ON a.id = v.asset_id
       WHERE v.id = ? AND v.asset_id = ? AND a.workspace_id = ? AND a.purged = 0`,
    )
    .get(versionId, assetId, workspaceId) as VersionRow | undefined;
  return row ?? getVersion(db, getAsset(db, workspaceId, assetId).id, versionId);
}

export function checkFolder(db: Db, workspaceId: string, folderId: string | null | undefined): string | null {
  if (folderId === null || folderId === undefined) return null;
  const row = db.prepare('SELECT 1 FROM folders WHERE id = ? AND workspace_id = ? AND is_active = 1').get(folderId, workspaceId);
  if (!row) throw notFound('folder');
  return folderId;
}

/** A status must be one of the workspace's own. */
function checkStatus(db: Db, workspaceId: string, statusId: string | null | undefined): void {
  if (!statusId) return;
  const ok = db.prepare('SELECT 1 FROM asset_statuses WHERE id = ? AND workspace_id = ?').get(statusId, workspaceId);
  if (!ok) throw notFound('asset status');
}

function assertNameFree(db: Db, workspaceId: string, folderId: string | null, name: string, exceptId?: string): void {
  const clash = db
    .prepare(
      `SELECT a.id, a.current_version_id, v.checksum FROM assets a LEFT JOIN asset_versions v ON v.id = a.current_version_id
       WHERE a.workspace_id = ? AND ifnull(a.folder_id, '') = ? AND a.name_key = ? AND a.is_active = 1 AND a.id IS NOT ?`,
    )
    .get(workspaceId, folderId ?? '', nameKey(name), exceptId ?? null) as { id: string; current_version_id: string; checksum: string } | undefined;
  if (clash) {
    throw conflict('name_conflict', `An asset named "${name}" already exists in that folder.`, {
      id: clash.id,
      current_version_id: clash.current_version_id,
      checksum: clash.checksum,
    });
  }
  const folderClash = db
    .prepare(`SELECT id FROM folders WHERE workspace_id = ? AND ifnull(parent_id, '') = ? AND name_key = ? AND is_active = 1`)
    .get(workspaceId, folderId ?? '', nameKey(name)) as { id: string } | undefined;
  if (folderClash) throw conflict('name_conflict', `A folder named "${name}" already exists there.`, { id: folderClash.id });
}

/** An upload that was stored and whose checksum matches what the caller claims. */
function takeUpload(db: Db, actor: Actor, key: string, checksum: string): { size: number; content_type: string; file_name: string } {
  const upload = db.prepare('SELECT * FROM uploads WHERE key = ?').get(key) as
    | { workspace_id: string | null; stored: number; checksum: string; size: number; content_type: string; file_name: string }
    | undefined;
  if (!upload || upload.workspace_id !== actor.workspaceId) throw badRequest('The upload key is unknown in this workspace.', { key });
  if (!upload.stored) throw new ApiError(400, 'upload_missing', 'Nothing was uploaded to the signed URL of this key yet.');
  if (upload.checksum !== checksum) throw new ApiError(400, 'checksum_mismatch', 'The checksum does not match the uploaded bytes.');
  // One key, one version: were two versions to share bytes, purging one asset would delete the other's.
  const owner = db.prepare('SELECT asset_id FROM asset_versions WHERE key = ?').get(key) as { asset_id: string } | undefined;
  if (owner) throw conflict('invalid_state', 'This upload key was already committed; upload the bytes again.', { asset_id: owner.asset_id });
  return upload;
}

export interface CreateAssetInput {
  key: string;
  file_name: string;
  folder_id?: string | null | undefined;
  checksum: string;
  name?: string | undefined;
  asset_type_id?: string | undefined;
  status_id?: string | undefined;
  description?: string | undefined;
  library_ids?: string[] | undefined;
}

export function createAsset(db: Db, actor: Actor, input: CreateAssetInput): AssetRow {
  return db.transaction(() => {
    const fileName = input.file_name;
    const folderId = checkFolder(db, actor.workspaceId, input.folder_id);
    checkStatus(db, actor.workspaceId, input.status_id);
    assertNameFree(db, actor.workspaceId, folderId, fileName);
    const upload = takeUpload(db, actor, input.key, input.checksum);
    const sequence = nextSequence(db, actor.workspaceId);
    const assetId = newId();
    const versionId = newId();
    const at = now();
    db.prepare(
      `INSERT INTO assets (id, workspace_id, folder_id, name, file_name, name_key, asset_type_id, status_id, created_by_user_id,
        current_version_id, sequence, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(assetId, actor.workspaceId, folderId, input.name ?? fileName, fileName, nameKey(fileName), input.asset_type_id ?? assetTypeFor(fileName),
      input.status_id ?? null, actor.userId, versionId, sequence, at, at);
    insertVersion(db, { id: versionId, assetId, number: 1, parent: null, actor, key: input.key, checksum: input.checksum,
      size: upload.size, contentType: upload.content_type, name: fileName, description: input.description ?? null, sequence, at });
    for (const libraryId of input.library_ids ?? []) {
      db.prepare('INSERT OR IGNORE INTO asset_libraries (asset_id, library_id) SELECT ?, id FROM libraries WHERE id = ? AND workspace_id = ?').run(assetId, libraryId, actor.workspaceId);
    }
    recordAssetHistory(db, { assetId, workspaceId: actor.workspaceId, userId: actor.userId, action: 'created', sequence, details: { version_id: versionId, file_name: fileName } });
    return getAsset(db, actor.workspaceId, assetId);
  })();
}

function insertVersion(
  db: Db,
  v: { id: string; assetId: string; number: number; parent: string | null; actor: Actor; key: string; checksum: string; size: number;
    contentType: string | null; name: string; description: string | null; sequence: number; at: string },
): void {
  db.prepare(
    `INSERT INTO asset_versions (id, asset_id, version_number, commit_parent_id, created_by_user_id, thumbnail_file_id, name, description,
      key, size, checksum, content_type, sequence, created_at) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(v.id, v.assetId, v.number, v.parent, v.actor.userId, v.name, v.description, v.key, v.size, v.checksum, v.contentType, v.sequence, v.at);
}

export interface CreateVersionInput {
  key: string;
  checksum: string;
  commit_parent_id?: string | null | undefined;
  name?: string | undefined;
  description?: string | undefined;
}

/** A new version: conditional on `commit_parent_id`, idempotent per upload key. */
export function createVersion(db: Db, actor: Actor, assetId: string, input: CreateVersionInput): { version: VersionRow; created: boolean } {
  return db.transaction(() => {
    const asset = getAsset(db, actor.workspaceId, assetId);
    const repeated = db.prepare('SELECT * FROM asset_versions WHERE asset_id = ? AND key = ?').get(assetId, input.key) as VersionRow | undefined;
    if (repeated) return { version: repeated, created: false };
    if (!asset.is_active) throw conflict('invalid_state', 'The asset is deleted; restore it before adding versions.');
    if (asset.locked_by_user_id && asset.locked_by_user_id !== actor.userId) {
      throw new ApiError(403, 'asset_locked', 'The asset is locked by another user.', { locked_by_user_id: asset.locked_by_user_id });
    }
    if (input.commit_parent_id && input.commit_parent_id !== asset.current_version_id) {
      const current = db.prepare('SELECT checksum FROM asset_versions WHERE id = ?').get(asset.current_version_id) as { checksum: string } | undefined;
      throw conflict('version_conflict', 'The asset has a newer current version than the one this commit started from.', {
        current_version_id: asset.current_version_id,
        checksum: current?.checksum,
      });
    }
    const upload = takeUpload(db, actor, input.key, input.checksum);
    const sequence = nextSequence(db, actor.workspaceId);
    const at = now();
    const number = (db.prepare('SELECT max(version_number) AS n FROM asset_versions WHERE asset_id = ?').get(assetId) as { n: number }).n + 1;
    const versionId = newId();
    insertVersion(db, { id: versionId, assetId, number, parent: input.commit_parent_id ?? asset.current_version_id, actor, key: input.key,
      checksum: input.checksum, size: upload.size, contentType: upload.content_type, name: input.name ?? asset.file_name,
      description: input.description ?? null, sequence, at });
    db.prepare('UPDATE assets SET current_version_id = ?, sequence = ?, updated_at = ? WHERE id = ?').run(versionId, sequence, at, assetId);
    refreshReviewRequests(db, assetId, versionId);
    recordAssetHistory(db, { assetId, workspaceId: actor.workspaceId, userId: actor.userId, action: 'version_created', sequence,
      details: { version_id: versionId, version_number: number, commit_parent_id: input.commit_parent_id ?? null } });
    return { version: getVersion(db, assetId, versionId), created: true };
  })();
}

export interface UpdateAssetInput {
  name?: string | undefined;
  file_name?: string | undefined;
  folder_id?: string | null | undefined;
  status_id?: string | null | undefined;
  asset_type_id?: string | undefined;
  library_ids?: string[] | undefined;
  locked?: boolean | undefined;
}

/** Rename, move, relabel, lock or unlock. */
export function updateAsset(db: Db, actor: Actor, assetId: string, input: UpdateAssetInput): AssetRow {
  return db.transaction(() => {
    const asset = getAsset(db, actor.workspaceId, assetId);
    if (!asset.is_active) throw conflict('invalid_state', 'The asset is deleted; restore it first.');
    const changes: Array<[import('../store/history.js').AssetAction, Record<string, unknown>]> = [];
    let fileName = asset.file_name;
    let folderId = asset.folder_id;
    if (input.file_name !== undefined && input.file_name !== asset.file_name) {
      fileName = input.file_name;
      changes.push(['renamed', { from: asset.file_name, to: fileName }]);
    }
    if (input.folder_id !== undefined && input.folder_id !== asset.folder_id) {
      folderId = checkFolder(db, actor.workspaceId, input.folder_id);
      changes.push(['moved', { from: asset.folder_id, to: folderId }]);
    }
    if (fileName !== asset.file_name || folderId !== asset.folder_id) {
      // A lock holds the asset where it is too: a rename under someone's feet breaks their links.
      if (asset.locked_by_user_id && asset.locked_by_user_id !== actor.userId) {
        throw new ApiError(403, 'asset_locked', 'The asset is locked by another user; it cannot be renamed or moved.', { locked_by_user_id: asset.locked_by_user_id });
      }
      assertNameFree(db, actor.workspaceId, folderId, fileName, assetId);
    }
    let locked = asset.locked_by_user_id;
    if (input.locked !== undefined) {
      if (asset.locked_by_user_id && asset.locked_by_user_id !== actor.userId) {
        throw new ApiError(403, 'asset_locked', 'The asset is locked by another user.', { locked_by_user_id: asset.locked_by_user_id });
      }
      const next = input.locked ? actor.userId : null;
      if (next !== locked) changes.push([input.locked ? 'locked' : 'unlocked', {}]);
      locked = next;
    }
    const name = input.name !== undefined ? input.name : input.file_name !== undefined && asset.name === asset.file_name ? fileName : asset.name;
    // A display name that merely follows a rename is part of the rename, not a second change.
    if ((input.name !== undefined && name !== asset.name) || input.status_id !== undefined || input.asset_type_id !== undefined || input.library_ids !== undefined) {
      changes.push(['updated', { name, status_id: input.status_id, asset_type_id: input.asset_type_id }]);
    }
    checkStatus(db, actor.workspaceId, input.status_id);
    if (changes.length === 0) return asset;
    const sequence = nextSequence(db, actor.workspaceId);
    db.prepare(
      `UPDATE assets SET name = ?, file_name = ?, name_key = ?, folder_id = ?, locked_by_user_id = ?, status_id = ?, asset_type_id = ?,
       sequence = ?, updated_at = ? WHERE id = ?`,
    ).run(name, fileName, nameKey(fileName), folderId, locked, input.status_id === undefined ? asset.status_id : input.status_id,
      input.asset_type_id ?? asset.asset_type_id, sequence, now(), assetId);
    if (input.library_ids !== undefined) {
      db.prepare('DELETE FROM asset_libraries WHERE asset_id = ?').run(assetId);
      for (const libraryId of input.library_ids) {
        db.prepare('INSERT OR IGNORE INTO asset_libraries (asset_id, library_id) SELECT ?, id FROM libraries WHERE id = ? AND workspace_id = ?').run(assetId, libraryId, actor.workspaceId);
      }
    }
    for (const [action, details] of changes) recordAssetHistory(db, { assetId, workspaceId: actor.workspaceId, userId: actor.userId, action, sequence, details });
    return getAsset(db, actor.workspaceId, assetId);
  })();
}

export interface DeleteAssetsInput {
  asset_ids: string[];
  permanent: boolean;
  if_current_version_ids?: Record<string, string> | undefined;
}

/** Soft (restorable) or permanent deletion, all or nothing. Returns the blob keys to remove after commit. */
export function deleteAssets(db: Db, actor: Actor, input: DeleteAssetsInput): { deleted: string[]; purgedKeys: string[] } {
  return db.transaction(() => {
    const rows = [...new Set(input.asset_ids)].map((id) => getAsset(db, actor.workspaceId, id));
    for (const row of rows) {
      const expected = input.if_current_version_ids?.[row.id];
      if (expected !== undefined && expected !== row.current_version_id) {
        throw conflict('version_conflict', `Asset ${row.id} has a newer current version than expected; nothing was deleted.`, {
          id: row.id, current_version_id: row.current_version_id,
        });
      }
      // A lock guards against purging even more than against a soft delete.
      if (row.locked_by_user_id && row.locked_by_user_id !== actor.userId) {
        throw new ApiError(403, 'asset_locked', `Asset ${row.id} is locked by another user; nothing was deleted.`, { id: row.id });
      }
    }
    const purgedKeys: string[] = [];
    const at = now();
    for (const row of rows) {
      const sequence = nextSequence(db, actor.workspaceId);
      if (input.permanent) {
        const keys = db.prepare('SELECT key FROM asset_versions WHERE asset_id = ?').all(row.id) as Array<{ key: string }>;
        purgedKeys.push(...keys.map((k) => k.key));
        // The bytes go too, so their keys must not be committable any more.
        for (const { key } of keys) db.prepare('DELETE FROM uploads WHERE key = ?').run(key);
        db.prepare('DELETE FROM asset_versions WHERE asset_id = ?').run(row.id);
        db.prepare('DELETE FROM review_requests WHERE asset_id = ?').run(row.id);
        // The row stays as a tombstone for the changes feed; everything else about it is gone.
        db.prepare('UPDATE assets SET is_active = 0, purged = 1, current_version_id = NULL, sequence = ?, updated_at = ?, deleted_at = ifnull(deleted_at, ?) WHERE id = ?')
          .run(sequence, at, at, row.id);
        recordAssetHistory(db, { assetId: row.id, workspaceId: actor.workspaceId, userId: actor.userId, action: 'purged', sequence });
      } else if (row.is_active) {
        db.prepare('UPDATE assets SET is_active = 0, sequence = ?, updated_at = ?, deleted_at = ? WHERE id = ?').run(sequence, at, at, row.id);
        recordAssetHistory(db, { assetId: row.id, workspaceId: actor.workspaceId, userId: actor.userId, action: 'deleted', sequence });
      }
    }
    return { deleted: rows.map((r) => r.id), purgedKeys };
  })();
}

/**
 * Brings a soft-deleted asset back, under `file_name` when given. A name stored before the name
 * rules (names.ts) is not brought back as it is: the caller chooses a new one.
 */
export function restoreAsset(db: Db, actor: Actor, assetId: string, input: { file_name?: string | undefined } = {}): AssetRow {
  return db.transaction(() => {
    const asset = getAsset(db, actor.workspaceId, assetId);
    if (asset.is_active) throw conflict('not_deleted', 'The asset is not deleted.');
    const stored = input.file_name === undefined ? nameProblem(asset.file_name) : undefined;
    if (stored) {
      throw badRequest(`Invalid request body at "file_name": the asset's name is not allowed (${stored}); send a new "file_name" to restore it.`, { field: 'file_name' });
    }
    const fileName = input.file_name ?? asset.file_name;
    const folderActive = asset.folder_id
      ? db.prepare('SELECT 1 FROM folders WHERE id = ? AND is_active = 1').get(asset.folder_id) !== undefined
      : true;
    const folderId = folderActive ? asset.folder_id : null;
    assertNameFree(db, actor.workspaceId, folderId, fileName, assetId);
    const name = asset.name === asset.file_name ? fileName : asset.name;
    const sequence = nextSequence(db, actor.workspaceId);
    db.prepare('UPDATE assets SET is_active = 1, folder_id = ?, file_name = ?, name = ?, name_key = ?, deleted_at = NULL, sequence = ?, updated_at = ? WHERE id = ?')
      .run(folderId, fileName, name, nameKey(fileName), sequence, now(), assetId);
    recordAssetHistory(db, { assetId, workspaceId: actor.workspaceId, userId: actor.userId, action: 'restored', sequence,
      ...(fileName !== asset.file_name ? { details: { from: asset.file_name, to: fileName } } : {}) });
    return getAsset(db, actor.workspaceId, assetId);
  })();
}

export function deleteVersion(db: Db, actor: Actor, assetId: string, versionId: string): void {
  db.transaction(() => {
    const asset = getAsset(db, actor.workspaceId, assetId);
    const version = getVersion(db, assetId, versionId);
    if (version.deleted) return;
    if (asset.locked_by_user_id && asset.locked_by_user_id !== actor.userId) throw new ApiError(403, 'asset_locked', 'The asset is locked by another user.');
    const remaining = db
      .prepare('SELECT id FROM asset_versions WHERE asset_id = ? AND deleted = 0 AND id != ? ORDER BY version_number DESC LIMIT 1')
      .get(assetId, versionId) as { id: string } | undefined;
    if (!remaining) throw conflict('invalid_state', 'The only remaining version of an asset cannot be deleted; delete the asset instead.');
    const sequence = nextSequence(db, actor.workspaceId);
    db.prepare('UPDATE asset_versions SET deleted = 1 WHERE id = ?').run(versionId);
    if (asset.current_version_id === versionId) {
      db.prepare('UPDATE assets SET current_version_id = ? WHERE id = ?').run(remaining.id, assetId);
      refreshReviewRequests(db, assetId, remaining.id);
    }
    db.prepare('UPDATE assets SET sequence = ?, updated_at = ? WHERE id = ?').run(sequence, now(), assetId);
    recordAssetHistory(db, { assetId, workspaceId: actor.workspaceId, userId: actor.userId, action: 'version_deleted', sequence, details: { version_id: versionId } });
  })();
}

export function restoreVersion(db: Db, actor: Actor, assetId: string, versionId: string): VersionRow {
  return db.transaction(() => {
    getAsset(db, actor.workspaceId, assetId);
    const version = getVersion(db, assetId, versionId);
    if (!version.deleted) throw conflict('not_deleted', 'The version is not deleted.');
    const sequence = nextSequence(db, actor.workspaceId);
    db.prepare('UPDATE asset_versions SET deleted = 0 WHERE id = ?').run(versionId);
    db.prepare('UPDATE assets SET sequence = ?, updated_at = ? WHERE id = ?').run(sequence, now(), assetId);
    recordAssetHistory(db, { assetId, workspaceId: actor.workspaceId, userId: actor.userId, action: 'version_restored', sequence, details: { version_id: versionId } });
    return getVersion(db, assetId, versionId);
  })();
}

export function updateVersion(db: Db, actor: Actor, assetId: string, versionId: string, input: { name?: string | undefined; description?: string | undefined }): VersionRow {
  return db.transaction(() => {
    getAsset(db, actor.workspaceId, assetId);
    const version = getVersion(db, assetId, versionId);
    db.prepare('UPDATE asset_versions SET name = ?, description = ? WHERE id = ?').run(
      input.name ?? version.name, input.description ?? version.description, versionId);
    recordAssetHistory(db, { assetId, workspaceId: actor.workspaceId, userId: actor.userId, action: 'version_updated', details: { version_id: versionId } });
    return getVersion(db, assetId, versionId);
  })();
}
