/**
 * Contract: the rate limit (429 with Retry-After and `{ error, retry_after }`) and the injected
 * faults a client must survive (docs/protocol.md "Limits" and "Local service options").
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimitBody } from '../../shared/api/index.js';
import { startService, type RunningService, type ServiceOptions } from '../../service/index.js';
import { errorCode, getToken, makeApi, receive, startTestService, type ApiResponse, type TestService } from '../helpers/service.js';

const running: RunningService[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

async function start(options: Partial<ServiceOptions>): Promise<RunningService> {
  const service = await startService(options);
  running.push(service);
  return service;
}

const faults = (f: Partial<NonNullable<ServiceOptions['faults']>>) => ({ latencyMs: 0, error5xx: 0, drop: 0, truncate: 0, seed: 1, ...f });

/** How a client sees one response: its status, and whether its whole body arrived as JSON. */
async function attempt(url: string, init: RequestInit = {}): Promise<{ status: number | 'failed'; parsed: boolean }> {
  try {
    const res = await fetch(url, init);
    try {
      JSON.parse(await res.text());
      return { status: res.status, parsed: true };
    } catch {
      return { status: res.status, parsed: false };
    }
  } catch {
    return { status: 'failed', parsed: false };
  }
}


describe('rate limit', () => {
  it('answers a burst beyond the limit with 429, a Retry-After header and { error, retry_after }; other tokens are not affected', async () => {
    const t = await startTestService({ service: { rateLimitPerSecond: 5 }, demo: { assets: 1 } });
    try {
      const burst = await Promise.all(Array.from({ length: 30 }, () => t.api('GET', '/workspaces/folders/hierarchy')));
      const limited = burst.filter((r) => r.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      expect(burst.filter((r) => r.status !== 429).every((r) => r.status === 200)).toBe(true);
      for (const res of limited) {
        const retryAfter = Number(res.headers.get('retry-after'));
        expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
        expect(RateLimitBody.parse(res.json)).toEqual({ error: 'rate_limited', retry_after: retryAfter });
      }
      expect((await t.colleague.api('GET', '/workspaces/folders/hierarchy')).status).toBe(200);
    } finally {
      await t.stop();
    }
  });
});

/** A token the service never issued: random text, or a well-formed HS256 JWT signed with another key. */
async function forgedToken(t: TestService, i: number): Promise<string> {
  if (i % 2 === 0) return `${randomBytes(12).toString('base64url')}.${randomBytes(24).toString('base64url')}.${randomBytes(32).toString('base64url')}`;
  return new SignJWT({ acct: t.user.accountId }).setProtectedHeader({ alg: 'HS256' }).setSubject(t.user.userId).setJti(`forged-${i}`).setIssuedAt()
    .setExpirationTime('1h').sign(randomBytes(32));
}

/** A 429 in the reference's shape: Retry-After in whole seconds, and the same number as `retry_after` in the body. */
function rateLimited(res: ApiResponse): boolean {
  const retryAfter = Number(res.headers.get('retry-after'));
  const body = RateLimitBody.safeParse(res.json);
  return res.status === 429 && Number.isInteger(retryAfter) && retryAfter >= 1 && body.success && body.data.error === 'rate_limited' && body.data.retry_after === retryAfter;
}

/** POST /auth/token from another loopback address than 127.0.0.1: a second client address. */
function tokenFrom(localAddress: string, url: string, accountId: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = request(`${url}/auth/token`, {
      method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'x-account-id': accountId, 'content-length': Buffer.byteLength(text) },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(text);
  });
}

describe('failed authentication', () => {
  it('is limited per address even without a rate limit: past the burst, 429 without checking the credential; known tokens and other addresses go on', async () => {
    // Next to no refill: the counts below do not depend on how long the requests take.
    const t = await startTestService({ service: { failedAuthLimit: { burst: 10, perMinute: 0.001 } }, demo: { assets: 1 } });
    try {
      expect((await t.api('GET', '/workspaces/folders/hierarchy')).status).toBe(200);
      const paths = ['/workspaces/folders/hierarchy', '/users', '/accounts', '/workspaces/changes?since=0', '/workspaces/assets/x'];
      const answers = await Promise.all(Array.from({ length: 40 }, async (_, i) =>
        t.api(i % 3 === 0 ? 'POST' : 'GET', paths[i % paths.length] ?? '/users', { headers: { authorization: `Bearer ${await forgedToken(t, i)}` } })));
      const refused = answers.filter((r) => r.status === 401);
      const limited = answers.filter(rateLimited);
      expect({ refused: refused.length, limited: limited.length }).toEqual({ refused: 10, limited: 30 });
      expect(refused.every((r) => errorCode(r) === 'unauthorized')).toBe(true);

      // Blocked: even the right secret is not looked at from this address...
      const rightSecret = { key: t.demo.user.apiKey, secret: t.demo.user.apiSecret };
      expect(rateLimited(await makeApi(t.service.url, { 'x-account-id': t.user.accountId })('POST', '/auth/token', { body: rightSecret }))).toBe(true);
      // ...but a token the service has already verified still works, a request without one is plainly refused,
      expect((await t.api('GET', '/workspaces/folders/hierarchy')).status).toBe(200);
      expect(errorCode(await t.api('GET', '/users', { headers: { authorization: null } }))).toBe('unauthorized');
      // and another address signs in.
      expect(await tokenFrom('127.0.0.2', t.service.url, t.user.accountId, rightSecret)).toBe(200);
    } finally {
      await t.stop();
    }
  });

  it('counts wrong secrets at POST /auth/token', async () => {
    const t = await startTestService({ service: { failedAuthLimit: { burst: 5, perMinute: 0.001 } }, demo: { assets: 1 } });
    try {
      const api = makeApi(t.service.url, { 'x-account-id': t.user.accountId });
      const answers: ApiResponse[] = [];
      for (let i = 0; i < 8; i += 1) answers.push(await api('POST', '/auth/token', { body: { key: t.demo.user.apiKey, secret: `sk_guess_${i}` } }));
      expect(answers.map((r) => (rateLimited(r) ? 429 : r.status))).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    } finally {
      await t.stop();
    }
  });

  it('does not count a genuine token that expired, a missing token, or a refusal for lack of permission', async () => {
    const t = await startTestService({ service: { failedAuthLimit: { burst: 3, perMinute: 0.001 } }, demo: { assets: 1 } });
    try {
      const { value } = t.service.db.prepare('SELECT value FROM service_secret').get() as { value: string };
      const past = Math.floor(Date.now() / 1000) - 60;
      const expired = await new SignJWT({ acct: t.user.accountId }).setProtectedHeader({ alg: 'HS256' }).setSubject(t.user.userId).setJti('expired')
        .setIssuedAt(past - 3600).setExpirationTime(past).sign(new TextEncoder().encode(value));
      const other = await t.tenant('Elsewhere');
      for (let i = 0; i < 10; i += 1) {
        expect(errorCode(await t.api('GET', '/users', { headers: { authorization: `Bearer ${expired}` } }))).toBe('token_expired');
        expect(errorCode(await t.api('GET', '/users', { headers: { authorization: null } }))).toBe('unauthorized');
        expect(errorCode(await t.api('GET', '/workspaces/folders/hierarchy', { headers: { 'x-workspace-id': other.workspaceId } }))).toBe('forbidden');
      }
      // The whole burst is still there.
      const forged = await Promise.all([0, 1, 2, 3].map(async (i) => t.api('GET', '/users', { headers: { authorization: `Bearer ${await forgedToken(t, i)}` } })));
      expect(forged.map((r) => (rateLimited(r) ? 429 : r.status)).sort()).toEqual([401, 401, 401, 429]);
    } finally {
      await t.stop();
    }
  });

  it('takes from the address\'s bucket when --rate-limit is on, also for failed authentication', async () => {
    const t = await startTestService({ service: { rateLimitPerSecond: 5, failedAuthLimit: false }, demo: { assets: 1 } });
    try {
      const answers = await Promise.all(Array.from({ length: 30 }, async (_, i) =>
        t.api('GET', '/workspaces/folders/hierarchy', { headers: { authorization: `Bearer ${await forgedToken(t, i)}` } })));
      expect(answers.filter(rateLimited).length).toBeGreaterThan(0);
      expect(answers.every((r) => r.status === 401 || rateLimited(r))).toBe(true);
    } finally {
      await t.stop();
    }
  });
});

describe('faults', () => {
  it('with error5xx: 1 answers every API call 503 (with Retry-After), while the blob origin is untouched', async () => {
    const service = await start({ faults: faults({ error5xx: 1 }) });
    const demo = await service.seedDemo({ assets: 1 });
    const api = makeApi(service.url, { 'x-account-id': demo.accountId, 'x-workspace-id': demo.workspaceId, authorization: 'Bearer x.y.z' });
    for (const [method, path] of [['GET', '/workspaces/folders/hierarchy'], ['POST', '/auth/token'], ['GET', '/nowhere'], ['DELETE', '/workspaces/assets']] as const) {
      const res = await api(method, path, { body: method === 'GET' ? undefined : {} });
      expect({ path, status: res.status }).toEqual({ path, status: 503 });
      expect(res.headers.get('retry-after')).not.toBeNull();
    }
    const blob = await fetch(`${service.blobUrl}/blobs/up_nothing?op=get&exp=1&sig=00`);
    expect(blob.status).toBe(403);
    await blob.arrayBuffer();
    expect(service.faults?.counts.error5xx).toBe(4);
  });

  it('with drop: 1 cuts every successful response mid-body; error answers still arrive whole', async () => {
    const service = await start({ faults: faults({ drop: 1 }) });
    const demo = await service.seedDemo({ assets: 1 });
    const token = await attempt(`${service.url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-account-id': demo.accountId },
      body: JSON.stringify({ key: demo.user.apiKey, secret: demo.user.apiSecret }),
    });
    // The status line and headers arrive; the body stops halfway.
    expect(token).toEqual({ status: 200, parsed: false });
    const refused = await attempt(`${service.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused).toEqual({ status: 400, parsed: true });
  });

  it('with truncate: 1 delivers fewer bytes of a blob than its Content-Length promises', async () => {
    const service = await start({ faults: faults({ truncate: 1 }) });
    const demo = await service.seedDemo({ assets: 1 });
    const token = await getToken(service.url, demo.accountId, demo.user);
    const api = makeApi(service.url, { authorization: `Bearer ${token}`, 'x-account-id': demo.accountId, 'x-workspace-id': demo.workspaceId });
    const download = await api('GET', `/workspaces/assets/${demo.assetIds[0] ?? ''}/download`);
    expect(download.status).toBe(302);
    const got = await receive(download.headers.get('location') ?? '');
    expect(got.status).toBe(200);
    expect(got.promised).toBeGreaterThan(0);
    expect(got.received).toBeLessThan(got.promised);
  });

  it('replays the same faults for the same seed and the same requests', async () => {
    const statuses = async (seed: number) => {
      const service = await start({ faults: faults({ error5xx: 0.5, seed }) });
      const out: number[] = [];
      // Sequential on purpose: the faults follow the order of requests.
      for (let i = 0; i < 40; i += 1) {
        const res = await fetch(`${service.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
        await res.arrayBuffer();
        out.push(res.status);
      }
      return out;
    };
    const first = await statuses(7);
    const second = await statuses(7);
    const other = await statuses(8);
    expect(new Set(first)).toEqual(new Set([400, 503]));
    expect(second).toEqual(first);
    expect(other).not.toEqual(first);
  });
});
