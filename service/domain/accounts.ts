/** Account administration: the account record, its members, settings and invites. Each change is recorded in the account history. */
import type { Db } from '../db/db.js';
import { ApiError, conflict, forbidden, notFound } from '../http/errors.js';
import { newId, now } from '../http/ids.js';
import { recordAccountHistory } from '../store/history.js';
import type { AccountRow } from '../store/rows.js';
import type { InviteRow, SettingRow } from '../store/collab-serialize.js';
import { accountRoles, type AccountRole } from './roles.js';

export interface AccountCaller {
  userId: string;
  accountId: string;
}

/** Settings every account has [ours]; stored as JSON values, created on first use. */
const DEFAULT_SETTINGS: Record<string, unknown> = {
  default_workspace_role: 'editor',
  allow_member_invites: false,
  require_review_before_approval: false,
};

export function getAccountRow(db: Db, accountId: string): AccountRow {
  const row = db.prepare('SELECT * FROM accounts WHERE id = ? AND deleted_at IS NULL').get(accountId) as AccountRow | undefined;
  if (!row) throw notFound('account');
  return row;
}

/** The user's active accounts; `firstId` (the account of the request) comes first. */
export function userAccounts(db: Db, userId: string, firstId?: string): AccountRow[] {
  return db
    .prepare(
      `SELECT a.* FROM accounts a JOIN account_members m ON m.account_id = a.id AND m.user_id = ?
       WHERE a.deleted_at IS NULL ORDER BY (a.id = ?) DESC, a.name, a.id`,
    )
    .all(userId, firstId ?? '') as AccountRow[];
}

export function updateAccount(db: Db, caller: AccountCaller, input: { name?: string | undefined; defaultAvatar?: number | undefined }, thumbnailKey?: string): { account: AccountRow; replacedThumbnail: string | null } {
  return db.transaction(() => {
    const before = getAccountRow(db, caller.accountId);
    db.prepare('UPDATE accounts SET name = ?, default_avatar = ?, thumbnail_key = ?, sequence = sequence + 1 WHERE id = ?').run(
      input.name ?? before.name, input.defaultAvatar ?? before.default_avatar, thumbnailKey ?? before.thumbnail_key, caller.accountId);
    recordAccountHistory(db, { ...caller, action: 'account_updated', targetType: 'account', targetId: caller.accountId,
      details: { name: input.name, defaultAvatar: input.defaultAvatar, thumbnail: thumbnailKey !== undefined } });
    return { account: getAccountRow(db, caller.accountId), replacedThumbnail: thumbnailKey ? before.thumbnail_key : null };
  })();
}

/** Soft deletion: every token of the account stops working (403), the rows stay. */
export function deleteAccount(db: Db, caller: AccountCaller): void {
  db.transaction(() => {
    const at = now();
    db.prepare('UPDATE accounts SET deleted_at = ? WHERE id = ?').run(at, caller.accountId);
    db.prepare('UPDATE workspaces SET deleted_at = ifnull(deleted_at, ?) WHERE account_id = ?').run(at, caller.accountId);
    recordAccountHistory(db, { ...caller, action: 'account_deleted', targetType: 'account', targetId: caller.accountId });
  })();
}

function ownerCount(db: Db, accountId: string): number {
  return (db.prepare(`SELECT count(*) AS n FROM account_members WHERE account_id = ? AND roles LIKE '%"owner"%'`).get(accountId) as { n: number }).n;
}

function requireMember(db: Db, accountId: string, userId: string): string[] {
  const row = db.prepare('SELECT roles FROM account_members WHERE account_id = ? AND user_id = ?').get(accountId, userId) as { roles: string } | undefined;
  if (!row) throw notFound('account member');
  return JSON.parse(row.roles) as string[];
}

/** Only an owner grants or takes away `owner`; the last owner cannot stop being one. Who may call it at all: http/permissions.ts. */
export function setMemberRoles(db: Db, caller: AccountCaller, memberId: string, roles: AccountRole[]): void {
  db.transaction(() => {
    const before = requireMember(db, caller.accountId, memberId);
    const touchesOwner = before.includes('owner') !== roles.includes('owner');
    if (touchesOwner && !accountRoles(db, caller.accountId, caller.userId).includes('owner')) throw forbidden('Only an owner can grant or remove the owner role.');
    if (before.includes('owner') && !roles.includes('owner') && ownerCount(db, caller.accountId) === 1) {
      throw conflict('invalid_state', 'The account must keep at least one owner.');
    }
    db.prepare('UPDATE account_members SET roles = ? WHERE account_id = ? AND user_id = ?').run(JSON.stringify(roles), caller.accountId, memberId);
    recordAccountHistory(db, { ...caller, action: 'member_updated', targetType: 'user', targetId: memberId, details: { from: before, to: roles } });
  })();
}

/** Removes a member from the account and from all its workspaces; only an owner removes an owner, and the last one stays. */
export function removeAccountMember(db: Db, caller: AccountCaller, memberId: string): void {
  db.transaction(() => {
    const roles = requireMember(db, caller.accountId, memberId);
    if (roles.includes('owner') && !accountRoles(db, caller.accountId, caller.userId).includes('owner')) throw forbidden('Only an owner can remove an owner.');
    if (roles.includes('owner') && ownerCount(db, caller.accountId) === 1) throw conflict('invalid_state', 'The account must keep at least one owner.');
    db.prepare('DELETE FROM workspace_members WHERE user_id = ? AND workspace_id IN (SELECT id FROM workspaces WHERE account_id = ?)').run(memberId, caller.accountId);
    db.prepare('DELETE FROM account_members WHERE account_id = ? AND user_id = ?').run(caller.accountId, memberId);
    recordAccountHistory(db, { ...caller, action: 'member_removed', targetType: 'user', targetId: memberId });
  })();
}

export function accountSettings(db: Db, accountId: string): SettingRow[] {
  const insert = db.prepare('INSERT OR IGNORE INTO account_settings (id, account_id, key, value) VALUES (?, ?, ?, ?)');
  for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) insert.run(newId(), accountId, key, JSON.stringify(value));
  return db.prepare('SELECT * FROM account_settings WHERE account_id = ? ORDER BY key').all(accountId) as SettingRow[];
}

export function updateAccountSetting(db: Db, caller: AccountCaller, settingId: string, value: unknown): SettingRow {
  return db.transaction(() => {
    accountSettings(db, caller.accountId);
    const row = db.prepare('SELECT * FROM account_settings WHERE id = ? AND account_id = ?').get(settingId, caller.accountId) as SettingRow | undefined;
    if (!row) throw notFound('setting');
    const text = JSON.stringify(value);
    db.prepare('UPDATE account_settings SET value = ? WHERE id = ?').run(text, settingId);
    recordAccountHistory(db, { ...caller, action: 'setting_updated', targetType: 'setting', targetId: settingId, details: { key: row.key, value } });
    return { ...row, value: text };
  })();
}

export function createInvite(db: Db, caller: AccountCaller, input: { email: string; roles: AccountRole[] }): InviteRow {
  return db.transaction(() => {
    if (input.roles.includes('owner') && !accountRoles(db, caller.accountId, caller.userId).includes('owner')) throw forbidden('Only an owner can invite an owner.');
    const email = input.email.toLowerCase();
    const member = db
      .prepare('SELECT u.id FROM users u JOIN account_members m ON m.user_id = u.id AND m.account_id = ? WHERE lower(u.email) = ?')
      .get(caller.accountId, email) as { id: string } | undefined;
    if (member) throw new ApiError(409, 'invalid_state', 'That person is already a member of the account.', { user_id: member.id });
    const pending = db.prepare('SELECT id FROM account_invites WHERE account_id = ? AND email = ?').get(caller.accountId, email) as { id: string } | undefined;
    if (pending) throw conflict('name_conflict', 'That email address already has a pending invite.', { id: pending.id });
    const id = newId();
    db.prepare('INSERT INTO account_invites (id, account_id, email, roles, invited_by_user_id, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
      id, caller.accountId, email, JSON.stringify(input.roles), caller.userId, now());
    recordAccountHistory(db, { ...caller, action: 'invite_created', targetType: 'invite', targetId: id, details: { email, roles: input.roles } });
    return db.prepare('SELECT * FROM account_invites WHERE id = ?').get(id) as InviteRow;
  })();
}

export function deleteInvite(db: Db, caller: AccountCaller, inviteId: string): void {
  db.transaction(() => {
    const row = db.prepare('SELECT id FROM account_invites WHERE id = ? AND account_id = ?').get(inviteId, caller.accountId);
    if (!row) throw notFound('invite');
    db.prepare('DELETE FROM account_invites WHERE id = ?').run(inviteId);
    recordAccountHistory(db, { ...caller, action: 'invite_deleted', targetType: 'invite', targetId: inviteId });
  })();
}
