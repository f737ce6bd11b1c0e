import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Account, AccountMember, Success, Workspace } from '../helpers/served.js';
import { errorCode, startTestService, type Session, type TestService } from '../helpers/service.js';
import { sha256 } from '../helpers/uploads.js';

const Setting = z.looseObject({ id: z.string(), account_id: z.string(), key: z.string(), value: z.unknown() });
const Invite = z.looseObject({ id: z.string(), account_id: z.string(), email: z.string(), roles: z.array(z.string()), invited_by_user_id: z.string(), created_at: z.string() });
const AccountHistory = z.looseObject({ id: z.string(), account_id: z.string(), user_id: z.string().nullable(), action: z.string(), created_at: z.string() });

let t: TestService;
let other: Session;
beforeAll(async () => {
  t = await startTestService({ demo: { assets: 2 } });
  other = await t.tenant('Globex');
});
afterAll(async () => t?.stop());

describe('GET /accounts', () => {
  it('lists the caller’s accounts, the requested one first, with tier, type, subscription, workspaces and roles', async () => {
    const res = await t.api('GET', '/accounts');
    expect(res.status).toBe(200);
    const [account] = z.array(Account).parse(res.json);
    expect(account).toMatchObject({ id: t.demo.accountId, account_tier_id: 'tier_pro', isCreator: true, account_roles: ['owner'] });
    expect(account?.tier?.name).toBe('Pro');
    expect(account?.type).toBeDefined();
    expect(account?.subscription?.status).toBe('active');
    expect(account?.workspaces.map((w) => w.id)).toEqual([t.demo.workspaceId]);

    const colleague = z.array(Account).parse((await t.colleague.api('GET', '/accounts')).json);
    expect(colleague[0]).toMatchObject({ isCreator: false, account_roles: ['member'] });
  });

  it('needs the token (401) and a UUID x-account-id (400), and refuses another account’s id (403)', async () => {
    expect((await t.api('GET', '/accounts', { headers: { authorization: null } })).status).toBe(401);
    expect((await t.api('GET', '/accounts', { headers: { 'x-account-id': null } })).status).toBe(400);
    expect((await t.api('GET', '/accounts', { headers: { 'x-account-id': 'not-a-uuid' } })).status).toBe(400);
    const foreign = await other.api('GET', '/accounts', { headers: { 'x-account-id': t.demo.accountId } });
    expect(foreign.status).toBe(403);
    expect(errorCode(foreign)).toBe('forbidden');
  });
});

describe('PUT /accounts and GET /accounts/download', () => {
  it('renames the account and stores the thumbnail, then redirects to its signed URL', async () => {
    const data = new FormData();
    data.append('body', JSON.stringify({ name: 'Northwind Studios' }));
    data.append('file', new Blob(['thumbnail bytes']), 'thumb.png');
    const res = await t.api('PUT', '/accounts', { body: data });
    expect(res.status).toBe(200);
    const account = Account.parse(res.json);
    expect(account.name).toBe('Northwind Studios');
    expect(account.thumbnail_file_id).toEqual(expect.any(String));

    const download = await t.api('GET', '/accounts/download');
    expect(download.status).toBe(302);
    const location = download.headers.get('location') ?? '';
    expect(location.startsWith(t.service.blobUrl)).toBe(true);
    const blob = await fetch(location);
    expect(sha256(new Uint8Array(await blob.arrayBuffer()))).toBe(sha256('thumbnail bytes'));
  });

  it('answers 404 for an account without a thumbnail', async () => {
    const res = await other.api('GET', '/accounts/download');
    expect(res.status).toBe(404);
    expect(errorCode(res)).toBe('not_found');
  });

  it('needs the owner or admin role (403) and a valid body (400)', async () => {
    const data = new FormData();
    data.append('body', JSON.stringify({ name: 'Taken over' }));
    expect((await t.colleague.api('PUT', '/accounts', { body: data })).status).toBe(403);
    expect((await t.api('PUT', '/accounts', { body: { name: '' } })).status).toBe(400);
    expect((await t.api('PUT', '/accounts', { body: { defaultAvatar: 'blue' } })).status).toBe(400);
    const [account] = z.array(Account).parse((await t.api('GET', '/accounts')).json);
    expect(account?.name).toBe('Northwind Studios');
  });
});

describe('account members', () => {
  it('lists members with their user', async () => {
    const members = z.array(AccountMember).parse((await t.api('GET', '/accounts/members')).json);
    expect(members.map((m) => m.user_id).sort()).toEqual([t.demo.user.userId, t.demo.colleague.userId].sort());
    expect(members.find((m) => m.user_id === t.demo.colleague.userId)?.user?.firstName).toBe('Rafael');
  });

  it('changes roles: owners and admins only, valid roles, known members, one owner kept', async () => {
    expect((await t.colleague.api('PUT', `/accounts/members/${t.demo.user.userId}`, { body: { roles: ['member'] } })).status).toBe(403);
    expect((await t.api('PUT', `/accounts/members/${t.demo.colleague.userId}`, { body: { roles: ['emperor'] } })).status).toBe(400);
    expect((await t.api('PUT', `/accounts/members/${t.demo.colleague.userId}`, { body: { roles: 'admin' } })).status).toBe(400);
    expect((await t.api('PUT', `/accounts/members/${other.userId}`, { body: { roles: ['admin'] } })).status).toBe(404);
    const lastOwner = await t.api('PUT', `/accounts/members/${t.demo.user.userId}`, { body: { roles: ['admin'] } });
    expect(lastOwner.status).toBe(409);
    expect(errorCode(lastOwner)).toBe('invalid_state');

    const res = await t.api('PUT', `/accounts/members/${t.demo.colleague.userId}`, { body: { roles: ['admin'] } });
    expect(res.status).toBe(200);
    expect(AccountMember.parse(res.json)).toMatchObject({ account_id: t.demo.accountId, user_id: t.demo.colleague.userId, roles: ['admin'] });
    // An admin may not make themselves owner.
    expect((await t.colleague.api('PUT', `/accounts/members/${t.demo.colleague.userId}`, { body: { roles: ['owner'] } })).status).toBe(403);
  });
});

describe('GET /accounts/workspaces', () => {
  it('lists the account’s workspaces the caller belongs to, and only those of the account', async () => {
    const mine = z.array(Workspace).parse((await t.api('GET', '/accounts/workspaces')).json);
    expect(mine.map((w) => w.id)).toEqual([t.demo.workspaceId]);
    const theirs = z.array(Workspace).parse((await other.api('GET', '/accounts/workspaces')).json);
    expect(theirs.map((w) => w.id)).toEqual([other.workspaceId]);
  });
});

describe('account settings', () => {
  it('lists the settings and changes one by id', async () => {
    const settings = z.array(Setting).parse((await t.api('GET', '/accounts/settings')).json);
    const invites = settings.find((s) => s.key === 'allow_member_invites');
    expect(invites).toMatchObject({ account_id: t.demo.accountId, value: false });
    const res = await t.api('PUT', `/accounts/settings/${invites?.id}`, { body: { value: true } });
    expect(res.status).toBe(200);
    expect(Setting.parse(res.json)).toMatchObject({ id: invites?.id, key: 'allow_member_invites', value: true });
    const again = z.array(Setting).parse((await t.api('GET', '/accounts/settings')).json);
    expect(again.find((s) => s.id === invites?.id)?.value).toBe(true);
  });

  it('answers 400 without a value, 404 for another account’s setting, 403 for a plain member', async () => {
    const [setting] = z.array(Setting).parse((await t.api('GET', '/accounts/settings')).json);
    expect((await t.api('PUT', `/accounts/settings/${setting?.id}`, { body: {} })).status).toBe(400);
    expect((await other.api('PUT', `/accounts/settings/${setting?.id}`, { body: { value: 1 } })).status).toBe(404);
    expect((await t.api('PUT', '/accounts/settings/00000000-0000-4000-8000-000000000000', { body: { value: 1 } })).status).toBe(404);
    const [theirs] = z.array(Setting).parse((await other.api('GET', '/accounts/settings')).json);
    expect((await t.api('PUT', `/accounts/settings/${theirs?.id}`, { body: { value: 1 } })).status).toBe(404);
  });
});

describe('account invites', () => {
  it('creates, lists and deletes invites', async () => {
    const created = await t.api('POST', '/accounts/invites', { body: { email: 'New.Person@Example.com', roles: ['member'] } });
    expect(created.status).toBe(201);
    const invite = Invite.parse(created.json);
    expect(invite).toMatchObject({ account_id: t.demo.accountId, email: 'new.person@example.com', roles: ['member'], invited_by_user_id: t.demo.user.userId });

    const duplicate = await t.api('POST', '/accounts/invites', { body: { email: 'new.person@example.com' } });
    expect(duplicate.status).toBe(409);
    expect(errorCode(duplicate)).toBe('name_conflict');
    expect((await t.api('POST', '/accounts/invites', { body: { email: t.demo.colleague.email } })).status).toBe(409);
    expect((await t.api('POST', '/accounts/invites', { body: { email: 'not an email' } })).status).toBe(400);

    const list = z.array(Invite).parse((await t.api('GET', '/accounts/invites')).json);
    expect(list.map((i) => i.id)).toEqual([invite.id]);
    expect(z.array(Invite).parse((await other.api('GET', '/accounts/invites')).json)).toEqual([]);
    expect((await other.api('DELETE', `/accounts/invites/${invite.id}`)).status).toBe(404);

    const deleted = await t.api('DELETE', `/accounts/invites/${invite.id}`);
    expect(Success.parse(deleted.json)).toEqual({ success: true });
    expect((await t.api('DELETE', `/accounts/invites/${invite.id}`)).status).toBe(404);
  });
});

describe('GET /accounts/history', () => {
  it('records what changed in the account, oldest first', async () => {
    const history = z.array(AccountHistory).parse((await t.api('GET', '/accounts/history')).json);
    expect(history.map((h) => h.action)).toEqual(['account_updated', 'member_updated', 'setting_updated', 'invite_created', 'invite_deleted']);
    expect(z.array(AccountHistory).parse((await other.api('GET', '/accounts/history')).json)).toEqual([]);
  });
});

describe('removing members and deleting the account', () => {
  it('deletes the account only for an owner: an admin gets 403', async () => {
    const res = await t.colleague.api('DELETE', '/accounts');
    expect(res.status).toBe(403);
    expect((await t.api('GET', '/accounts')).status).toBe(200);
  });

  it('removes a member from the account and its workspaces', async () => {
    const res = await t.api('DELETE', `/accounts/members/${t.demo.colleague.userId}`);
    expect(Success.parse(res.json)).toEqual({ success: true });
    expect((await t.api('DELETE', `/accounts/members/${t.demo.colleague.userId}`)).status).toBe(404);
    const members = z.array(AccountMember).parse((await t.api('GET', '/accounts/members')).json);
    expect(members.map((m) => m.user_id)).toEqual([t.demo.user.userId]);
    // The removed member's token no longer opens the account.
    expect((await t.colleague.api('GET', '/accounts')).status).toBe(403);
    const workspaceMembers = await t.api<Array<{ user_id: string }>>('GET', '/workspaces/members');
    expect(workspaceMembers.json.map((m) => m.user_id)).toEqual([t.demo.user.userId]);
    const lastOwner = await t.api('DELETE', `/accounts/members/${t.demo.user.userId}`);
    expect(lastOwner.status).toBe(409);
  });

  it('deletes an account (owner only): its tokens stop opening it', async () => {
    expect((await t.api('DELETE', '/accounts', { headers: { 'x-account-id': other.accountId } })).status).toBe(403);
    const res = await other.api('DELETE', '/accounts');
    expect(Success.parse(res.json)).toEqual({ success: true });
    expect((await other.api('GET', '/accounts')).status).toBe(403);
    expect((await other.api('GET', '/workspaces/tags')).status).toBe(403);
    expect((await t.api('GET', '/accounts')).status).toBe(200);
  });
});
