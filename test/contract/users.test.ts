import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Account, Permissions, User } from '../helpers/served.js';
import { errorCode, getToken, startTestService, type TestService } from '../helpers/service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ demo: { assets: 2 } });
});
afterAll(async () => t?.stop());

const noAccount = { 'x-account-id': null, 'x-workspace-id': null };

function form(body: unknown, file?: { bytes: string; name: string; type: string }): FormData {
  const data = new FormData();
  data.append('body', typeof body === 'string' ? body : JSON.stringify(body));
  if (file) data.append('file', new Blob([file.bytes], { type: file.type }), file.name);
  return data;
}

describe('GET /users', () => {
  it('answers the caller with the token alone', async () => {
    const res = await t.api('GET', '/users', { headers: noAccount });
    expect(res.status).toBe(200);
    const user = User.parse(res.json);
    expect(user).toMatchObject({ id: t.demo.user.userId, email: t.demo.user.email, firstName: 'Dana', isActive: true });
  });

  it('refuses a missing token (401) and a malformed Authorization header (400)', async () => {
    const missing = await t.api('GET', '/users', { headers: { authorization: null } });
    expect(missing.status).toBe(401);
    expect(errorCode(missing)).toBe('unauthorized');
    const malformed = await t.api('GET', '/users', { headers: { authorization: 'Basic abc' } });
    expect(malformed.status).toBe(400);
  });
});

describe('PATCH /users', () => {
  it('takes a multipart form: the body part changes fields, the file part becomes the avatar', async () => {
    const res = await t.api('PATCH', '/users', {
      body: form({ firstName: 'Dana-Maria', city: 'Lisbon', defaultAvatar: 3 }, { bytes: '<svg/>', name: 'me.svg', type: 'image/svg+xml' }),
    });
    expect(res.status).toBe(200);
    const user = User.parse(res.json);
    expect(user).toMatchObject({ firstName: 'Dana-Maria', city: 'Lisbon', defaultAvatar: 3, lastName: 'Designer' });
    expect(user.avatar_file_id).toEqual(expect.any(String));

    const again = User.parse((await t.api('GET', '/users')).json);
    expect(again).toMatchObject({ firstName: 'Dana-Maria', city: 'Lisbon', avatar_file_id: user.avatar_file_id });
  });

  it('replaces the avatar with a new file and keeps it without one', async () => {
    const before = User.parse((await t.api('GET', '/users')).json);
    const replaced = User.parse((await t.api('PATCH', '/users', { body: form({}, { bytes: 'png', name: 'me.png', type: 'image/png' }) })).json);
    expect(replaced.avatar_file_id).not.toBe(before.avatar_file_id);
    const kept = User.parse((await t.api('PATCH', '/users', { body: form({ company: 'Northwind' }) })).json);
    expect(kept).toMatchObject({ company: 'Northwind', avatar_file_id: replaced.avatar_file_id });
  });

  it('ignores the read-only fields id, email and idpUserID', async () => {
    const res = await t.api('PATCH', '/users', { body: form({ email: 'someone@else.example', id: 'x', occupation: 'Art director' }) });
    expect(res.status).toBe(200);
    expect(User.parse(res.json)).toMatchObject({ id: t.demo.user.userId, email: t.demo.user.email, occupation: 'Art director' });
  });

  it('answers 400 for a body part that is not JSON, wrong types, out-of-range values or a stray file part', async () => {
    const notJson = await t.api('PATCH', '/users', { body: form('{oops') });
    expect(notJson.status).toBe(400);
    expect(errorCode(notJson)).toBe('invalid_request');
    for (const body of [{ firstName: 5 }, { defaultAvatar: 11 }, { username: '' }]) {
      const res = await t.api('PATCH', '/users', { body: form(body, { bytes: 'x', name: 'a.png', type: 'image/png' }) });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const truncated = await t.api('PATCH', '/users', { body: '--x\r\nContent-Disposition: form-data; name="body"\r\n\r\n{}', headers: { 'content-type': 'multipart/form-data; boundary=x' } });
    expect(truncated.status).toBe(400);
    const stray = new FormData();
    stray.append('picture', new Blob(['x']), 'a.png');
    expect((await t.api('PATCH', '/users', { body: stray })).status).toBe(400);
    // Nothing of the refused requests stuck.
    expect(User.parse((await t.api('GET', '/users')).json).firstName).toBe('Dana-Maria');
  });
});

describe('GET /users/permissions and /users/accounts', () => {
  it('lists the accounts of the caller', async () => {
    const permissions = Permissions.parse((await t.api('GET', '/users/permissions', { headers: noAccount })).json);
    expect(permissions).toMatchObject({ id: t.demo.user.userId, email: t.demo.user.email, });
    expect(permissions.personalAccount, 'none: left out, never null').toBeUndefined();
    expect(permissions.accounts.map((a) => a.id)).toEqual([t.demo.accountId]);
    expect(permissions.accounts[0]?.workspaces.map((w) => w.id)).toEqual([t.demo.workspaceId]);

    const accounts = z.array(Account).parse((await t.api('GET', '/users/accounts', { headers: noAccount })).json);
    expect(accounts.map((a) => a.id)).toEqual([t.demo.accountId]);
    expect(accounts[0]).toMatchObject({ isCreator: true, account_roles: ['owner'] });
  });

  it('shows another tenant only its own account', async () => {
    const other = await t.tenant('Globex');
    const accounts = z.array(Account).parse((await other.api('GET', '/users/accounts')).json);
    expect(accounts.map((a) => a.id)).toEqual([other.accountId]);
  });
});

describe('DELETE /users', () => {
  it('deactivates the caller: 204, then the token and the API key stop working (401)', async () => {
    const tenant = t.service.createTenant('Initech');
    const token = await getToken(t.service.url, tenant.accountId, tenant.user);
    const headers = { authorization: `Bearer ${token}` };
    const res = await t.api('DELETE', '/users', { headers });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await t.api('GET', '/users', { headers })).status).toBe(401);
    await expect(getToken(t.service.url, tenant.accountId, tenant.user)).rejects.toThrow(/401/);
    // The demo user is untouched.
    expect((await t.api('GET', '/users')).status).toBe(200);
  });
});
