import type { Db } from '../db/db.js';
import { conflict, notFound } from '../http/errors.js';
import { nameKey, newId, now } from '../http/ids.js';
import { nextSequence } from '../store/sequence.js';
import { recordAssetHistory } from '../store/history.js';
import type { FolderRow } from '../store/rows.js';
import type { Actor } from './assets.js';

export function getFolder(db: Db, workspaceId: string, folderId: string): FolderRow {
  const row = db.prepare('SELECT * FROM folders WHERE id = ? AND workspace_id = ? AND purged = 0').get(folderId, workspaceId) as FolderRow | undefined;
  if (!row) throw notFound('folder');
  return row;
}

function assertFolderNameFree(db: Db, workspaceId: string, parentId: string | null, name: string, exceptId?: string): void {
  const key = nameKey(name);
  const folder = db
    .prepare(`SELECT id FROM folders WHERE workspace_id = ? AND ifnull(parent_id, '') = ? AND name_key = ? AND is_active = 1 AND id IS NOT ?`)
    .get(workspaceId, parentId ?? '', key, exceptId ?? null) as { id: string } | undefined;
  const asset = db
    .prepare(`SELECT id FROM assets WHERE workspace_id = ? AND ifnull(folder_id, '') = ? AND name_key = ? AND is_active = 1`)
    .get(workspaceId, parentId ?? '', key) as { id: string } | undefined;
  const clash = folder ?? asset;
  if (clash) throw conflict('name_conflict', `"${name}" already exists in that folder.`, { id: clash.id, type: folder ? 'folder' : 'asset' });
}

function activeParent(db: Db, workspaceId: string, parentId: string | null | undefined): string | null {
  if (!parentId) return null;
  const parent = getFolder(db, workspaceId, parentId);
  if (!parent.is_active) throw notFound('parent folder');
  return parent.id;
}

export function createFolder(db: Db, actor: Actor, input: { name: string; parent_id?: string | null | undefined }): FolderRow {
  return db.transaction(() => {
    const name = input.name;
    const parentId = activeParent(db, actor.workspaceId, input.parent_id);
    assertFolderNameFree(db, actor.workspaceId, parentId, name);
    const id = newId();
    const at = now();
    db.prepare(
      `INSERT INTO folders (id, workspace_id, parent_id, name, name_key, created_by_user_id, sequence, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, actor.workspaceId, parentId, name, nameKey(name), actor.userId, nextSequence(db, actor.workspaceId), at, at);
    return getFolder(db, actor.workspaceId, id);
  })();
}

export function updateFolder(db: Db, actor: Actor, folderId: string, input: { name?: string | undefined; parent_id?: string | null | undefined }): FolderRow {
  return db.transaction(() => {
    const folder = getFolder(db, actor.workspaceId, folderId);
    if (!folder.is_active) throw conflict('invalid_state', 'The folder is deleted.');
    const name = input.name ?? folder.name;
    const parentId = input.parent_id !== undefined ? activeParent(db, actor.workspaceId, input.parent_id) : folder.parent_id;
    for (let p = parentId, depth = 0; p && depth < 10_000; depth += 1) {
      if (p === folderId) throw conflict('cycle', 'A folder cannot be moved below itself.');
      p = (db.prepare('SELECT parent_id FROM folders WHERE id = ?').get(p) as { parent_id: string | null } | undefined)?.parent_id ?? null;
    }
    if (name === folder.name && parentId === folder.parent_id) return folder;
    assertFolderNameFree(db, actor.workspaceId, parentId, name, folderId);
    db.prepare('UPDATE folders SET name = ?, name_key = ?, parent_id = ?, sequence = ?, updated_at = ? WHERE id = ?').run(
      name, nameKey(name), parentId, nextSequence(db, actor.workspaceId), now(), folderId);
    return getFolder(db, actor.workspaceId, folderId);
  })();
}

/** Ids of the folder and every active folder below it, deepest last. */
function subtree(db: Db, folderId: string): string[] {
  const rows = db
    .prepare(
      `WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL SELECT f.id FROM folders f JOIN tree t ON f.parent_id = t.id WHERE f.is_active = 1)
       SELECT id FROM tree`,
    )
    .all(folderId) as Array<{ id: string }>;
  return rows.map((r) => r.id);
}

/** Soft-deletes a folder; with `recursive`, everything below it too (each gets a tombstone). */
export function deleteFolder(db: Db, actor: Actor, folderId: string, recursive: boolean): void {
  db.transaction(() => {
    const folder = getFolder(db, actor.workspaceId, folderId);
    if (!folder.is_active) return;
    const ids = subtree(db, folderId);
    const placeholders = ids.map(() => '?').join(',');
    const assets = db.prepare(`SELECT id FROM assets WHERE folder_id IN (${placeholders}) AND is_active = 1`).all(...ids) as Array<{ id: string }>;
    if (!recursive && (ids.length > 1 || assets.length > 0)) {
      throw conflict('folder_not_empty', 'The folder is not empty; delete its contents first or pass recursive=true.');
    }
    const at = now();
    for (const asset of assets) {
      const sequence = nextSequence(db, actor.workspaceId);
      db.prepare('UPDATE assets SET is_active = 0, sequence = ?, updated_at = ?, deleted_at = ? WHERE id = ?').run(sequence, at, at, asset.id);
      recordAssetHistory(db, { assetId: asset.id, workspaceId: actor.workspaceId, userId: actor.userId, action: 'deleted', sequence, details: { with_folder: folderId } });
    }
    for (const id of ids.reverse()) {
      db.prepare('UPDATE folders SET is_active = 0, sequence = ?, updated_at = ?, deleted_at = ? WHERE id = ?').run(nextSequence(db, actor.workspaceId), at, at, id);
    }
  })();
}
