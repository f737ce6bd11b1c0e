/**
 * The token of `asset-sync sync --ui` stays with its page. Cookies are not scoped by port: a
 * cookie holding it went to every other web server on 127.0.0.1 the browser visited, and with it
 * a local process could approve reviews as the user. Here Chromium opens the UI, then another
 * local server on another port; that server must receive no cookie and no token in any form, and
 * the UI's API must refuse whatever does not carry the token in its header.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE, eventually, openWhenSynced, startUiWorld, type UiWorld } from './ui-world.js';

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

let world: UiWorld;
let page: Page;
let token: string;
let uiOrigin: string;
let other: Server;
let otherOrigin: string;
const seen: Seen[] = [];

const OTHER_PAGE = `<!doctype html><html><head><title>Another local server</title></head><body>
<img src="/pixel.png"><script src="/script.js"></script></body></html>`;

beforeAll(async () => {
  world = await startUiWorld();
  page = world.page;
  token = world.token;
  uiOrigin = new URL(world.url).origin;
  // A plain server, as a developer's or another user's would be, that writes down every request.
  other = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(OTHER_PAGE);
    else if (path === '/script.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end('fetch("/from-script", { credentials: "include" });');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  await openWhenSynced(world);
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => other?.close(resolve));
  await world?.close();
}, 60_000);

describe('the token of the headless UI', () => {
  it('is gone from the address bar and kept in no cookie', async () => {
    expect(page.url()).not.toContain(token);
    expect(await world.context.cookies()).toEqual([]);
    expect(await page.evaluate('document.cookie')).toBe('');
  });

  it('reaches no other server on 127.0.0.1, in any header or address', async () => {
    const visit = await world.context.newPage();
    await visit.goto(`${otherOrigin}/`);
    await eventually('the other page’s script', async () => seen.map((s) => s.url), (urls) => urls.includes('/from-script'));
    // The same tab that showed the UI goes there too.
    await page.goto(`${otherOrigin}/?again`);
    await eventually('the second visit', async () => seen.map((s) => s.url), (urls) => urls.includes('/?again'));
    expect(seen.length).toBeGreaterThanOrEqual(4);
    for (const request of seen) {
      expect(request.headers.cookie, request.url).toBeUndefined();
      expect(request.headers.authorization, request.url).toBeUndefined();
      expect(JSON.stringify(request), request.url).not.toContain(token);
    }
    await visit.close();
  });

  it('keeps the page working after a reload of its tab', async () => {
    await page.goto(world.url);
    await page.getByRole('banner').getByTestId('header-state').waitFor(PATIENCE);
    await page.reload();
    await expect.poll(() => page.getByRole('banner').getByTestId('header-state').textContent(), PATIENCE).toBe('Up to date');
    expect(page.url()).not.toContain(token);
    expect(await world.context.cookies()).toEqual([]);
  });

  it('is required as a header: the API refuses a request from another origin, or one with only a cookie', async () => {
    // Another site's page posts to the UI's API the way a form or a no-cors fetch can (the answer
    // is kept from it; the request is sent all the same).
    const visit = await world.context.newPage();
    await visit.goto(`${otherOrigin}/`);
    await visit.evaluate(
      `fetch(${JSON.stringify(`${uiOrigin}/api/pause`)}, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: '{}' }).catch(() => null)`,
    );
    await visit.close();

    const cookieOnly = await fetch(`${uiOrigin}/api/pause`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: uiOrigin, cookie: `asset_sync_${new URL(uiOrigin).port}=${token}` },
      body: '{}',
    });
    expect(cookieOnly.status).toBe(401);
    const queryOnly = await fetch(`${uiOrigin}/api/pause?token=${token}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: uiOrigin }, body: '{}' });
    expect(queryOnly.status).toBe(401);
    const withHeader = await fetch(`${uiOrigin}/api/getStatus`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: uiOrigin, authorization: `Bearer ${token}` },
      body: '{}',
    });
    expect(withHeader.status).toBe(200);
    // Nothing paused the sync.
    expect(((await withHeader.json()) as { paused: boolean }).paused).toBe(false);
    expect(await page.getByRole('banner').getByTestId('header-state').textContent()).toBe('Up to date');
  });
});
