import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { accountCaller, parse, type ServiceContext } from '../context.js';
import {
  accountSettings, createInvite, deleteAccount, deleteInvite, getAccountRow, removeAccountMember, setMemberRoles,
  updateAccount, updateAccountSetting, userAccounts,
} from '../domain/accounts.js';
import { AccountRole } from '../domain/roles.js';
import { notFound } from '../http/errors.js';
import { discardFile, readForm } from '../http/multipart.js';
import {
  accountHistoryJson, accountJson, accountMemberJson, callerWorkspaces, inviteJson, settingJson,
  type AccountHistoryRow, type InviteRow, type MemberRow,
} from '../store/collab-serialize.js';
import { workspaceJson } from '../store/serialize.js';
import { redirectToBlob } from './downloads.js';

const AccountChanges = z.object({ name: z.string().trim().min(1).max(255).optional(), defaultAvatar: z.number().int().min(1).max(10).optional() });
const MemberRoles = z.object({ roles: z.array(AccountRole).min(1).max(10) });
const SettingValue = z.object({ value: z.json() });
const NewInvite = z.object({ email: z.email().max(320), roles: z.array(AccountRole).max(10).default(['member']) });
type MemberParams = { Params: { member_id: string } };

/** Account administration (reference part 4, "Accounts"): token and x-account-id. */
export function accountRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { db } = ctx;

  app.get('/accounts', async (request) => {
    const { userId, accountId } = accountCaller(request);
    return userAccounts(db, userId, accountId).map((a) => accountJson(db, a, userId));
  });

  app.put('/accounts', async (request) => {
    const c = accountCaller(request);
    const { body, file } = await readForm(ctx, request, AccountChanges, c);
    try {
      const { account: row, replacedThumbnail } = updateAccount(db, c, body, file?.key);
      if (replacedThumbnail) await discardFile(ctx, replacedThumbnail);
      return accountJson(db, row, c.userId);
    } catch (error) {
      if (file) await discardFile(ctx, file.key);
      throw error;
    }
  });

  app.delete('/accounts', async (request) => {
    deleteAccount(db, accountCaller(request));
    return { success: true };
  });

  app.get('/accounts/download', async (request, reply) => {
    const row = getAccountRow(db, accountCaller(request).accountId);
    if (!row.thumbnail_key) throw notFound('account thumbnail');
    const blob = db.prepare('SELECT checksum, size FROM uploads WHERE key = ? AND stored = 1').get(row.thumbnail_key) as { checksum: string; size: number } | undefined;
    if (!blob) throw notFound('account thumbnail');
    return redirectToBlob(ctx, request, reply, { key: row.thumbnail_key, ...blob });
  });

  const members = (accountId: string) =>
    (db.prepare(
      `SELECT m.user_id, m.roles FROM account_members m JOIN users u ON u.id = m.user_id WHERE m.account_id = ? ORDER BY u.last_name, u.first_name, u.id`,
    ).all(accountId) as MemberRow[]).map((m) => accountMemberJson(db, accountId, m));

  app.get('/accounts/members', async (request) => members(accountCaller(request).accountId));

  app.put<MemberParams>('/accounts/members/:member_id', async (request) => {
    const c = accountCaller(request);
    setMemberRoles(db, c, request.params.member_id, parse(MemberRoles, request.body).roles);
    const row = db.prepare('SELECT user_id, roles FROM account_members WHERE account_id = ? AND user_id = ?').get(c.accountId, request.params.member_id) as MemberRow;
    return accountMemberJson(db, c.accountId, row);
  });

  app.delete<MemberParams>('/accounts/members/:member_id', async (request) => {
    removeAccountMember(db, accountCaller(request), request.params.member_id);
    return { success: true };
  });

  app.get('/accounts/workspaces', async (request) => {
    const { userId, accountId } = accountCaller(request);
    return callerWorkspaces(db, accountId, userId).map((w) => workspaceJson(db, w, userId));
  });

  app.get('/accounts/settings', async (request) => accountSettings(db, accountCaller(request).accountId).map(settingJson));

  app.put<{ Params: { setting_id: string } }>('/accounts/settings/:setting_id', async (request) =>
    settingJson(updateAccountSetting(db, accountCaller(request), request.params.setting_id, parse(SettingValue, request.body).value)),
  );

  app.get('/accounts/history', async (request) =>
    (db.prepare('SELECT * FROM account_history WHERE account_id = ? ORDER BY created_at, rowid').all(accountCaller(request).accountId) as AccountHistoryRow[]).map(
      accountHistoryJson,
    ),
  );

  app.get('/accounts/invites', async (request) =>
    (db.prepare('SELECT * FROM account_invites WHERE account_id = ? ORDER BY created_at, rowid').all(accountCaller(request).accountId) as InviteRow[]).map(inviteJson),
  );

  app.post('/accounts/invites', async (request, reply) =>
    reply.code(201).send(inviteJson(createInvite(db, accountCaller(request), parse(NewInvite, request.body)))),
  );

  app.delete<{ Params: { invite_id: string } }>('/accounts/invites/:invite_id', async (request) => {
    deleteInvite(db, accountCaller(request), request.params.invite_id);
    return { success: true };
  });
}
