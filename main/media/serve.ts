/**
 * A media URL's answer, the same for the headless UI server and the desktop app's protocol:
 * status, headers and a body stream, with single byte ranges (what `<video>` and `<audio>` ask
 * for when seeking). Every answer says what it is and that it is nothing else: the sniffed
 * content type with `nosniff`, a sandboxing CSP (opened as a page, nothing in it could run),
 * inline disposition without a name, and same-origin only.
 */
import type { Readable } from 'node:stream';
import parseRange from 'range-parser';
import { MEDIA_PATH_PREFIX } from './capability.js';
import type { MediaService } from './media-service.js';

export interface MediaAnswer {
  status: number;
  headers: Record<string, string>;
  /** A stream of the file's bytes, a short text saying why not, or nothing (HEAD, 416). */
  body: Readable | Buffer | null;
}

export const MEDIA_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'content-disposition': 'inline',
};

/** The capability in a media URL's path, or null when the path is not a media URL. */
export function capabilityOf(pathname: string): string | null {
  if (!pathname.startsWith(MEDIA_PATH_PREFIX)) return null;
  const rest = pathname.slice(MEDIA_PATH_PREFIX.length);
  return rest.length > 0 && !rest.includes('/') ? rest : null;
}

function refusal(status: number, message: string): MediaAnswer {
  return { status, headers: { ...MEDIA_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, body: Buffer.from(message) };
}

export async function answerMedia(
  media: MediaService,
  request: { pathname: string; method: string; range: string | undefined; signal?: AbortSignal | undefined },
): Promise<MediaAnswer> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return refusal(405, 'Use GET.');
  const capability = capabilityOf(request.pathname);
  if (capability === null) return refusal(404, 'Not found.');
  const opened = await media.open(capability, request.signal);
  if (!opened.ok) return refusal(opened.status, opened.message);
  const { handle, size } = opened;
  const headers: Record<string, string> = {
    ...MEDIA_HEADERS,
    'content-type': opened.contentType,
    'accept-ranges': 'bytes',
    // The address pins the bytes (a checksum) and expires: caching it for its life is safe.
    'cache-control': opened.immutable ? 'private, max-age=3600, immutable' : 'private, max-age=3600',
  };
  let start = 0;
  let end = size - 1;
  let status = 200;
  const ranges = request.range ? parseRange(size, request.range, { combine: true }) : -2;
  if (ranges === -1) {
    await handle.close();
    return { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` }, body: null };
  }
  // Malformed or several ranges: the whole file, which a client must accept.
  if (Array.isArray(ranges) && ranges.length === 1 && ranges[0]) {
    ({ start, end } = ranges[0]);
    status = 206;
    headers['content-range'] = `bytes ${start}-${end}/${size}`;
  }
  headers['content-length'] = String(size === 0 ? 0 : end - start + 1);
  if (request.method === 'HEAD' || size === 0) {
    await handle.close();
    return { status, headers, body: null };
  }
  return { status, headers, body: handle.createReadStream({ start, end, autoClose: true }) };
}
