import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Db } from '../db/db.js';
import { answeredChecksum, type ChecksumAlgorithm } from '../http/checksums.js';
import { errorBody } from '../http/errors.js';
import type { FaultInjector } from '../http/faults.js';
import { sendRange } from './send-range.js';
import { BlobStore, SMALL_BLOB_BYTES, TooLargeError } from './store.js';
import type { SignedParams, UrlSigner } from './signer.js';

interface BlobServerDeps {
  db: Db;
  store: BlobStore;
  signer: UrlSigner;
  errorShape: 'object' | 'flat';
  /** The limit of a PUT whose upload declared no size. */
  maxUploadBytes: number;
  faults?: FaultInjector | undefined;
  /** The service's checksum algorithm: the checksums this origin answers with are in its form. */
  checksumAlgorithm: ChecksumAlgorithm;
}

/**
 * The blob origin: a separate HTTP server (its own port, like a storage bucket's host) that
 * takes signed PUTs and serves signed GETs. It never sees, and never needs, a bearer token.
 */
export function createBlobServer(deps: BlobServerDeps): Server {
  const server = createServer((req, res) => {
    handle(deps, req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, deps.errorShape, 500, 'internal', 'The blob store failed.');
      else res.destroy(error as Error);
    });
  });
  server.keepAliveTimeout = 30_000;
  return server;
}

function send(res: ServerResponse, shape: 'object' | 'flat', status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(errorBody(shape, code, message));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

async function handle(deps: BlobServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // The same delay as the API's (`--faults latency=MS`): a far-away service is far for its bucket too.
  const latencyMs = deps.faults?.options.latencyMs ?? 0;
  if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
  const target = blobTarget(req.url);
  if ('refused' in target) {
    req.resume();
    return send(res, deps.errorShape, 400, 'invalid_request', target.refused);
  }
  const { key, url } = target;
  if (!key || !BlobStore.isKey(key)) {
    req.resume();
    return send(res, deps.errorShape, 404, 'not_found', 'No such blob.');
  }
  const params = deps.signer.verify(key, url.searchParams);
  if ('refused' in params) {
    req.resume();
    return send(res, deps.errorShape, 403, 'forbidden', params.refused);
  }
  const method = req.method ?? 'GET';
  if (params.op === 'put' && method === 'PUT') return put(deps, key, params, req, res);
  if (params.op === 'get' && (method === 'GET' || method === 'HEAD')) return get(deps, key, req, res, method === 'HEAD');
  req.resume();
  return send(res, deps.errorShape, 403, 'forbidden', `This URL is signed for ${params.op.toUpperCase()}, not ${method}.`);
}

/**
 * The URL of a request and the blob key in its path (`/blobs/<key>`), or why the request target
 * cannot be read: a target that is no URL, or a key that is not valid percent-encoding, is the
 * client's mistake (400), not a failure of the store.
 */
function blobTarget(requestTarget: string | undefined): { url: URL; key: string | undefined } | { refused: string } {
  let url: URL;
  try {
    url = new URL(requestTarget ?? '/', 'http://blob');
  } catch {
    return { refused: 'The request target is not a valid URL.' };
  }
  const encoded = /^\/blobs\/([^/]+)$/.exec(url.pathname)?.[1];
  if (encoded === undefined) return { url, key: undefined };
  try {
    return { url, key: decodeURIComponent(encoded) };
  } catch {
    return { refused: 'The blob key in the path is not valid percent-encoding.' };
  }
}

/**
 * A signed PUT: exactly the bytes the upload declared (their checksum, and their size when one was
 * declared), else nothing is kept and the same URL may be used again. A body longer than allowed
 * is refused as soon as that is known, before or while reading it, and the connection is closed
 * rather than read to its end: no one can make the store read or hold more than was signed.
 */
async function put(deps: BlobServerDeps, key: string, params: SignedParams, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const upload = deps.db.prepare('SELECT checksum, size FROM uploads WHERE key = ?').get(key) as { checksum: string; size: number | null } | undefined;
  if (!upload || upload.checksum !== params.sha256 || (upload.size ?? undefined) !== params.size) {
    req.resume();
    return send(res, deps.errorShape, 403, 'forbidden', 'This upload URL is not valid.');
  }
  const maxBytes = params.size ?? deps.maxUploadBytes;
  const tooLarge = () =>
    send(res, deps.errorShape, 413, 'payload_too_large',
      params.size === undefined ? `The body is longer than the ${maxBytes} bytes one upload may hold.` : `The body is longer than the ${maxBytes} bytes declared for this upload.`,
      { connection: 'close' });
  const declared = contentLength(req);
  if (declared !== undefined && declared > maxBytes) return tooLarge();
  let staged;
  try {
    staged = await deps.store.stage(req, { expectedSize: declared, maxBytes });
  } catch (error) {
    if (error instanceof TooLargeError) return tooLarge();
    // The client went away mid-body: nothing is kept, the same signed URL may be used again.
    if (!res.headersSent) res.destroy();
    return;
  }
  if (staged.checksum !== upload.checksum) {
    await staged.discard();
    return send(res, deps.errorShape, 400, 'checksum_mismatch', `The bytes' checksum is ${staged.checksum}, not the ${upload.checksum} this URL was signed for.`);
  }
  if (params.size !== undefined && staged.size !== params.size) {
    await staged.discard();
    return send(res, deps.errorShape, 400, 'invalid_request', `The body ended after ${staged.size} of the ${params.size} bytes declared for this upload.`);
  }
  await staged.keep(key);
  deps.db.prepare('UPDATE uploads SET stored = 1, size = ?, stored_at = ? WHERE key = ?').run(staged.size, new Date().toISOString(), key);
  const checksum = answeredChecksum(deps.checksumAlgorithm, staged.checksum);
  const body = JSON.stringify({ key, size: staged.size, checksum });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', etag: `"${checksum}"`, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function get(deps: BlobServerDeps, key: string, req: IncomingMessage, res: ServerResponse, headOnly: boolean): Promise<void> {
  const blob = deps.db.prepare('SELECT checksum, content_type FROM uploads WHERE key = ? AND stored = 1').get(key) as
    | { checksum: string; content_type: string }
    | undefined;
  const size = blob ? await deps.store.size(key) : undefined;
  if (!blob || size === undefined) return send(res, deps.errorShape, 404, 'not_found', 'No such blob.');
  const etag = `"${answeredChecksum(deps.checksumAlgorithm, blob.checksum)}"`;
  const headers: Record<string, string | number> = {
    'content-type': blob.content_type || 'application/octet-stream',
    etag,
    'accept-ranges': 'bytes',
    'cache-control': 'private, max-age=3600',
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    return void res.end();
  }
  let start = 0;
  let end = size - 1;
  let status = 200;
  const range = req.headers.range;
  const ifRange = req.headers['if-range'];
  if (range && (ifRange === undefined || ifRange === etag)) {
    const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    if (!m || (m[1] === '' && m[2] === '')) {
      res.writeHead(416, { 'content-range': `bytes */${size}` });
      return void res.end();
    }
    if (m[1] === '') {
      start = Math.max(0, size - Number(m[2]));
    } else {
      start = Number(m[1]);
      if (m[2] !== '') end = Math.min(end, Number(m[2]));
    }
    if (start >= size || start > end) {
      res.writeHead(416, { 'content-range': `bytes */${size}` });
      return void res.end();
    }
    status = 206;
    headers['content-range'] = `bytes ${start}-${end}/${size}`;
  }
  const length = size === 0 ? 0 : end - start + 1;
  headers['content-length'] = length;
  res.writeHead(status, headers);
  if (headOnly || length === 0) return void res.end();
  if (length <= SMALL_BLOB_BYTES) return sendSmall(deps, key, { start, end }, length, res);
  // The client may have gone while the blob was looked up: its response has closed already.
  if (res.destroyed) return;
  // Send part of the promised bytes, then cut the connection (injected): the client must notice.
  const cutAfter = deps.faults?.roll('truncate') ? Math.floor(length / 2) : undefined;
  await sendRange(deps.store.path(key), { start, end }, res, cutAfter);
}

/** The streamed answer above for a blob read in one piece: the same bytes, the same cut when a truncation is injected. */
function sendSmall(deps: BlobServerDeps, key: string, range: { start: number; end: number }, length: number, res: ServerResponse): void {
  const truncate = deps.faults?.roll('truncate') ?? false;
  const bytes = deps.store.readSmall(key, range);
  if (!truncate) return void res.end(bytes);
  // Send part of the promised bytes, then cut the connection: the client must notice.
  res.flushHeaders();
  res.write(bytes.subarray(0, Math.floor(length / 2)), () => res.destroy());
}

/** The declared body size of a request, when it has one. */
function contentLength(req: IncomingMessage): number | undefined {
  const value = req.headers['content-length'];
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}
