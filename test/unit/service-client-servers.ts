/**
 * Small, purpose-built HTTP servers that misbehave on demand, for testing the service client
 * against what a real (or hostile) service might answer. Not a model of the service.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';

export interface Recorded {
  method: string;
  path: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, recorded: Recorded) => void | Promise<void>;

export interface TestServer {
  url: string;
  port: number;
  requests: Recorded[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => undefined);
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const recorded: Recorded = { method: req.method ?? 'GET', path: url.pathname, url, headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(recorded);
      Promise.resolve(handler(req, res, recorded)).catch((err: unknown) => {
        res.destroy(err instanceof Error ? err : new Error(String(err)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

const jwtKey = new TextEncoder().encode('test-signing-key-test-signing-key');

/** A real HS256 JWT whose `exp` is `ttlSeconds` after `iatSeconds`. */
export async function makeJwt(ttlSeconds: number, iatSeconds = Math.floor(Date.now() / 1000), jti = crypto.randomUUID()): Promise<string> {
  return new SignJWT({ acct: 'acct-1' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('user-1')
    .setIssuedAt(iatSeconds)
    .setExpirationTime(iatSeconds + ttlSeconds)
    .setJti(jti)
    .sign(jwtKey);
}

export const KEY = 'ak_test_key_1234';
export const SECRET = 'sk_very_secret_5678';
export const ACCOUNT = '11111111-1111-4111-8111-111111111111';
export const WORKSPACE = '22222222-2222-4222-8222-222222222222';

export type Route = (recorded: Recorded, res: ServerResponse, req: IncomingMessage) => void | Promise<void>;

export interface FakeApiOptions {
  /** How POST /auth/token answers: a bare JSON string (default) or `{ token, expires_in }`. */
  tokenShape?: 'string' | 'object';
  /** Issues this token instead of a JWT (with the object shape, `expires_in` is `ttl`). */
  opaqueTokens?: boolean;
  ttl?: number;
  /** Leave `expires_in` out of the object shape. */
  omitExpiresIn?: boolean;
  routes: Record<string, Route>;
}

export interface FakeApi extends TestServer {
  tokensIssued: string[];
  /** Requests answered 401 because of their token. */
  rejected: number;
  /** Makes every token issued so far invalid (as if revoked or expired early). */
  revokeAll(): void;
}

/**
 * An API origin with a working token endpoint and bearer check, and test-supplied routes keyed
 * `METHOD /path`. Unknown routes answer 404 in the default error shape.
 */
export async function startFakeApi(options: FakeApiOptions): Promise<FakeApi> {
  const valid = new Set<string>();
  const api = { tokensIssued: [] as string[], rejected: 0 };
  const server = await startServer(async (req, res, recorded) => {
    if (recorded.method === 'POST' && recorded.path === '/auth/token') {
      const creds = JSON.parse(recorded.body.toString('utf8')) as { key?: string; secret?: string };
      if (creds.key !== KEY || creds.secret !== SECRET || req.headers['x-account-id'] !== ACCOUNT) {
        sendJson(res, 401, { error: { code: 'unauthorized', message: 'bad key or secret' } });
        return;
      }
      const ttl = options.ttl ?? 3600;
      const token = options.opaqueTokens ? `opaque-${api.tokensIssued.length + 1}` : await makeJwt(ttl);
      api.tokensIssued.push(token);
      valid.add(token);
      if (options.tokenShape === 'object') sendJson(res, 200, options.omitExpiresIn ? { token } : { token, expires_in: ttl });
      else sendJson(res, 200, token);
      return;
    }
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ') || !valid.has(auth.slice(7))) {
      api.rejected++;
      sendJson(res, 401, { error: { code: 'token_expired', message: 'token expired' } });
      return;
    }
    const route = options.routes[`${recorded.method} ${recorded.path}`];
    if (!route) {
      sendJson(res, 404, { error: { code: 'not_found', message: 'no such route' } });
      return;
    }
    await route(recorded, res, req);
  });
  return {
    ...server,
    tokensIssued: api.tokensIssued,
    get rejected() {
      return api.rejected;
    },
    revokeAll: () => valid.clear(),
  };
}

/** Requests other than the token endpoint. */
export function apiCalls(server: TestServer): Recorded[] {
  return server.requests.filter((r) => r.path !== '/auth/token');
}

export const user = { id: 'user-1', email: 'a@example.com', firstName: 'Ada' };

export const checksumOf = (char: string): string => char.repeat(64);
