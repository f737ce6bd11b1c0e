import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient, type RetryEvent, type ServiceClientOptions } from '../../main/service-client/index.js';
import {
  ACCOUNT,
  KEY,
  SECRET,
  apiCalls,
  sendJson,
  startFakeApi,
  user,
  type FakeApi,
  type Route,
} from './service-client-servers.js';

const servers: FakeApi[] = [];
const clients: ServiceClient[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};

beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(
  routes: Record<string, Route>,
  extra: Partial<ServiceClientOptions> = {},
): Promise<{ server: FakeApi; client: ServiceClient; retries: RetryEvent[] }> {
  const server = await startFakeApi({ routes });
  servers.push(server);
  const retries: RetryEvent[] = [];
  const client = new ServiceClient({
    baseUrl: server.url,
    accountId: ACCOUNT,
    credentials: { key: KEY, secret: SECRET },
    baseDelayMs: 1,
    maxDelayMs: 5,
    maxAttempts: 4,
    onRetry: (event) => retries.push(event),
    ...extra,
  });
  clients.push(client);
  return { server, client, retries };
}

/** A route answering from a script, one entry per request, the last one repeating. */
function sequence(...steps: Route[]): Route {
  let n = 0;
  return (recorded, res, req) => steps[Math.min(n++, steps.length - 1)]!(recorded, res, req);
}
const ok: Route = (_r, res) => sendJson(res, 200, user);
const unavailable: Route = (_r, res) => sendJson(res, 503, { error: { code: 'unavailable', message: 'try later' } });
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

describe('retries', () => {
  it('retries a 503 and then succeeds', async () => {
    const { server, client, retries } = await setup({ 'GET /users': sequence(unavailable, unavailable, ok) });
    expect(await client.getUser()).toMatchObject({ id: 'user-1' });
    expect(apiCalls(server)).toHaveLength(3);
    expect(retries.map((r) => r.error.status)).toEqual([503, 503]);
  });

  it('gives up after maxAttempts with a server error', async () => {
    const { server, client } = await setup({ 'GET /users': unavailable });
    await expect(client.getUser()).rejects.toMatchObject({ kind: 'server', status: 503, code: 'unavailable' });
    expect(apiCalls(server)).toHaveLength(4);
  });

  it('does not retry a call that is not safe to repeat', async () => {
    const { server, client } = await setup({ 'POST /workspaces/assets/a1/reviews': sequence(unavailable, (_r, res) => sendJson(res, 201, review)) });
    await expect(client.createReview('w1', 'a1', { status: 'approved', content: 'ok' })).rejects.toMatchObject({ kind: 'server' });
    expect(apiCalls(server)).toHaveLength(1);
  });

  it('retries the idempotent POSTs (a version commit with its key)', async () => {
    const version = {
      id: 'v2',
      asset_id: 'a1',
      commit_parent_id: 'v1',
      created_by_user_id: 'user-1',
      thumbnail_file_id: null,
      name: 'v2',
      description: null,
      key: 'up_1',
      size: 3,
      version_number: 2,
      sequence: '12',
      checksum: 'a'.repeat(64),
    };
    const { server, client } = await setup({ 'POST /workspaces/assets/a1/versions': sequence(unavailable, (_r, res) => sendJson(res, 201, version)) });
    const made = await client.createVersion('w1', 'a1', { key: 'up_1', checksum: 'a'.repeat(64), size: 3, commit_parent_id: 'v1' });
    expect(made.sequence).toBe('12');
    const commits = apiCalls(server);
    expect(commits).toHaveLength(2);
    expect(commits[0]?.body.toString()).toBe(commits[1]?.body.toString());
  });

  it('honours Retry-After in seconds', async () => {
    const limited: Route = (_r, res) => sendJson(res, 429, { error: 'rate_limited', retry_after: 1 }, { 'retry-after': '1' });
    const { client, retries } = await setup({ 'GET /users': sequence(limited, ok) });
    await client.getUser();
    expect(retries).toHaveLength(1);
    expect(retries[0]?.error).toMatchObject({ kind: 'rate_limited', retryAfter: 1 });
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(1000);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const limited: Route = (_r, res) =>
      sendJson(res, 429, { error: 'rate_limited' }, { 'retry-after': new Date(Date.now() + 2000).toUTCString() });
    const { client, retries } = await setup({ 'GET /users': sequence(limited, ok) });
    await client.getUser();
    expect(retries[0]?.delayMs).toBeGreaterThan(0);
    expect(retries[0]?.delayMs).toBeLessThanOrEqual(2000);
  });

  it("honours the body's retry_after without a header", async () => {
    const limited: Route = (_r, res) => sendJson(res, 429, { error: 'rate_limited', retry_after: 0.05 });
    const { client, retries } = await setup({ 'GET /users': sequence(limited, ok) });
    await client.getUser();
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(50);
  });

  it('hands a long Retry-After back to the caller instead of sitting through it', async () => {
    const limited: Route = (_r, res) => sendJson(res, 429, { error: 'rate_limited', retry_after: 120 }, { 'retry-after': '120' });
    const { server, client } = await setup({ 'GET /users': limited });
    await expect(client.getUser()).rejects.toMatchObject({ kind: 'rate_limited', status: 429, retryAfter: 120 });
    expect(apiCalls(server)).toHaveLength(1);
  });

  it('retries a connection reset before any answer', async () => {
    const { server, client } = await setup({ 'GET /users': sequence((_r, res) => void res.socket?.destroy(), ok) });
    expect(await client.getUser()).toMatchObject({ id: 'user-1' });
    expect(apiCalls(server)).toHaveLength(2);
  });

  it('retries a socket closed mid-body', async () => {
    const cut: Route = (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"id":"user-1","em');
      setImmediate(() => res.socket?.destroy());
    };
    const { server, client, retries } = await setup({ 'GET /users': sequence(cut, ok) });
    expect(await client.getUser()).toMatchObject({ id: 'user-1' });
    expect(apiCalls(server)).toHaveLength(2);
    expect(retries[0]?.error.kind).toBe('network');
  });

  it('retries a timeout', async () => {
    const silent: Route = () => undefined;
    const { server, client, retries } = await setup({ 'GET /users': sequence(silent, ok) }, { timeoutMs: 300 });
    expect(await client.getUser()).toMatchObject({ id: 'user-1' });
    expect(apiCalls(server)).toHaveLength(2);
    expect(retries[0]?.error).toMatchObject({ kind: 'network', code: 'UND_ERR_HEADERS_TIMEOUT' });
  });

  it('stops waiting when the caller aborts', async () => {
    const limited: Route = (_r, res) => sendJson(res, 429, { error: 'rate_limited' }, { 'retry-after': '30' });
    const controller = new AbortController();
    const { client } = await setup({ 'GET /users': limited }, { onRetry: () => controller.abort() });
    await expect(client.getUser({ signal: controller.signal })).rejects.toMatchObject({ kind: 'aborted' });
  });
});

describe('malformed answers', () => {
  it('reports a body that is not JSON as malformed, without retrying', async () => {
    const { server, client } = await setup({
      'GET /users': (_r, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id": "user-1",');
      },
    });
    await expect(client.getUser()).rejects.toMatchObject({ name: 'ServiceError', kind: 'malformed', status: 200 });
    expect(apiCalls(server)).toHaveLength(1);
  });

  it('reports a wrong type in a field the client acts on as malformed, naming the field', async () => {
    const { client } = await setup({ 'GET /workspaces/assets/a1': (_r, res) => sendJson(res, 200, { id: 'a1', current_version_id: 5 }) });
    const err = await client.getAsset('w1', 'a1').catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'malformed', code: 'malformed_response' });
    expect((err as Error).message).toContain('current_version_id');
  });

  it('reads a wrong type in a field the client only shows as absent', async () => {
    const { client } = await setup({ 'GET /users/permissions': (_r, res) => sendJson(res, 200, { id: 'u1', accounts: 'none', personalAccount: 7 }) });
    expect(await client.getPermissions()).toMatchObject({ id: 'u1', accounts: [], personalAccount: undefined });
  });

  it('stops reading a huge body and reports it as malformed', async () => {
    const { client } = await setup({
      'GET /users': (_r, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const pump = (): void => {
          while (sent < 64 && !res.destroyed) {
            sent++;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        pump();
      },
    });
    await expect(client.getUser()).rejects.toMatchObject({ kind: 'malformed', code: 'body_too_large' });
  });

  it('refuses a declared length above the cap before reading', async () => {
    const { client } = await setup({
      'GET /users': (_r, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(200 * 1024 * 1024) });
        res.write('{');
      },
    });
    await expect(client.getUser()).rejects.toMatchObject({ kind: 'malformed', code: 'body_too_large' });
  });
});

describe('error bodies', () => {
  it('reads the object shape with details', async () => {
    const { client } = await setup({
      'POST /workspaces/assets/a1/versions': (_r, res) =>
        sendJson(res, 409, {
          error: { code: 'version_conflict', message: 'not current', details: { current_version_id: 'v9', checksum: 'b'.repeat(64) } },
        }),
    });
    await expect(client.createVersion('w1', 'a1', { key: 'k', checksum: 'a'.repeat(64), commit_parent_id: 'v1' })).rejects.toMatchObject({
      kind: 'conflict',
      status: 409,
      code: 'version_conflict',
      details: { current_version_id: 'v9' },
    });
  });

  it('reads the flat shape', async () => {
    const { client } = await setup({
      'PUT /workspaces/assets/a1': (_r, res) => sendJson(res, 403, { error: 'asset_locked', message: 'locked by someone else' }),
    });
    const err = await client.updateAsset('w1', 'a1', { name: 'x' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'locked', status: 403, code: 'asset_locked' });
    expect((err as Error).message).toContain('locked by someone else');
  });

  it('keeps the status when the error body is not JSON', async () => {
    const { client } = await setup({
      'GET /users': (_r, res) => {
        res.writeHead(400, { 'content-type': 'text/html' });
        res.end('<html>Bad Gateway</html>');
      },
    });
    await expect(client.getUser()).rejects.toMatchObject({ kind: 'client', status: 400, code: 'http_400' });
  });

  it('never puts the token, key or secret in a message or details', async () => {
    const { server, client } = await setup({
      'GET /users': (recorded, res) =>
        sendJson(res, 400, {
          error: {
            code: 'invalid_request',
            message: `bad header ${String(recorded.headers.authorization)} for ${KEY}/${SECRET}`,
            details: { echoed: recorded.headers.authorization },
          },
        }),
    });
    const err = await client.getUser().catch((e: unknown) => e);
    const token = server.tokensIssued[0] ?? 'missing';
    const text = `${(err as Error).message} ${JSON.stringify((err as { details?: unknown }).details)}`;
    expect(text).toContain('[redacted]');
    for (const secret of [token, KEY, SECRET]) expect(text).not.toContain(secret);
  });

  it('logs requests and retries through a pino logger without the token', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ level: 'debug' }, sink);
    const { server, client } = await setup({ 'GET /users': sequence(unavailable, ok) }, { logger });
    await client.getUser();
    const text = lines.join('');
    expect(text).toContain('retrying service request');
    expect(text).toContain('GET /users');
    expect(text).not.toContain(server.tokensIssued[0] ?? 'missing');
    expect(text).not.toContain(SECRET);
  });
});
