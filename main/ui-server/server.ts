/**
 * The headless daemon's UI (`asset-sync sync --ui [port]`): the built renderer and the app API
 * on 127.0.0.1, for a browser on the same machine. `POST /api/<channel>` carries one call of the
 * IPC contract as JSON, `GET /api/events` the UiEvents as server-sent events. Every request is
 * checked by the guard before anything else: the Host always, the token and the Origin for the
 * API (guard.ts). The printed address gives the page its token in the fragment (`/#token=…`).
 */
import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream';
import type { BridgeError } from '../../shared/ipc.js';
import type { AppApi } from '../app-api/index.js';
import type { Logger } from '../logging.js';
import { openEventStream } from './event-stream.js';
import { serveMedia } from './media-route.js';
import { MEDIA_PATH_PREFIX } from '../media/capability.js';
import { UiGuard, newToken } from './guard.js';
import { NOT_BUILT_PAGE, PAGE_HEADERS, lookupStatic } from './static-files.js';

export interface UiServerOptions {
  api: AppApi;
  /** 0: any free port. */
  port: number;
  /** The built renderer (`dist/renderer`). */
  staticDir: string;
  logger?: Logger | undefined;
}

export interface UiServer {
  /** The address to open, with the access token in its fragment: print it on a line of its own. */
  url: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;

/** HTTP status of a refused call; the body always says why, as a BridgeError. */
const STATUS_OF_CODE: Readonly<Record<string, number>> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden_origin: 403,
  unknown_channel: 404,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  already_current: 409,
  signed_out: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal: 500,
  not_ready: 503,
};
const statusOf = (error: BridgeError): number => STATUS_OF_CODE[error.code] ?? 422;

const BASE_HEADERS = { ...PAGE_HEADERS, 'cache-control': 'no-store' };

export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const token = newToken();
  const streams = new Set<() => void>();
  let guard: UiGuard | undefined;

  const server = createServer((req, res) => {
    if (!guard) return void res.writeHead(503).end();
    void route(req, res, guard).catch((error: unknown) => {
      options.logger?.error({ err: error }, 'UI server request failed');
      if (!res.headersSent) sendError(res, { code: 'internal', message: 'Something went wrong. The log has the details.' });
      else res.destroy();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse, g: UiGuard): Promise<void> {
    if (!g.hostAllowed(req)) {
      return sendText(res, 403, 'This address is not Asset Sync’s. Use the address it printed.');
    }
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) return routeApi(req, res, url, g);
    if (url.pathname.startsWith(MEDIA_PATH_PREFIX)) return serveMedia(req, res, url, options.api.media);
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Method not allowed.');
    // The built renderer holds no secret: it is served without the token, which only the API needs.
    const found = await lookupStatic(options.staticDir, url.pathname);
    if (found.kind === 'not-built') return sendPage(res, 503, NOT_BUILT_PAGE);
    if (found.kind === 'not-found') return sendText(res, 404, 'Not found.');
    res.writeHead(200, { ...BASE_HEADERS, 'content-type': found.contentType });
    // Stryker disable next-line ConditionalExpression,StringLiteral: node:http sends no body to a HEAD whatever is written; this only spares reading the file
    if (req.method === 'HEAD') return void res.end();
    // Not `pipe`: a page closed mid-file would leave the file open.
    pipeline(createReadStream(found.path), res, () => undefined);
  }

  async function routeApi(req: IncomingMessage, res: ServerResponse, url: URL, g: UiGuard): Promise<void> {
    if (!g.authenticated(req)) return sendError(res, { code: 'unauthorized', message: 'This page’s session has expired. Open the address Asset Sync printed again.' });
    if (!g.originAllowed(req)) return sendError(res, { code: 'forbidden_origin', message: 'Requests from other sites are not accepted.' });
    const name = url.pathname.slice('/api/'.length);
    if (name === 'events') {
      if (req.method !== 'GET') return sendError(res, { code: 'method_not_allowed', message: 'Use GET for events.' });
      const close = openEventStream(res, options.api, BASE_HEADERS);
      streams.add(close);
      // Stryker disable next-line StringLiteral,ArrowFunction: only forgets a closed stream; close() acts once however often it runs
      res.on('close', () => streams.delete(close));
      return;
    }
    if (req.method !== 'POST') return sendError(res, { code: 'method_not_allowed', message: 'Use POST for API calls.' });
    // A JSON content type cannot be sent cross-site without a preflight, which this server never grants.
    // Stryker disable next-line StringLiteral: no content type at all is refused whatever stands in for it, unless it is JSON's
    if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
      return sendError(res, { code: 'unsupported_media_type', message: 'Send the request as application/json.' });
    }
    const body = await readBody(req);
    if (body === 'too-large') return sendError(res, { code: 'payload_too_large', message: 'The request is too large.' });
    let request: unknown;
    try {
      request = body.length === 0 ? {} : JSON.parse(body);
    } catch {
      return sendError(res, { code: 'invalid_request', message: 'The request is not valid JSON.' });
    }
    const result = await options.api.invoke(name, request);
    if (result.ok) return sendJson(res, 200, result.value);
    return sendError(res, result.error);
  }

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new Error(`Port ${options.port} is already in use; pick another with --ui PORT.`) : error);
    };
    server.once('error', onError);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', onError);
      guard = new UiGuard(token, (server.address() as AddressInfo).port);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/#token=${token}`,
    port,
    close: () => closeServer(server, streams),
  };
}

async function closeServer(server: Server, streams: Set<() => void>): Promise<void> {
  for (const close of streams) close();
  streams.clear();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}

function readBody(req: IncomingMessage): Promise<string | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // Stryker disable next-line StringLiteral: only stops counting; a later chunk past the cap is dropped by the check above all the same
        req.removeAllListeners('data');
        req.resume();
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(value));
}

function sendError(res: ServerResponse, error: BridgeError): void {
  sendJson(res, statusOf(error), { code: error.code, message: error.message });
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { ...BASE_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}

function sendPage(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { ...BASE_HEADERS, 'content-type': 'text/html; charset=utf-8' });
  res.end(html);
}
