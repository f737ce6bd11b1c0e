/**
 * A fake remote service that answers whatever a test scripts, however wrong: bodies of the
 * wrong type, lying sizes, bytes that do not match their checksum, redirects anywhere. It is
 * the *remote* side only (node:http on 127.0.0.1); the client under test is the real one.
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
export interface HostileScript {
  token(): Reply;
  user(): Reply;
  workspaces(): Reply;
  hierarchy(): Reply;
  changes(since: number): Reply;
  /** `GET /workspaces/assets/{id}[/versions/{vid}]/download`. */
  download(assetId: string, versionId: string | undefined): Reply;
  /** `GET /blob/{name}` on either server. */
  blob(name: string, server: 'main' | 'other'): Reply;
}

export interface Received {
  method: string;
  path: string;
  server: 'main' | 'other';
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
  /** The API origin (also serves blobs). */
  url: string;
  /** A second origin on another port, for redirects elsewhere. */
  otherUrl: string;
  script: HostileScript;
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

function route(script: HostileScript, req: IncomingMessage, server: 'main' | 'other'): Reply {
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname;
  if (path.startsWith('/blob/')) return script.blob(decodeURIComponent(path.slice('/blob/'.length)), server);
  if (server === 'other') return notFound();
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

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function startHostileServers(script: HostileScript): Promise<HostileServers> {
  const received: Received[] = [];
  const state = { script };
  const handler = (name: 'main' | 'other') => (req: IncomingMessage, res: ServerResponse) => {
    received.push({ method: req.method ?? '', path: (req.url ?? '').split('?')[0] ?? '', server: name });
    // Request bodies are not looked at, but must be drained for keep-alive to work.
    req.resume();
    req.on('end', () => {
      let reply: Reply;
      try {
        reply = route(state.script, req, name);
      } catch (error) {
        reply = json({ error: { code: 'internal', message: (error as Error).message } }, 500);
      }
      send(res, reply);
    });
  };
  const main = await listen(handler('main'));
  const other = await listen(handler('other'));
  const close = (s: Server) =>
    new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  return {
    url: main.url,
    otherUrl: other.url,
    get script() {
      return state.script;
    },
    set script(next: HostileScript) {
      state.script = next;
    },
    received,
    close: () => Promise.all([close(main.server), close(other.server)]).then(() => undefined),
  };
}
