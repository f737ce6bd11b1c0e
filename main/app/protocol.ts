/**
 * The `app://asset-sync/` protocol serving dist/renderer, instead of file:// (which would give the
 * page the whole disk as its origin). Registered as standard and secure before the app is
 * ready, so the page gets a real origin, fetch and a secure context.
 */
import { readFile } from 'node:fs/promises';
import { protocol } from 'electron';
import { NOT_BUILT_PAGE, PAGE_HEADERS, lookupStatic } from '../ui-server/static-files.js';
import { APP_HOST, APP_SCHEME } from './origin.js';

/** Must run before `app.whenReady()`. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
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

/** Serves `rendererDir` on app://asset-sync/ (after the app is ready). */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => rendererResponse(rendererDir, request.url));
}
