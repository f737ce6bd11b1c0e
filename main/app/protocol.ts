/**
 * The `app://asset-sync/` protocol serving dist/renderer, instead of file:// (which would give the
 * page the whole disk as its origin). Registered as standard and secure before the app is
 * ready, so the page gets a real origin, fetch and a secure context.
 */
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { protocol } from 'electron';
import { MEDIA_PATH_PREFIX } from '../media/capability.js';
import type { MediaService } from '../media/media-service.js';
import { answerMedia, MEDIA_HEADERS } from '../media/serve.js';
import { NOT_BUILT_PAGE, PAGE_HEADERS, lookupStatic } from '../ui-server/static-files.js';
import { APP_HOST, APP_SCHEME } from './origin.js';

/** Must run before `app.whenReady()`. `stream`: `<video>` and `<audio>` read media URLs in ranges. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } }]);
}

/** What the protocol sees of a request: the parts a media URL's answer depends on. */
export interface ProtocolRequest {
  url: string;
  method?: string;
  headers?: { get(name: string): string | null };
  signal?: AbortSignal;
}

/** `app://asset-sync/media/<capability>`: the same capabilities the headless UI serves (main/media/serve.ts). */
export async function mediaResponse(media: MediaService | null, request: ProtocolRequest): Promise<Response> {
  const refused = (status: number, text: string) => new Response(text, { status, headers: { ...MEDIA_HEADERS, 'content-type': 'text/plain; charset=utf-8' } });
  if (!media) return refused(404, 'Not found.');
  const answer = await answerMedia(media, {
    pathname: new URL(request.url).pathname,
    method: request.method ?? 'GET',
    range: request.headers?.get('range') ?? undefined,
    signal: request.signal,
  });
  const body = answer.body === null || Buffer.isBuffer(answer.body) ? answer.body : (Readable.toWeb(answer.body) as ReadableStream<Uint8Array>);
  return new Response(body, { status: answer.status, headers: answer.headers });
}

export async function rendererResponse(rendererDir: string, requestUrl: string): Promise<Response> {
  const url = new URL(requestUrl);
  const html = (status: number, body: string) => new Response(body, { status, headers: { ...PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8' } });
  if (url.host !== APP_HOST) return new Response('Not found.', { status: 404, headers: PAGE_HEADERS });
  const found = await lookupStatic(rendererDir, url.pathname);
  if (found.kind === 'not-built') return html(503, NOT_BUILT_PAGE);
  if (found.kind === 'not-found') return new Response('Not found.', { status: 404, headers: PAGE_HEADERS });
  return new Response(await readFile(found.path), { status: 200, headers: { ...PAGE_HEADERS, 'content-type': found.contentType } });
}

/** Serves `rendererDir` and the media URLs on app://asset-sync/ (after the app is ready). */
export function serveRenderer(rendererDir: string, media: () => MediaService | null = () => null): void {
  protocol.handle(APP_SCHEME, (request) => {
    const url = new URL(request.url);
    if (url.host === APP_HOST && url.pathname.startsWith(MEDIA_PATH_PREFIX)) return mediaResponse(media(), request);
    return rendererResponse(rendererDir, request.url);
  });
}
