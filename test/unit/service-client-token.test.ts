import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient, type ServiceClientOptions } from '../../main/service-client/index.js';
import { ACCOUNT, KEY, SECRET, WORKSPACE, apiCalls, makeJwt, sendJson, startFakeApi, startServer, user, type FakeApi, type TestServer } from './service-client-servers.js';

const servers: TestServer[] = [];
const clients: ServiceClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function api(options: Parameters<typeof startFakeApi>[0]): Promise<FakeApi> {
  const server = await startFakeApi(options);
  servers.push(server);
  return server;
}

function client(server: TestServer, extra: Partial<ServiceClientOptions> = {}): ServiceClient {
  const c = new ServiceClient({
    baseUrl: server.url,
    accountId: ACCOUNT,
    credentials: { key: KEY, secret: SECRET },
    baseDelayMs: 1,
    maxDelayMs: 5,
    ...extra,
  });
  clients.push(c);
  return c;
}

/**
 * A service whose first token lasts 100 s and whose every later token request is answered
 * `status`; `later(s)` moves the client's clock on.
 */
async function renewalAnswers(status: number, code: string, extra: Partial<ServiceClientOptions> = {}) {
  let now = Date.now();
  let issued = 0;
  const jwt = await makeJwt(100);
  const server = await startServer((_req, res, r) => {
    if (r.path !== '/auth/token') return sendJson(res, 200, user);
    issued++;
    if (issued > 1) return sendJson(res, status, { error: { code, message: 'not now' } });
    return sendJson(res, 200, jwt);
  });
  servers.push(server);
  const c = client(server, { now: () => now, ...extra });
  return { server, jwt, c, later: (seconds: number) => (now += seconds * 1000) };
}

const usersRoute = { 'GET /users': (_r: unknown, res: Parameters<typeof sendJson>[0]) => sendJson(res, 200, user) };

describe('obtaining the token', () => {
  it('accepts a bare JSON string and sends it as the bearer', async () => {
    const server = await api({ tokenShape: 'string', routes: usersRoute });
    const c = client(server);
    expect(await c.getUser()).toMatchObject({ id: 'user-1' });
    const tokenRequest = server.requests.find((r) => r.path === '/auth/token');
    expect(tokenRequest?.headers['x-account-id']).toBe(ACCOUNT);
    expect(JSON.parse(tokenRequest?.body.toString() ?? '{}')).toEqual({ key: KEY, secret: SECRET });
    expect(apiCalls(server)[0]?.headers.authorization).toBe(`Bearer ${server.tokensIssued[0]}`);
  });

  it('accepts { token, expires_in }', async () => {
    const server = await api({ tokenShape: 'object', opaqueTokens: true, routes: usersRoute });
    await client(server).getUser();
    expect(apiCalls(server)[0]?.headers.authorization).toBe('Bearer opaque-1');
  });

  it('reads the lifetime from expires_in, and renews ahead of expiry', async () => {
    let now = 1_000_000;
    const server = await api({ tokenShape: 'object', opaqueTokens: true, ttl: 3600, routes: usersRoute });
    const c = client(server, { now: () => now });
    await c.getUser();
    now += 2000 * 1000;
    await c.getUser();
    expect(server.tokensIssued).toHaveLength(1);
    now += 1000 * 1000; // 3000 s into a 3600 s token: past the renewal point, before expiry
    await c.getUser();
    expect(server.tokensIssued).toHaveLength(2);
    expect(apiCalls(server).at(-1)?.headers.authorization).toBe('Bearer opaque-2');
    expect(server.rejected).toBe(0);
  });

  it('reads the lifetime from the JWT exp claim when expires_in is absent', async () => {
    let now = Date.now();
    const server = await api({ tokenShape: 'object', omitExpiresIn: true, ttl: 600, routes: usersRoute });
    const c = client(server, { now: () => now });
    await c.getUser();
    now += 400 * 1000;
    await c.getUser();
    expect(server.tokensIssued).toHaveLength(1);
    now += 100 * 1000; // 500 s into 600: within the last 20 %
    await c.getUser();
    expect(server.tokensIssued).toHaveLength(2);
    expect(server.rejected).toBe(0);
  });

  it('keeps using a still-valid token when the renewal fails for a passing reason', async () => {
    const { server, jwt, c, later } = await renewalAnswers(503, 'unavailable', { maxAttempts: 2 });
    await c.getUser();
    later(90);
    await c.getUser();
    expect(server.requests.filter((r) => r.path === '/auth/token')).toHaveLength(3);
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${jwt}`);
  });

  it('asks a credentials provider again at each renewal', async () => {
    const server = await api({ routes: usersRoute });
    let asked = 0;
    const c = client(server, {
      credentials: () => {
        asked++;
        return { key: KEY, secret: SECRET };
      },
    });
    await c.getUser();
    server.revokeAll();
    await c.getUser();
    expect(asked).toBe(2);
  });

  it('fails with kind auth on wrong credentials, without echoing them', async () => {
    const server = await startServer((_req, res) =>
      sendJson(res, 401, { error: 'unauthorized', message: `bad key ${KEY} or secret ${SECRET}` }),
    );
    servers.push(server);
    const err = await client(server).getUser().catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ServiceError', kind: 'auth', status: 401, code: 'unauthorized' });
    expect(String((err as Error).message)).not.toContain(KEY);
    expect(String((err as Error).message)).not.toContain(SECRET);
    expect(server.requests).toHaveLength(1);
  });
});

describe('renewal after a 401', () => {
  it('renews exactly once for 20 concurrent requests rejected with the same token', async () => {
    const server = await api({ routes: usersRoute });
    const c = client(server);
    await c.getUser();
    server.revokeAll();
    const results = await Promise.all(Array.from({ length: 20 }, () => c.getUser()));
    expect(results).toHaveLength(20);
    expect(server.tokensIssued).toHaveLength(2);
    expect(server.rejected).toBe(20);
    const fresh = `Bearer ${server.tokensIssued[1]}`;
    // Each request was sent again once, with the renewed token (in whatever order the
    // connections delivered them).
    expect(apiCalls(server)).toHaveLength(1 + 20 + 20);
    expect(apiCalls(server).filter((r) => r.headers.authorization === fresh)).toHaveLength(20);
  });

  it('renews only once per call: a second 401 is an auth error', async () => {
    const server = await startServer((req, res, r) => {
      if (r.path === '/auth/token') return sendJson(res, 200, `token-${server.requests.length}`);
      return sendJson(res, 401, { error: { code: 'unauthorized', message: 'no' } });
    });
    servers.push(server);
    await expect(client(server).getUser()).rejects.toMatchObject({ kind: 'auth', status: 401 });
    expect(server.requests.map((r) => r.path)).toEqual(['/auth/token', '/users', '/auth/token', '/users']);
  });

  it('repeats even a non-retriable call after a 401, since nothing was done', async () => {
    const review = {
      id: 'r1',
      asset_id: 'a1',
      asset_version_id: null,
      user_id: 'user-1',
      assigned_user_id: null,
      status: 'approved',
      content: 'ok',
      workspace_id: null,
    };
    const server = await api({ routes: { 'POST /workspaces/assets/a1/reviews': (_r, res) => sendJson(res, 201, review) } });
    const c = client(server);
    await c.getUser().catch(() => undefined);
    server.revokeAll();
    await expect(c.createReview('w1', 'a1', { status: 'approved', content: 'ok' })).resolves.toMatchObject({ id: 'r1' });
    expect(server.tokensIssued).toHaveLength(2);
  });
});

describe('what the service and other hosts receive', () => {
  it('asks for JSON, and sends no account or workspace to /users', async () => {
    const server = await api({ routes: usersRoute });
    await client(server).getUser();
    const [token, users] = server.requests;
    expect(token?.headers.accept).toBe('application/json');
    expect(users?.headers.accept).toBe('application/json');
    expect(users?.headers['x-account-id']).toBeUndefined();
    expect(users?.headers['x-workspace-id']).toBeUndefined();
  });

  it('follows no redirect of an API call, and the token goes nowhere else', async () => {
    const elsewhere = await startServer((_req, res) => sendJson(res, 200, user));
    servers.push(elsewhere);
    for (const status of [300, 302, 307]) {
      const server = await api({
        routes: { 'GET /users': (_r, res) => sendJson(res, status, user, { location: `${elsewhere.url}/users` }) },
      });
      await expect(client(server).getUser()).rejects.toMatchObject({ name: 'ServiceError', kind: 'malformed', status });
    }
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('reads a download URL only from a redirect that has a Location', async () => {
    const elsewhere = 'http://127.0.0.1:9/blobs/k?sig=s';
    const server = await api({
      routes: {
        'GET /workspaces/assets/a1/download': (_r, res) => {
          res.writeHead(302);
          res.end();
        },
        'GET /workspaces/assets/a2/download': (_r, res) => sendJson(res, 400, { error: { code: 'bad_request', message: 'no' } }, { location: elsewhere }),
        'GET /workspaces/assets/a3/download': (_r, res) => sendJson(res, 404, { error: { code: 'not_found', message: 'gone' } }),
      },
    });
    const c = client(server);
    await expect(c.getDownloadUrl(WORKSPACE, 'a1')).rejects.toMatchObject({ name: 'ServiceError', kind: 'malformed', status: 302 });
    await expect(c.getDownloadUrl(WORKSPACE, 'a2')).rejects.toMatchObject({ name: 'ServiceError', kind: 'client', status: 400 });
    await expect(c.getDownloadUrl(WORKSPACE, 'a3')).rejects.toMatchObject({ name: 'ServiceError', kind: 'not_found', status: 404 });
  });

  it('says a redirect to an invalid URL is one', async () => {
    const server = await api({
      routes: {
        'GET /workspaces/assets/a1/download': (_r, res) => {
          res.writeHead(302, { location: 'http://[::1' });
          res.end();
        },
      },
    });
    await expect(client(server).getDownloadUrl(WORKSPACE, 'a1')).rejects.toMatchObject({
      kind: 'malformed',
      code: 'bad_location',
      message: 'GET /workspaces/assets/a1/download: redirect to an invalid URL',
    });
  });

  it('asks only once where the endpoint says asking again is pointless (501)', async () => {
    const server = await api({
      routes: { 'GET /workspaces/changes': (_r, res) => sendJson(res, 501, { error: { code: 'not_implemented', message: 'no feed' } }) },
    });
    await expect(client(server, { maxAttempts: 3 }).getChanges(WORKSPACE, 0)).resolves.toMatchObject({ ok: false, reason: 'unsupported' });
    expect(apiCalls(server)).toHaveLength(1);
  });
});

describe('credentials that cannot be had', () => {
  it('says so when the credentials provider fails, and sends nothing', async () => {
    const server = await api({ routes: usersRoute });
    const err = await client(server, {
      credentials: () => {
        throw new Error('keychain locked');
      },
    })
      .getUser()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ServiceError', kind: 'auth', code: 'credentials_unavailable', message: 'the API key and secret could not be read' });
    expect(server.requests).toHaveLength(0);
  });

  it('fails the call when the renewal of a still-valid token is refused', async () => {
    const { server, c, later } = await renewalAnswers(401, 'unauthorized');
    await c.getUser();
    later(90);
    await expect(c.getUser()).rejects.toMatchObject({ kind: 'auth', status: 401 });
    expect(server.requests.map((r) => r.path)).toEqual(['/auth/token', '/users', '/auth/token']);
  });

  it('keeps the key and secret out of a blob error that comes before any token was asked for', async () => {
    const echo = await startServer((_req, res) => sendJson(res, 403, { error: { code: 'denied', message: `denied for ${KEY} / ${SECRET}` } }));
    servers.push(echo);
    // Credentials given as they are are known from the start; a provider's only once asked.
    for (const credentials of [{ key: KEY, secret: SECRET }, () => ({ key: KEY, secret: SECRET })]) {
      const err = await client(echo, { credentials }).downloadRange(`${echo.url}/blobs/k`).catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'ServiceError', kind: 'forbidden', status: 403 });
      if (typeof credentials === 'function') continue;
      expect((err as Error).message).not.toContain(KEY);
      expect((err as Error).message).not.toContain(SECRET);
    }
    expect(echo.requests.map((r) => r.path)).toEqual(['/blobs/k', '/blobs/k']);
  });
});
