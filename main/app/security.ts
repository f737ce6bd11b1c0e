/**
 * One rule per function, applied to every session and web contents the app makes (as in
 * cawa-93/vite-electron-builder): no permission is ever granted, no navigation leaves our
 * origin, no window opens (http(s) links go to the user's browser), no <webview> attaches.
 */
import type { App, Session, WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../ui-server/static-files.js';
import { originOf } from './origin.js';

/** The renderer asks for nothing: camera, notifications (main shows those), clipboard... all refused. */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/**
 * The CSP header on responses from an http(s) origin (the dev server); app:// responses carry it
 * already. Vite's dev client needs its websocket and inline module preamble, nothing more.
 */
export function enforceCsp(session: Session, devOrigin: string | null): void {
  const policy = devOrigin
    ? CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace(
        "connect-src 'self'",
        `connect-src 'self' ${devOrigin.replace(/^http/, 'ws')}`,
      )
    : CONTENT_SECURITY_POLICY;
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...details.responseHeaders };
    for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-security-policy') delete headers[name];
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [policy] } });
  });
}

const isWebLink = (url: string): boolean => /^https?:\/\//i.test(url);

/**
 * Every web contents the app makes gets `lockNavigation` as it is created: the main window's, and
 * any other (a second window, a popup, a webview), which the window's own rules never covered.
 */
export function lockEveryWebContents(app: App, allowedOrigin: string, openExternal: (url: string) => Promise<void>): void {
  app.on('web-contents-created', (_event, contents) => lockNavigation(contents, allowedOrigin, openExternal));
}

/** Keeps `contents` on `allowedOrigin`; links to the web open in the browser, never in the app. */
export function lockNavigation(contents: WebContents, allowedOrigin: string, openExternal: (url: string) => Promise<void>): void {
  const guard = (event: { preventDefault(): void; url: string }): void => {
    if (originOf(event.url) === allowedOrigin) return;
    event.preventDefault();
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isWebLink(url) && originOf(url) !== allowedOrigin) void openExternal(url).catch(() => undefined);
    return { action: 'deny' };
  });
}
