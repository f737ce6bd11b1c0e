/**
 * Moving bytes through signed URLs on the blob origin. These requests never carry the bearer
 * token (the Transport's blob agent strips it, and redirects are followed here, by hand, with
 * the same agent), and bodies are streamed both ways.
 */
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from './service-error.js';
import { KiB, errorFromResponse, headerValue, readJson, transportError, type RawResponse } from './http.js';
import { uploadBody, withProgress, type UploadSource } from './progress.js';
import { withRetry } from './retry.js';
import { callSignal, type ClientContext } from './context.js';
import { SignedUploadAnswer } from './ours.js';
import { openBlobSocket, type SocketBody } from './blob-socket.js';
import { parseContentRange, unquoteEtag, type ContentRange } from './response-headers.js';

const MAX_REDIRECTS = 5;
/** The statuses a client follows (as fetch does); any other answer, Location or not, is the answer. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const UPLOAD_ANSWER_LIMIT = 64 * KiB;
/**
 * A downloaded body may buffer this much before the socket pauses: with undici's 64 KiB, every
 * pause to hash or write a chunk stopped the connection too.
 */
// Stryker disable next-line ArithmeticOperator: how much is buffered, not what is received
const DOWNLOAD_BUFFER_BYTES = 1024 * KiB;

export interface UploadOptions {
  /** Byte count, sent as Content-Length (a Buffer's own length when omitted). */
  size?: number;
  contentType?: string;
  signal?: AbortSignal;
  /** Bytes handed to the connection so far. */
  onProgress?: (bytes: number) => void;
}

export interface UploadResult extends SignedUploadAnswer {
  status: number;
  etag: string | undefined;
}

/**
 * A stream can be sent once; a Buffer, or a function making a fresh stream per attempt, can be
 * sent again after a network failure.
 */
export type UploadBody = UploadSource | (() => UploadSource);

function parseUrl(url: string | URL, base?: URL): URL {
  try {
    return new URL(url, base);
  } catch {
    throw new ServiceError({ kind: 'malformed', code: 'bad_signed_url', message: 'signed URL is not a URL' });
  }
}

export async function putSignedUpload(
  context: ClientContext,
  url: string | URL,
  body: UploadBody,
  options: UploadOptions = {},
): Promise<UploadResult> {
  const target = parseUrl(url);
  const signal = callSignal(context, options.signal);
  const replayable = typeof body === 'function' || body instanceof Uint8Array;
  return withRetry(
    async () => {
      const source = typeof body === 'function' ? body() : body;
      const size = options.size ?? (source instanceof Uint8Array ? source.byteLength : undefined);
      const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/octet-stream' };
      if (size !== undefined) headers['content-length'] = String(size);
      const stream = uploadBody(source, options.onProgress);
      let res: RawResponse;
      try {
        res = await context.transport.blob(target, { method: 'PUT', headers, body: stream, signal });
      } catch (err) {
        // An fs.ReadStream left open would hold its file descriptor; a progress counter wraps it.
        for (const part of [stream, source]) if (part instanceof Readable) part.destroy();
        throw err;
      }
      // undici answers informational (1xx) responses itself: anything below 300 is a success.
      if (res.status >= 300) throw await errorFromResponse(res, context.secrets());
      const etag = unquoteEtag(headerValue(res.headers, 'etag'));
      // Object stores answer with an empty or non-JSON body; only a JSON one is ours to check.
      if (!/json/i.test(headerValue(res.headers, 'content-type') ?? '')) {
        await res.body.dump().catch(() => undefined);
        return { status: res.status, etag };
      }
      const answer = await readJson(res, SignedUploadAnswer, UPLOAD_ANSWER_LIMIT, context.secrets());
      return { ...answer, status: res.status, etag };
    },
    { policy: context.policy, retriable: replayable, request: `PUT ${target.pathname}`, signal, onRetry: context.onRetry },
  );
}

export interface DownloadOptions {
  /** First byte wanted (a resumed download); sent as `Range: bytes=start-`. */
  start?: number;
  signal?: AbortSignal;
  /** Bytes of this response's body received so far. */
  onProgress?: (bytes: number) => void;
}

export interface DownloadResponse {
  /** 200 (whole body, even if a range was asked) or 206 (the range). */
  status: 200 | 206;
  contentLength: number | undefined;
  etag: string | undefined;
  contentRange: ContentRange | undefined;
  headers: { 'content-length'?: string; etag?: string; 'content-range'?: string; 'content-type'?: string };
  /** The body, streamed; errors (a connection cut mid-body) surface on it. */
  body: Readable;
}

function pickHeaders(res: RawResponse): DownloadResponse['headers'] {
  const out: DownloadResponse['headers'] = {};
  for (const name of ['content-length', 'etag', 'content-range', 'content-type'] as const) {
    const value = headerValue(res.headers, name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** GETs a signed URL, following redirects by hand so no hop ever gets more than we chose to send. */
async function getFollowingRedirects(
  context: ClientContext,
  start: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<RawResponse> {
  let target = start;
  for (let hop = 0; ; hop++) {
    const res = await context.transport.blob(target, { method: 'GET', headers, signal, highWaterMark: DOWNLOAD_BUFFER_BYTES });
    const location = headerValue(res.headers, 'location');
    if (!REDIRECT_STATUSES.has(res.status) || location === undefined) return res;
    await res.body.dump().catch(() => undefined);
    if (hop >= MAX_REDIRECTS) {
      throw new ServiceError({
        kind: 'malformed',
        status: res.status,
        code: 'too_many_redirects',
        message: `${res.request}: more than ${MAX_REDIRECTS} redirects`,
        request: res.request,
      });
    }
    target = parseUrl(location, target);
  }
}

export async function downloadRange(
  context: ClientContext,
  url: string | URL,
  options: DownloadOptions = {},
): Promise<DownloadResponse> {
  const target = parseUrl(url);
  const signal = callSignal(context, options.signal);
  const from = options.start ?? 0;
  const headers: Record<string, string> = {};
  if (from > 0) headers.range = `bytes=${from}-`;
  return withRetry(
    async () => {
      const res = await getFollowingRedirects(context, target, headers, signal);
      const picked = pickHeaders(res);
      if (res.status !== 200 && res.status !== 206) throw await errorFromResponse(res, context.secrets());
      const contentRange = parseContentRange(picked['content-range']);
      if (res.status === 206 && (contentRange === undefined || contentRange.start !== from)) {
        res.body.destroy();
        throw new ServiceError({
          kind: 'malformed',
          status: 206,
          code: 'bad_content_range',
          message: `${res.request}: 206 with a Content-Range that does not start at byte ${from}`,
          request: res.request,
        });
      }
      const length = Number(picked['content-length']);
      const body = options.onProgress ? withProgress(res.body, options.onProgress) : res.body;
      return {
        status: res.status,
        // undici's parser takes only digits for a Content-Length: no sign to check.
        contentLength: Number.isSafeInteger(length) ? length : undefined,
        etag: unquoteEtag(picked.etag),
        contentRange,
        headers: picked,
        body,
      };
    },
    { policy: context.policy, retriable: true, request: `GET ${target.pathname}`, signal, onRetry: context.onRetry },
  );
}

/**
 * A signed URL's body read from its socket into one reused buffer or the consumer's own memory
 * (blob-socket.ts), or undefined where that reader does not take the response: the caller then
 * uses `downloadRange`.
 */
export function downloadFromSocket(context: ClientContext, url: string | URL, options: Pick<DownloadOptions, 'start' | 'signal'> = {}): Promise<SocketBody | undefined> {
  const { userAgent, timeoutMs } = context.transport.settings;
  return openBlobSocket(parseUrl(url), { userAgent, timeoutMs, signal: callSignal(context, options.signal), start: options.start });
}

export interface StreamedDownload extends Omit<DownloadResponse, 'body'> {
  /** Bytes written to the destination. */
  bytes: number;
}

/** Downloads into `destination` (which it ends); a cut connection rejects as a 'network' error. */
export async function downloadToStream(
  context: ClientContext,
  url: string | URL,
  destination: Writable,
  options: DownloadOptions = {},
): Promise<StreamedDownload> {
  let bytes = 0;
  const response = await downloadRange(context, url, {
    ...options,
    onProgress: (count) => {
      bytes = count;
      options.onProgress?.(count);
    },
  });
  const { body, ...meta } = response;
  try {
    await pipeline(body, destination);
  } catch (err) {
    throw transportError(err, `GET ${parseUrl(url).pathname}`, options.signal, context.secrets());
  }
  return { ...meta, bytes };
}
