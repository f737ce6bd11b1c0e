/**
 * Serving the built renderer (`dist/renderer`, made by `npm run build:renderer`): which file a
 * URL means, its content type, and the headers every page gets. Shared by the headless UI
 * server and the desktop app's `app://` protocol, so both serve the same files the same way.
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PathEscapeError, resolveInsideRoot } from '../local/paths.js';

/** Only our own scripts, styles and connections; no plugins, no framing, no form posts. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export const contentTypeOf = (file: string): string => CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';

export type StaticLookup = { kind: 'file'; path: string; contentType: string } | { kind: 'not-built' } | { kind: 'not-found' };

/**
 * The file for a URL path. Paths without an extension are the app's own routes: they get
 * index.html. Nothing outside `dir` is ever served.
 */
export async function lookupStatic(dir: string, urlPath: string): Promise<StaticLookup> {
  if (!rendererBuilt(dir)) return { kind: 'not-built' };
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath).replace(/^\/+/, '');
  } catch {
    return { kind: 'not-found' };
  }
  if (rel === '' || extname(rel) === '') rel = 'index.html';
  let file: string;
  try {
    file = resolveInsideRoot(dir, rel);
  } catch (error) {
    if (error instanceof PathEscapeError) return { kind: 'not-found' };
    throw error;
  }
  const info = await stat(file).catch(() => null);
  return info?.isFile() ? { kind: 'file', path: file, contentType: contentTypeOf(file) } : { kind: 'not-found' };
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain page for when there is nothing else to show (not built yet, no access). */
export function messagePage(title: string, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>`;
}

/** `npm ci` builds it (npm's prepare); installed without devDependencies, it is missing. */
export const NOT_BUILT_HINT = 'Run `npm run build:renderer` in the Asset Sync folder, then reload the page. Syncing goes on meanwhile.';

export const NOT_BUILT_PAGE = messagePage('The Asset Sync interface is not built', NOT_BUILT_HINT);

export const rendererBuilt = (dir: string): boolean => existsSync(join(dir, 'index.html'));

/**
 * The folder holding package.json of the checkout or installation this module belongs to
 * (inside app.asar when packaged): however the program was started, dist/ is found from it.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

/** `dist/renderer`: what `npm run build:renderer` makes. */
export const defaultRendererDir = (): string => join(packageRoot(), 'dist', 'renderer');
