/**
 * A fake remote service that answers whatever a test scripts, however wrong: bodies of the
 * wrong type, lying sizes, bytes that do not match their checksum, redirects anywhere. It is
 * the *remote* side only (node:http on 127.0.0.1, one port per origin, so the browser-style
 * origin rules apply between them); the client under test is the real one. Every request is
 * recorded with its headers and body, so a test can see where each secret went.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Announces the whole body, sends this many bytes of it, then cuts the connection. */
  cutAfter?: number;
}

/** What each endpoint answers; `null` is a 404 in the service's error shape. */
/** The three origins: the API, the blob origin its signed URLs name, and a stranger a redirect may point at. */
export type Origin = 'api' | 'blob' | 'other';

/** What each endpoint answers; `null` is a 404 in the service's error shape. */
export interface HostileScript {
  token(): Reply;
  user(): Reply;
  workspaces(): Reply;
  hierarchy(): Reply;
  changes(since: number): Reply;
  /** `GET /workspaces/assets/{id}[/versions/{vid}]/download`. */
  download(assetId: string, versionId: string | undefined): Reply;
  /** `GET /blob/{name}` on any origin. */
  blob(name: string, origin: Origin): Reply;
}

/** One request as it reached an origin: everything it carried that could hold a secret. */
export interface Received {
  origin: Origin;
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export const json = (value: unknown, status = 200): Reply => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
/** A body that is already JSON text (or meant not to be). */
export const raw = (text: string | Buffer, status = 200, contentType = 'application/json'): Reply => ({
  status,
  headers: { 'content-type': contentType },
  body: text,
});
export const notFound = (): Reply => json({ error: { code: 'not_found', message: 'no such thing' } }, 404);
export const redirect = (location: string, status = 302): Reply => ({ status, headers: { location }, body: '' });

export interface HostileServers {
  /** The API origin: the only one a bearer token or the API key and secret may reach. */
  url: string;
  /** The blob origin the signed URLs point at. */
  blobUrl: string;
  /** A third origin, on another port, for redirects elsewhere. */
  otherUrl: string;
  script: HostileScript;
  /** Every request every origin received, in order. */
  received: Received[];
  close(): Promise<void>;
}

const API = /^\/workspaces\/assets\/([^/]+)(?:\/versions\/([^/]+))?\/download$/;

function send(res: ServerResponse, reply: Reply): void {
  const body = reply.body ?? '';
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(reply.status ?? 200, { ...reply.headers, 'content-length': String(bytes.length) });
  if (reply.cutAfter === undefined) {
    res.end(bytes);
    return;
  }
  res.write(bytes.subarray(0, reply.cutAfter), () => res.destroy());
}

function route(script: HostileScript, req: IncomingMessage, origin: Origin): Reply {
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname;
  if (path.startsWith('/blob/')) return script.blob(decodeURIComponent(path.slice('/blob/'.length)), origin);
  if (origin !== 'api') return notFound();
  if (req.method === 'POST' && path === '/auth/token') return script.token();
  if (req.method !== 'GET') return json({ error: { code: 'forbidden', message: 'read-only service' } }, 403);
  if (path === '/users') return script.user();
  if (path === '/workspaces') return script.workspaces();
  if (path === '/workspaces/folders/hierarchy') return script.hierarchy();
  if (path === '/workspaces/changes') return script.changes(Number(url.searchParams.get('since')));
  const download = API.exec(path);
  if (download) return script.download(decodeURIComponent(download[1] ?? ''), download[2] === undefined ? undefined : decodeURIComponent(download[2]));
  return notFound();
}

interface Listening {
  server: Server;
  url: string;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Listening> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Request bodies kept per request: the token request's (key and secret) is a few dozen bytes. */
const KEPT_BODY_BYTES = 64 * 1024;

export async function startHostileServers(script: HostileScript): Promise<HostileServers> {
  const received: Received[] = [];
  const state = { script };
  const handler = (origin: Origin) => (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    // Drained whole (keep-alive needs it), kept up to a bound (an upload would be large).
    req.on('data', (chunk: Buffer) => {
      if (kept < KEPT_BODY_BYTES) chunks.push(chunk.subarray(0, KEPT_BODY_BYTES - kept));
      kept += chunk.length;
    });
    req.on('end', () => {
      received.push({ origin, method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers }, body: Buffer.concat(chunks).toString('latin1') });
      let reply: Reply;
      try {
        reply = route(state.script, req, origin);
      } catch (error) {
        reply = json({ error: { code: 'internal', message: (error as Error).message } }, 500);
      }
      send(res, reply);
    });
  };
  const servers = await Promise.all((['api', 'blob', 'other'] as const).map((origin) => listen(handler(origin))));
  const [api, blob, other] = servers as [Listening, Listening, Listening];
  const close = (s: Server) =>
    new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  return {
    url: api.url,
    blobUrl: blob.url,
    otherUrl: other.url,
    get script() {
      return state.script;
    },
    set script(next: HostileScript) {
      state.script = next;
    },
    received,
    close: () => Promise.all(servers.map((s) => close(s.server))).then(() => undefined),
  };
}
