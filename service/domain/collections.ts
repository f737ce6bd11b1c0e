/**
 * Workspace collections [ours]: tags, libraries and tasks. Each row carries the workspace
 * sequence of its last change, like folders and assets.
 */
import type { Db } from '../db/db.js';
import type { WorkspaceCaller } from '../context.js';
import { conflict, notFound } from '../http/errors.js';
import { newId, now } from '../http/ids.js';
import { nextSequence } from '../store/sequence.js';
import type { TaskRow } from '../store/collab-serialize.js';
import type { LibraryRow, TagRow } from '../store/rows.js';
import { getAsset } from './assets.js';
import { isWorkspaceMember } from './roles.js';

type Actor = Pick<WorkspaceCaller, 'userId' | 'workspaceId'>;

export function getTag(db: Db, workspaceId: string, tagId: string): TagRow {
  const row = db.prepare('SELECT * FROM tags WHERE id = ? AND workspace_id = ?').get(tagId, workspaceId) as TagRow | undefined;
  if (!row) throw notFound('tag');
  return row;
}

export function createTag(db: Db, actor: Actor, input: { name: string; color?: string | null | undefined }): TagRow {
  return db.transaction(() => {
    const clash = db.prepare('SELECT id FROM tags WHERE workspace_id = ? AND lower(name) = lower(?)').get(actor.workspaceId, input.name) as { id: string } | undefined;
    if (clash) throw conflict('name_conflict', `A tag named "${input.name}" already exists.`, { id: clash.id });
    const id = newId();
    db.prepare('INSERT INTO tags (id, workspace_id, name, color, created_by_user_id, sequence) VALUES (?, ?, ?, ?, ?, ?)').run(
      id, actor.workspaceId, input.name, input.color ?? null, actor.userId, nextSequence(db, actor.workspaceId));
    return getTag(db, actor.workspaceId, id);
  })();
}

export function deleteTag(db: Db, actor: Actor, tagId: string): void {
  db.transaction(() => {
    getTag(db, actor.workspaceId, tagId);
    db.prepare('DELETE FROM tags WHERE id = ?').run(tagId);
  })();
}

export function tagsOfAsset(db: Db, assetId: string): TagRow[] {
  return db.prepare('SELECT t.* FROM tags t JOIN asset_tags x ON x.tag_id = t.id WHERE x.asset_id = ? ORDER BY t.name, t.id').all(assetId) as TagRow[];
}

/** Attaches tags to an asset, all or nothing: every tag must be of the asset's workspace. */
export function tagAsset(db: Db, actor: Actor, assetId: string, tagIds: string[]): void {
  db.transaction(() => {
    requireActiveAsset(db, actor.workspaceId, assetId);
    for (const tagId of tagIds) getTag(db, actor.workspaceId, tagId);
    const insert = db.prepare('INSERT OR IGNORE INTO asset_tags (asset_id, tag_id) VALUES (?, ?)');
    for (const tagId of tagIds) insert.run(assetId, tagId);
  })();
}

export function untagAsset(db: Db, actor: Actor, assetId: string, tagId: string): void {
  db.transaction(() => {
    requireActiveAsset(db, actor.workspaceId, assetId);
    const removed = db.prepare('DELETE FROM asset_tags WHERE asset_id = ? AND tag_id = ?').run(assetId, tagId);
    if (removed.changes === 0) throw notFound('tag of this asset');
  })();
}

/** Changes to an asset's collaboration (tags, comments, reviews) need it active. */
export function requireActiveAsset(db: Db, workspaceId: string, assetId: string) {
  const asset = getAsset(db, workspaceId, assetId);
  if (!asset.is_active) throw conflict('invalid_state', 'The asset is deleted; restore it first.');
  return asset;
}

export function getLibrary(db: Db, workspaceId: string, libraryId: string): LibraryRow {
  const row = db.prepare('SELECT * FROM libraries WHERE id = ? AND workspace_id = ?').get(libraryId, workspaceId) as LibraryRow | undefined;
  if (!row) throw notFound('library');
  return row;
}

export interface LibraryInput {
  name?: string | undefined;
  description?: string | null | undefined;
  defaultAvatar?: number | undefined;
}

function assertLibraryNameFree(db: Db, workspaceId: string, name: string, exceptId: string | null): void {
  const clash = db.prepare('SELECT id FROM libraries WHERE workspace_id = ? AND lower(name) = lower(?) AND id IS NOT ?').get(workspaceId, name, exceptId) as
    | { id: string }
    | undefined;
  if (clash) throw conflict('name_conflict', `A library named "${name}" already exists.`, { id: clash.id });
}

export function createLibrary(db: Db, actor: Actor, input: LibraryInput & { name: string }): LibraryRow {
  return db.transaction(() => {
    assertLibraryNameFree(db, actor.workspaceId, input.name, null);
    const id = newId();
    db.prepare(
      'INSERT INTO libraries (id, workspace_id, name, description, default_avatar, created_by_user_id, sequence) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(id, actor.workspaceId, input.name, input.description ?? null, input.defaultAvatar ?? 1, actor.userId, nextSequence(db, actor.workspaceId));
    return getLibrary(db, actor.workspaceId, id);
  })();
}

export function updateLibrary(db: Db, actor: Actor, libraryId: string, input: LibraryInput): LibraryRow {
  return db.transaction(() => {
    const before = getLibrary(db, actor.workspaceId, libraryId);
    if (input.name !== undefined) assertLibraryNameFree(db, actor.workspaceId, input.name, libraryId);
    db.prepare('UPDATE libraries SET name = ?, description = ?, default_avatar = ?, sequence = ? WHERE id = ?').run(
      input.name ?? before.name, input.description === undefined ? before.description : input.description,
      input.defaultAvatar ?? before.default_avatar, nextSequence(db, actor.workspaceId), libraryId);
    return getLibrary(db, actor.workspaceId, libraryId);
  })();
}

export function deleteLibrary(db: Db, actor: Actor, libraryId: string): void {
  db.transaction(() => {
    getLibrary(db, actor.workspaceId, libraryId);
    db.prepare('DELETE FROM libraries WHERE id = ?').run(libraryId);
  })();
}

export function getTask(db: Db, workspaceId: string, taskId: string): TaskRow {
  const row = db.prepare('SELECT * FROM tasks WHERE id = ? AND workspace_id = ?').get(taskId, workspaceId) as TaskRow | undefined;
  if (!row) throw notFound('task');
  return row;
}

export interface TaskInput {
  title?: string | undefined;
  description?: string | null | undefined;
  asset_id?: string | null | undefined;
  assigned_user_id?: string | null | undefined;
  due_date?: string | null | undefined;
  status?: 'open' | 'done' | undefined;
}

/** The asset and assignee of a task must belong to the task's workspace. */
function checkTaskLinks(db: Db, workspaceId: string, input: TaskInput): void {
  if (input.asset_id) getAsset(db, workspaceId, input.asset_id);
  if (input.assigned_user_id && !isWorkspaceMember(db, workspaceId, input.assigned_user_id)) throw notFound('workspace member');
}

export function createTask(db: Db, actor: Actor, input: TaskInput & { title: string }): TaskRow {
  return db.transaction(() => {
    checkTaskLinks(db, actor.workspaceId, input);
    const id = newId();
    const at = now();
    db.prepare(
      `INSERT INTO tasks (id, workspace_id, asset_id, title, description, status, assigned_user_id, created_by_user_id, due_date, sequence, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, actor.workspaceId, input.asset_id ?? null, input.title, input.description ?? null, input.status ?? 'open', input.assigned_user_id ?? null,
      actor.userId, input.due_date ?? null, nextSequence(db, actor.workspaceId), at, at);
    return getTask(db, actor.workspaceId, id);
  })();
}

export function updateTask(db: Db, actor: Actor, taskId: string, input: TaskInput): TaskRow {
  return db.transaction(() => {
    const before = getTask(db, actor.workspaceId, taskId);
    checkTaskLinks(db, actor.workspaceId, input);
    const pick = <K extends keyof TaskInput & keyof TaskRow>(key: K) => (input[key] === undefined ? before[key] : input[key]);
    db.prepare(
      'UPDATE tasks SET title = ?, description = ?, asset_id = ?, assigned_user_id = ?, due_date = ?, status = ?, sequence = ?, updated_at = ? WHERE id = ?',
    ).run(pick('title'), pick('description'), pick('asset_id'), pick('assigned_user_id'), pick('due_date'), pick('status'),
      nextSequence(db, actor.workspaceId), now(), taskId);
    return getTask(db, actor.workspaceId, taskId);
  })();
}

export function deleteTask(db: Db, actor: Actor, taskId: string): void {
  db.transaction(() => {
    getTask(db, actor.workspaceId, taskId);
    db.prepare('DELETE FROM tasks WHERE id = ?').run(taskId);
  })();
}
