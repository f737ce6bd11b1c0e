/**
 * Contract: POST /auth/token and the header checks every API call goes through
 * (docs/protocol.md, "Auth" and "Errors": 400, then 401, then 403/404).
 */
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlatErrorBody, NestedErrorBody } from '../../shared/api/index.js';
import { errorCode, makeApi, startTestService, type Session, type TestService } from '../helpers/service.js';
import { statusAndCode } from '../helpers/uploads.js';

async function postToken(baseUrl: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; json: unknown; type: string | null }> {
  const res = await fetch(`${baseUrl}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as unknown, type: res.headers.get('content-type') };
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('auth: tokens and headers', () => {
  let t: TestService;
  let other: Session;
  beforeAll(async () => {
    t = await startTestService({ demo: { assets: 2 } });
    other = await t.tenant('Contoso');
  });
  afterAll(() => t?.stop());

  const credentials = () => ({ key: t.demo.user.apiKey, secret: t.demo.user.apiSecret });

  it('answers POST /auth/token with a bare JSON string by default, usable as a bearer token', async () => {
    const res = await postToken(t.service.url, { 'x-account-id': t.demo.accountId }, credentials());
    expect(res.status).toBe(200);
    // The reference's answer is a JSON string: JSON, labelled so.
    expect(res.type).toMatch(/^application\/json\b/);
    expect(typeof res.json).toBe('string');
    expect(res.json as string).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    const api = makeApi(t.service.url, { authorization: `Bearer ${res.json as string}`, 'x-account-id': t.demo.accountId, 'x-workspace-id': t.demo.workspaceId });
    expect((await api('GET', '/workspaces/folders/hierarchy')).status).toBe(200);
  });

  it('refuses a token request without a valid x-account-id or without key and secret (400)', async () => {
    expect((await postToken(t.service.url, {}, credentials())).status).toBe(400);
    expect((await postToken(t.service.url, { 'x-account-id': 'not-a-uuid' }, credentials())).status).toBe(400);
    expect((await postToken(t.service.url, { 'x-account-id': t.demo.accountId }, { key: t.demo.user.apiKey })).status).toBe(400);
    expect((await postToken(t.service.url, { 'x-account-id': t.demo.accountId }, { key: 1, secret: 2 })).status).toBe(400);
  });

  it('refuses a wrong secret or an unknown key (401)', async () => {
    const wrong = await postToken(t.service.url, { 'x-account-id': t.demo.accountId }, { key: t.demo.user.apiKey, secret: 'sk_wrong' });
    expect(wrong.status).toBe(401);
    expect((await postToken(t.service.url, { 'x-account-id': t.demo.accountId }, { key: 'ak_nobody', secret: t.demo.user.apiSecret })).status).toBe(401);
  });

  it('refuses a token for an account the key holder is not a member of (403)', async () => {
    const res = await postToken(t.service.url, { 'x-account-id': other.accountId }, credentials());
    expect(res.status).toBe(403);
  });

  it('refuses an account below the Pro plan at token time (403 plan_required)', async () => {
    const team = await t.service.seedDemo({ assets: 1, tierId: 'tier_team', accountName: 'Small Team' });
    const res = await postToken(t.service.url, { 'x-account-id': team.accountId }, { key: team.user.apiKey, secret: team.user.apiSecret });
    expect(res.status).toBe(403);
    expect((res.json as { error: { code: string } }).error.code).toBe('plan_required');
  });

  it('answers 400 for a missing or malformed header, before looking at the token', async () => {
    const { api, user } = t;
    expect(statusAndCode(await api('GET', '/workspaces/folders/hierarchy', { headers: { 'x-workspace-id': null } }))).toEqual({ status: 400, code: 'invalid_request' });
    expect((await api('GET', '/workspaces/folders/hierarchy', { headers: { 'x-workspace-id': 'ws-1' } })).status).toBe(400);
    expect((await api('GET', '/workspaces/folders/hierarchy', { headers: { 'x-account-id': null } })).status).toBe(400);
    expect((await api('GET', '/workspaces/folders/hierarchy', { headers: { 'x-account-id': '12345' } })).status).toBe(400);
    expect((await api('GET', '/workspaces/folders/hierarchy', { headers: { authorization: `Token ${user.token}` } })).status).toBe(400);
    expect((await api('GET', '/workspaces/folders/hierarchy', { headers: { authorization: 'Bearer' } })).status).toBe(400);
  });

  it('answers 401 without a token and for a garbled one', async () => {
    expect(statusAndCode(await t.api('GET', '/workspaces/folders/hierarchy', { headers: { authorization: null } }))).toEqual({ status: 401, code: 'unauthorized' });
    expect((await t.api('GET', '/workspaces/folders/hierarchy', { headers: { authorization: 'Bearer abc.def.ghi' } })).status).toBe(401);
  });

  it('refuses an unsigned token (alg: none) carrying valid claims (401)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: t.user.userId, acct: t.user.accountId, jti: 'forged', iat: now, exp: now + 3600 };
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
    const res = await t.api('GET', '/workspaces/folders/hierarchy', { headers: { authorization: `Bearer ${unsigned}` } });
    expect(res.status).toBe(401);
  });

  it('refuses a well-formed HS256 token signed with another key (401)', async () => {
    const forged = await new SignJWT({ acct: t.user.accountId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(t.user.userId)
      .setJti('forged')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(randomBytes(32));
    const res = await t.api('GET', '/workspaces/folders/hierarchy', { headers: { authorization: `Bearer ${forged}` } });
    expect(statusAndCode(res)).toEqual({ status: 401, code: 'unauthorized' });
  });

  it("refuses a token of account A used with x-account-id B (403), even with B's own workspace", async () => {
    const res = await t.api('GET', '/workspaces/folders/hierarchy', { headers: { 'x-account-id': other.accountId, 'x-workspace-id': other.workspaceId } });
    expect(statusAndCode(res)).toEqual({ status: 403, code: 'forbidden' });
  });

  it("refuses another account's workspace (403) and answers 404 for an unknown workspace", async () => {
    const foreign = await t.api('GET', '/workspaces/folders/hierarchy', { headers: { 'x-workspace-id': other.workspaceId } });
    expect(statusAndCode(foreign)).toEqual({ status: 403, code: 'forbidden' });
    const unknown = await t.api('GET', '/workspaces/folders/hierarchy', { headers: { 'x-workspace-id': '00000000-0000-4000-8000-000000000000' } });
    expect(statusAndCode(unknown)).toEqual({ status: 404, code: 'not_found' });
    // And the other tenant cannot see ours either.
    const reverse = await other.api('GET', '/workspaces/folders/hierarchy', { headers: { 'x-workspace-id': t.demo.workspaceId } });
    expect(reverse.status).toBe(403);
  });

  it('sends errors in the object shape by default', async () => {
    const res = await t.api('GET', '/workspaces/folders/hierarchy', { headers: { authorization: null } });
    const body = NestedErrorBody.parse(res.json);
    expect(body.error.code).toBe('unauthorized');
    expect(body.error.message.length).toBeGreaterThan(0);
  });
});

describe('auth: service options', () => {
  it('answers { token, expires_in } with tokenShape "object"', async () => {
    const t = await startTestService({ service: { tokenShape: 'object', tokenTtlSeconds: 900 }, demo: { assets: 1 } });
    try {
      const res = await postToken(t.service.url, { 'x-account-id': t.demo.accountId }, { key: t.demo.user.apiKey, secret: t.demo.user.apiSecret });
      expect(res.status).toBe(200);
      expect(res.type).toMatch(/^application\/json\b/);
      expect(res.json).toEqual({ token: expect.stringMatching(/^eyJ/), expires_in: 900 });
      // The helper took the token out of the object and it works.
      expect((await t.api('GET', '/workspaces/folders/hierarchy')).status).toBe(200);
    } finally {
      await t.stop();
    }
  });

  it('refuses an expired token with 401 token_expired', async () => {
    const t = await startTestService({ service: { tokenTtlSeconds: 2 }, demo: { assets: 1 } });
    try {
      // Used once while fresh (so the service has seen it valid), then again once past `exp`.
      expect((await t.api('GET', '/workspaces/folders/hierarchy')).status).toBe(200);
      // JWT `exp` has whole-second resolution: three seconds later the token is past it for sure.
      await new Promise((resolve) => setTimeout(resolve, 3_100));
      const res = await t.api('GET', '/workspaces/folders/hierarchy');
      expect(statusAndCode(res)).toEqual({ status: 401, code: 'token_expired' });
    } finally {
      await t.stop();
    }
  });

  it('sends errors in the flat shape with errorShape "flat"', async () => {
    const t = await startTestService({ service: { errorShape: 'flat' }, demo: { assets: 1 } });
    try {
      const res = await t.api('GET', '/workspaces/folders/hierarchy', { headers: { 'x-workspace-id': '00000000-0000-4000-8000-000000000000' } });
      expect(res.status).toBe(404);
      const body = FlatErrorBody.parse(res.json);
      expect(body.error).toBe('not_found');
      expect(typeof body.message).toBe('string');
      expect(errorCode(res)).toBe('not_found');
    } finally {
      await t.stop();
    }
  });
});
