/**
 * Rows to API shapes for the collaboration resources: accounts, members, settings, invites,
 * history, tags, libraries, tasks, comments, attachments, reviews and review requests.
 * The asset, version, user and workspace mappers live in serialize.ts and are reused here.
 */
import type { Db } from '../db/db.js';
import type { AccountRow, AssetRow, LibraryRow, TagRow, VersionRow, WorkspaceRow } from './rows.js';
import { assetJson, loadUser, versionJson, workspaceJson } from './serialize.js';
import { present } from './present.js';

export interface TaskRow {
  id: string; workspace_id: string; asset_id: string | null; title: string; description: string | null; status: string;
  assigned_user_id: string | null; created_by_user_id: string; due_date: string | null; sequence: number; created_at: string; updated_at: string;
}
export interface CommentRow { id: string; asset_id: string; workspace_id: string; user_id: string; content: string; mentions: string; created_at: string; updated_at: string }
export interface AttachmentRow {
  id: string; asset_id: string; created_by_user_id: string; file_id: string; thumbnail_file_id: string | null;
  review_id: string | null; comment_id: string | null; name: string; description: string | null;
}
export interface ReviewRow {
  id: string; asset_id: string; workspace_id: string; asset_version_id: string | null; user_id: string; assigned_user_id: string | null;
  status: string; content: string; mentions: string; viewer_metadata: string | null; created_at: string; updated_at: string;
}
export interface ReviewRequestRow {
  id: string; workspace_id: string; asset_id: string; asset_version_id: string; requestor_id: string; user_id: string;
  review_id: string | null; message: string | null; created_at: string; updated_at: string;
}
export interface MemberRow { user_id: string; roles: string }
export interface SettingRow { id: string; account_id: string; key: string; value: string }
export interface InviteRow { id: string; account_id: string; email: string; roles: string; invited_by_user_id: string; created_at: string }
export interface AccountHistoryRow {
  id: string; account_id: string; user_id: string | null; action: string; target_type: string | null; target_id: string | null;
  details: string | null; created_at: string;
}
export interface AssetHistoryRow { id: string; asset_id: string; user_id: string; action: string; details: string | null; sequence: number | null; created_at: string }
export interface ReviewHistoryRow {
  id: string; asset_id: string; review_id: string | null; user_id: string; status: string | null; asset_version_id: string | null;
  action: string; created_at: string;
}

const parseJson = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));
const stringList = (text: string): string[] => JSON.parse(text) as string[];

export function accountMemberJson(db: Db, accountId: string, row: MemberRow): Record<string, unknown> {
  return present({ account_id: accountId, user_id: row.user_id, roles: stringList(row.roles), user: loadUser(db, row.user_id) });
}

export function workspaceMemberJson(db: Db, workspaceId: string, row: MemberRow): Record<string, unknown> {
  return present({ workspace_id: workspaceId, user_id: row.user_id, roles: stringList(row.roles), user: loadUser(db, row.user_id) });
}

/** The caller's active workspaces in an account, in name order. */
export function callerWorkspaces(db: Db, accountId: string, userId: string): WorkspaceRow[] {
  return db
    .prepare(
      `SELECT w.* FROM workspaces w JOIN workspace_members m ON m.workspace_id = w.id AND m.user_id = ?
       WHERE w.account_id = ? AND w.deleted_at IS NULL ORDER BY w.name, w.id`,
    )
    .all(userId, accountId) as WorkspaceRow[];
}

/** An account as the caller sees it: tier, type, subscription, their workspaces and roles. */
export function accountJson(db: Db, row: AccountRow, userId: string): Record<string, unknown> {
  const tier = db.prepare('SELECT * FROM tiers WHERE id = ?').get(row.tier_id) as
    | { id: string; type: string; name: string; max_storage: number; cost_per_license: number; cost_per_extra_tb: number }
    | undefined;
  const type = row.type_id
    ? (db.prepare('SELECT * FROM account_types WHERE id = ?').get(row.type_id) as
        | { id: string; name: string; max_storage: number; max_assets: number; max_users: number; cost_per_user: number; add_storage_price: number }
        | undefined)
    : undefined;
  const subscription = db.prepare('SELECT * FROM subscriptions WHERE account_id = ?').get(row.id) as Record<string, unknown> | undefined;
  const member = db.prepare('SELECT user_id, roles FROM account_members WHERE account_id = ? AND user_id = ?').get(row.id, userId) as MemberRow | undefined;
  return present({
    id: row.id,
    name: row.name,
    account_tier_id: row.tier_id,
    thumbnail_file_id: row.thumbnail_key,
    created_by_user_id: row.created_by_user_id,
    defaultAvatar: row.default_avatar,
    sequence: row.sequence,
    ...(subscription ? { subscription: present(subscription) } : {}),
    ...(member ? { members: accountMemberJson(db, row.id, member) } : {}),
    ...(tier
      ? { tier: { id: tier.id, type: tier.type, name: tier.name, maxStorage: tier.max_storage, costPerLicense: tier.cost_per_license, costPerExtraTB: tier.cost_per_extra_tb } }
      : {}),
    ...(type
      ? {
          type: { id: type.id, name: type.name, maxStorage: type.max_storage, maxAssets: type.max_assets, maxUsers: type.max_users,
            costPerUser: type.cost_per_user, addStoragePrice: type.add_storage_price },
        }
      : {}),
    ...(row.created_by_user_id ? { creator: loadUser(db, row.created_by_user_id) } : {}),
    workspaces: callerWorkspaces(db, row.id, userId).map((w) => workspaceJson(db, w, userId)),
    isCreator: row.created_by_user_id === userId,
    account_roles: member ? stringList(member.roles) : [],
    created_at: row.created_at,
  });
}

/** A setting's value is any JSON value the account stored, `null` included. */
export const settingJson = (row: SettingRow) => ({ id: row.id, account_id: row.account_id, key: row.key, value: parseJson(row.value) });

export const inviteJson = (row: InviteRow) => ({
  id: row.id, account_id: row.account_id, email: row.email, roles: stringList(row.roles), invited_by_user_id: row.invited_by_user_id, created_at: row.created_at,
});

export const accountHistoryJson = (row: AccountHistoryRow) => present({ ...row, details: parseJson(row.details) });
export const assetHistoryJson = (row: AssetHistoryRow) => present({ ...row, details: parseJson(row.details) });
export const reviewHistoryJson = (row: ReviewHistoryRow) => present(row);

export const tagJson = (row: TagRow) => present(row);

export const libraryJson = (row: LibraryRow) => present({
  id: row.id, workspace_id: row.workspace_id, name: row.name, description: row.description, thumbnail_file_id: row.thumbnail_file_id,
  defaultAvatar: row.default_avatar, created_by_user_id: row.created_by_user_id, sequence: row.sequence,
});

export const taskJson = (row: TaskRow) => present(row);

export function attachmentJson(db: Db, row: AttachmentRow): Record<string, unknown> {
  return present({ ...row, user: loadUser(db, row.created_by_user_id) });
}

function attachmentsOf(db: Db, column: 'comment_id' | 'review_id', id: string): Array<Record<string, unknown>> {
  return (db.prepare(`SELECT * FROM attachments WHERE ${column} = ? ORDER BY rowid`).all(id) as AttachmentRow[]).map((a) => attachmentJson(db, a));
}

export function commentJson(db: Db, row: CommentRow): Record<string, unknown> {
  return present({
    id: row.id, asset_id: row.asset_id, workspace_id: row.workspace_id, user_id: row.user_id, content: row.content,
    mentions: stringList(row.mentions), attachments: attachmentsOf(db, 'comment_id', row.id), created_at: row.created_at, updated_at: row.updated_at,
    user: loadUser(db, row.user_id),
  });
}

function versionOf(db: Db, versionId: string | null): Record<string, unknown> | undefined {
  if (!versionId) return undefined;
  const row = db.prepare('SELECT * FROM asset_versions WHERE id = ?').get(versionId) as VersionRow | undefined;
  return row ? versionJson(row, loadUser(db, row.created_by_user_id)) : undefined;
}

export function reviewJson(db: Db, row: ReviewRow): Record<string, unknown> {
  // The reference marks asset_version_id, assigned_user_id and workspace_id nullable: they stay, null when unset.
  return present(
    {
      id: row.id, asset_id: row.asset_id, workspace_id: row.workspace_id, asset_version_id: row.asset_version_id, user_id: row.user_id,
      assigned_user_id: row.assigned_user_id, status: row.status, content: row.content, mentions: stringList(row.mentions),
      viewer_metadata: parseJson(row.viewer_metadata), attachments: attachmentsOf(db, 'review_id', row.id),
      version: versionOf(db, row.asset_version_id), user: loadUser(db, row.user_id), assignee: loadUser(db, row.assigned_user_id),
      created_at: row.created_at, updated_at: row.updated_at,
    },
    ['asset_version_id', 'assigned_user_id', 'workspace_id'],
  );
}

/** A review request with its users, version and answer; `withAsset` adds the asset (notifications). */
export function reviewRequestJson(db: Db, row: ReviewRequestRow, opts: { withAsset?: boolean } = {}): Record<string, unknown> {
  const review = row.review_id ? (db.prepare('SELECT * FROM reviews WHERE id = ?').get(row.review_id) as ReviewRow | undefined) : undefined;
  const asset = opts.withAsset ? (db.prepare('SELECT * FROM assets WHERE id = ?').get(row.asset_id) as AssetRow | undefined) : undefined;
  return present({
    ...row,
    user: loadUser(db, row.user_id),
    requestor: loadUser(db, row.requestor_id),
    version: versionOf(db, row.asset_version_id),
    review: review ? reviewJson(db, review) : undefined,
    asset: asset ? assetJson(db, asset) : undefined,
  });
}
