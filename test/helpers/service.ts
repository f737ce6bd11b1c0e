/**
 * Contract-test helper: a real service on free ports, seeded with the demo, and a tiny HTTP
 * client bound to a caller's token and headers. Tests talk to it over real HTTP with fetch.
 */
import { get } from 'node:http';
import { startService, type DemoInfo, type DemoOptions, type RunningService, type ServiceOptions } from '../../service/index.js';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  json: T;
  text: string;
}

export interface ApiOptions {
  /** A plain value is sent as JSON; FormData, Uint8Array and strings are sent as they are. */
  body?: unknown;
  /** Extra headers; a header set to null is left out (e.g. `{ 'x-workspace-id': null }`). */
  headers?: Record<string, string | null>;
  /** `redirect: 'manual'` by default, so 302 answers can be checked. */
  redirect?: 'manual' | 'follow' | 'error';
}

export type Api = <T = unknown>(method: string, path: string, options?: ApiOptions) => Promise<ApiResponse<T>>;

/** A signed-in caller: their token, the account and workspace their requests name, and a client. */
export interface Session {
  userId: string;
  accountId: string;
  workspaceId: string;
  token: string;
  api: Api;
}

export interface TestService {
  service: RunningService;
  demo: DemoInfo;
  /** Dana, the demo user (account owner, workspace owner). */
  user: Session;
  /** Rafael, account member and workspace editor. */
  colleague: Session;
  /** Shorthand for `user.api`. */
  api: Api;
  /** A fresh account with its own user and workspace, signed in: for tenant isolation tests. */
  tenant(name: string, tierId?: string): Promise<Session>;
  stop(): Promise<void>;
}

export async function startTestService(options: { service?: Partial<ServiceOptions>; demo?: DemoOptions } = {}): Promise<TestService> {
  const service = await startService(options.service);
  try {
    const demo = await service.seedDemo(options.demo);
    const user = await signIn(service.url, { accountId: demo.accountId, workspaceId: demo.workspaceId, ...demo.user });
    const colleague = await signIn(service.url, { accountId: demo.accountId, workspaceId: demo.workspaceId, ...demo.colleague });
    return {
      service,
      demo,
      user,
      colleague,
      api: user.api,
      async tenant(name, tierId) {
        const t = service.createTenant(name, tierId);
        return signIn(service.url, { accountId: t.accountId, workspaceId: t.workspaceId, ...t.user });
      },
      stop: () => service.stop(),
    };
  } catch (error) {
    await service.stop();
    throw error;
  }
}

/** POST /auth/token; accepts both token shapes (bare string or `{ token }`). */
export async function getToken(baseUrl: string, accountId: string, credentials: { apiKey: string; apiSecret: string }): Promise<string> {
  const res = await fetch(`${baseUrl}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-account-id': accountId },
    body: JSON.stringify({ key: credentials.apiKey, secret: credentials.apiSecret }),
  });
  const body = (await res.json()) as unknown;
  if (res.status !== 200) throw new Error(`POST /auth/token answered ${res.status}: ${JSON.stringify(body)}`);
  const token = typeof body === 'string' ? body : (body as { token?: unknown }).token;
  if (typeof token !== 'string') throw new Error(`POST /auth/token gave no token: ${JSON.stringify(body)}`);
  return token;
}

export async function signIn(
  baseUrl: string,
  who: { userId: string; accountId: string; workspaceId: string; apiKey: string; apiSecret: string },
): Promise<Session> {
  const token = await getToken(baseUrl, who.accountId, who);
  return {
    userId: who.userId,
    accountId: who.accountId,
    workspaceId: who.workspaceId,
    token,
    api: makeApi(baseUrl, { authorization: `Bearer ${token}`, 'x-account-id': who.accountId, 'x-workspace-id': who.workspaceId }),
  };
}

/** A client that sends `defaults` (minus those a call sets to null) with every request. */
export function makeApi(baseUrl: string, defaults: Record<string, string> = {}): Api {
  return async <T>(method: string, path: string, options: ApiOptions = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...defaults };
    let body: string | FormData | Uint8Array | undefined;
    if (options.body !== undefined) {
      const raw = options.body;
      if (raw instanceof FormData || raw instanceof Uint8Array || typeof raw === 'string') {
        body = raw;
      } else {
        body = JSON.stringify(raw);
        headers['content-type'] = 'application/json';
      }
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (value === null) delete headers[name.toLowerCase()];
      else headers[name.toLowerCase()] = value;
    }
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: options.redirect ?? 'manual' });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, json: json as T, text };
  };
}

/** The error code of an error answer, in either error shape. */
export function errorCode(res: ApiResponse): string | undefined {
  const error = (res.json as { error?: unknown } | undefined)?.error;
  if (typeof error === 'string') return error;
  return (error as { code?: string } | undefined)?.code;
}

/** Bytes that actually arrive for a GET, against the Content-Length promised (raw http: no client hides a short body). */
export function receive(url: string): Promise<{ status: number; promised: number; received: number }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      let received = 0;
      const done = () => resolve({ status: res.statusCode ?? 0, promised: Number(res.headers['content-length']), received });
      res.on('data', (chunk: Buffer) => (received += chunk.length));
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
    }).on('error', reject);
  });
}
