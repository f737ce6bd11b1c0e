/** Workspace administration: the record, its members and settings. Changes land in the account history. */
import type { Db } from '../db/db.js';
import type { WorkspaceCaller } from '../context.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { now } from '../http/ids.js';
import { recordAccountHistory } from '../store/history.js';
import type { WorkspaceRow } from '../store/rows.js';
import { isWorkspaceMember, workspaceRoles } from './roles.js';
import { createWorkspace } from './tenancy.js';

export function getWorkspaceRow(db: Db, workspaceId: string): WorkspaceRow {
  const row = db.prepare('SELECT * FROM workspaces WHERE id = ? AND deleted_at IS NULL').get(workspaceId) as WorkspaceRow | undefined;
  if (!row) throw notFound('workspace');
  return row;
}

/** POST /workspaces: the creator becomes its owner. */
export function addWorkspace(db: Db, caller: { userId: string; accountId: string }, input: { name: string; defaultAvatar?: number | undefined }): WorkspaceRow {
  return db.transaction(() => {
    const id = createWorkspace(db, { accountId: caller.accountId, name: input.name, creatorId: caller.userId, defaultAvatar: input.defaultAvatar });
    recordAccountHistory(db, { ...caller, action: 'workspace_created', targetType: 'workspace', targetId: id, details: { name: input.name } });
    return getWorkspaceRow(db, id);
  })();
}

export function updateWorkspace(
  db: Db, caller: WorkspaceCaller, input: { name?: string | undefined; defaultAvatar?: number | undefined }, thumbnailKey?: string,
): { workspace: WorkspaceRow; replacedThumbnail: string | null } {
  return db.transaction(() => {
    const before = getWorkspaceRow(db, caller.workspaceId);
    db.prepare('UPDATE workspaces SET name = ?, default_avatar = ?, thumbnail_key = ? WHERE id = ?').run(
      input.name ?? before.name, input.defaultAvatar ?? before.default_avatar, thumbnailKey ?? before.thumbnail_key, caller.workspaceId);
    recordAccountHistory(db, { accountId: caller.accountId, userId: caller.userId, action: 'workspace_updated', targetType: 'workspace',
      targetId: caller.workspaceId, details: { name: input.name, defaultAvatar: input.defaultAvatar, thumbnail: thumbnailKey !== undefined } });
    return { workspace: getWorkspaceRow(db, caller.workspaceId), replacedThumbnail: thumbnailKey ? before.thumbnail_key : null };
  })();
}

/** Soft deletion: the workspace answers 404 from now on; its rows stay. */
export function deleteWorkspace(db: Db, caller: WorkspaceCaller): void {
  db.transaction(() => {
    db.prepare('UPDATE workspaces SET deleted_at = ? WHERE id = ?').run(now(), caller.workspaceId);
    recordAccountHistory(db, { accountId: caller.accountId, userId: caller.userId, action: 'workspace_deleted', targetType: 'workspace', targetId: caller.workspaceId });
  })();
}

/** Adds (201) or re-roles (200) a member; the user must already be a member of the account. */
export function putWorkspaceMember(db: Db, caller: WorkspaceCaller, userId: string, roles: string[]): { created: boolean } {
  return db.transaction(() => {
    const inAccount = db.prepare('SELECT 1 FROM account_members WHERE account_id = ? AND user_id = ?').get(caller.accountId, userId);
    if (!inAccount) throw notFound('account member');
    const created = !isWorkspaceMember(db, caller.workspaceId, userId);
    const before = workspaceRoles(db, caller.workspaceId, userId);
    if (before.includes('owner') && !roles.includes('owner')) assertAnotherOwner(db, caller.workspaceId, userId);
    db.prepare('INSERT OR REPLACE INTO workspace_members (workspace_id, user_id, roles) VALUES (?, ?, ?)').run(caller.workspaceId, userId, JSON.stringify(roles));
    recordAccountHistory(db, { accountId: caller.accountId, userId: caller.userId, action: created ? 'workspace_member_added' : 'workspace_member_updated',
      targetType: 'user', targetId: userId, details: { workspace_id: caller.workspaceId, roles } });
    return { created };
  })();
}

/** Removes a member (who may: http/permissions.ts). The last owner stays. */
export function removeWorkspaceMember(db: Db, caller: WorkspaceCaller, userId: string): void {
  db.transaction(() => {
    const member = db.prepare('SELECT roles FROM workspace_members WHERE workspace_id = ? AND user_id = ?').get(caller.workspaceId, userId) as { roles: string } | undefined;
    if (!member) throw notFound('workspace member');
    if ((JSON.parse(member.roles) as string[]).includes('owner')) assertAnotherOwner(db, caller.workspaceId, userId);
    db.prepare('DELETE FROM workspace_members WHERE workspace_id = ? AND user_id = ?').run(caller.workspaceId, userId);
    recordAccountHistory(db, { accountId: caller.accountId, userId: caller.userId, action: 'workspace_member_removed', targetType: 'user',
      targetId: userId, details: { workspace_id: caller.workspaceId } });
  })();
}

function assertAnotherOwner(db: Db, workspaceId: string, userId: string): void {
  const other = db.prepare(`SELECT 1 FROM workspace_members WHERE workspace_id = ? AND user_id != ? AND roles LIKE '%"owner"%'`).get(workspaceId, userId);
  if (!other) throw conflict('invalid_state', 'The workspace must keep at least one owner.');
}

export type Settings = Record<string, string | number | boolean | null>;

export function workspaceSettings(db: Db, workspaceId: string): Settings & { workspace_id: string } {
  return { ...(JSON.parse(getWorkspaceRow(db, workspaceId).settings) as Settings), workspace_id: workspaceId };
}

/** Merges the given keys; a `null` value removes a key. */
export function updateWorkspaceSettings(db: Db, caller: WorkspaceCaller, changes: Settings): Settings & { workspace_id: string } {
  return db.transaction(() => {
    const settings = JSON.parse(getWorkspaceRow(db, caller.workspaceId).settings) as Settings;
    for (const [key, value] of Object.entries(changes)) {
      if (key === 'workspace_id') throw badRequest('"workspace_id" is not a setting.');
      if (value === null) delete settings[key];
      else settings[key] = value;
    }
    db.prepare('UPDATE workspaces SET settings = ? WHERE id = ?').run(JSON.stringify(settings), caller.workspaceId);
    recordAccountHistory(db, { accountId: caller.accountId, userId: caller.userId, action: 'workspace_settings_updated', targetType: 'workspace',
      targetId: caller.workspaceId, details: changes });
    return workspaceSettings(db, caller.workspaceId);
  })();
}
