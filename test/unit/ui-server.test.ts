/**
 * The headless UI server over real HTTP: only a request with the printed token in its
 * Authorization header, on our own Host and Origin, reaches the app API (never a cookie or the
 * query string); the page itself holds no secret and sets no cookie; events arrive as server-sent
 * events; a bad call is a 400 that says why in words.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppApi } from '../../main/app-api/index.js';
import { Config } from '../../main/config.js';
import { headlessHooks } from '../../main/ui-server/headless-hooks.js';
import { startUiServer, type UiServer } from '../../main/ui-server/server.js';
import { MemorySecrets } from '../helpers/memory-secrets.js';
import { offlineSession } from '../helpers/offline-session.js';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** node:http rather than fetch: a test must be able to send any Host header. */
function send(server: UiServer, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

let dir: string;
let api: AppApi;
let server: UiServer;
let token: string;
let origin: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ui-server-'));
  const staticDir = join(dir, 'renderer');
  await mkdir(join(staticDir, 'assets'), { recursive: true });
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>Asset Sync</title><script type="module" src="/assets/app.js"></script>');
  await writeFile(join(staticDir, 'assets', 'app.js'), 'console.log("app")');
  await writeFile(join(dir, 'secret.txt'), 'not for the browser');
  api = new AppApi({
    configFile: join(dir, 'config.json'),
    config: Config.parse({}),
    secrets: new MemorySecrets(),
    hooks: headlessHooks({ downloadsDir: join(dir, 'downloads') }),
    openSession: () => Promise.reject(new Error('no service in this test')),
  });
  server = await startUiServer({ api, port: 0, staticDir });
  token = tokenOf(server);
  origin = `http://127.0.0.1:${server.port}`;
});

afterAll(async () => {
  await server.close();
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

const tokenOf = (s: UiServer): string => new URLSearchParams(new URL(s.url).hash.slice(1)).get('token') ?? '';
const host = () => `127.0.0.1:${server.port}`;
const bearer = () => `Bearer ${token}`;
const call = (channel: string, body: unknown, headers: Record<string, string> = {}) =>
  send(server, `/api/${channel}`, {
    method: 'POST',
    headers: { host: host(), origin, authorization: bearer(), 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('startUiServer', () => {
  it('prints a loopback URL carrying a 256-bit token in its fragment, which no request sends', () => {
    expect(server.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/#token=[0-9a-f]{64}$`));
  });

  it('serves the page and its scripts without the token, holding no secret and setting no cookie', async () => {
    const page = await send(server, '/', { headers: { host: host() } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Asset Sync</title>');
    expect(page.body).not.toContain(token);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['set-cookie']).toBeUndefined();

    const script = await send(server, '/assets/app.js', { headers: { host: host() } });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.headers['set-cookie']).toBeUndefined();
  });

  it('refuses API calls without the token in the Authorization header: none, a wrong one, in a cookie or in the query', async () => {
    const none = await call('getStatus', {}, { authorization: '' });
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ code: 'unauthorized' });
    expect((await call('getStatus', {}, { authorization: `Bearer ${'0'.repeat(64)}` })).status).toBe(401);
    expect((await call('getStatus', {}, { authorization: token })).status).toBe(401);
    // A cookie named as the old page set it, and the token in the query string: neither counts.
    expect((await call('getStatus', {}, { authorization: '', cookie: `asset_sync_${server.port}=${token}` })).status).toBe(401);
    const viaQuery = await send(server, `/api/getStatus?token=${token}`, {
      method: 'POST',
      headers: { host: host(), origin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(viaQuery.status).toBe(401);
    const events = await send(server, `/api/events?token=${token}`, { headers: { host: host(), cookie: `asset_sync_${server.port}=${token}` } });
    expect(events.status).toBe(401);
  });

  it('answers API calls from its own origin with the token in the header, and a script without a browser', async () => {
    const res = await call('getStatus', {});
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ state: 'stopped', workspaces: [], transfers: [] });
    const script = await send(server, '/api/getSettings', {
      method: 'POST',
      headers: { host: host(), authorization: bearer(), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(script.status).toBe(200);
    expect(JSON.parse(script.body)).toMatchObject({ signedIn: false, baseUrl: null });
  });

  it('rejects API calls from a foreign Origin, even with the token', async () => {
    const res = await call('getStatus', {}, { origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'forbidden_origin' });
    const crossSite = await call('getStatus', {}, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const bearer = await send(server, '/api/getStatus', {
      method: 'POST',
      headers: { host: host(), authorization: `Bearer ${token}`, origin: 'http://localhost:1', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(bearer.status).toBe(403);
  });

  it('rejects a foreign Host (DNS rebinding), even with the token', async () => {
    const rebound = await send(server, '/', { headers: { host: `evil.example:${server.port}` } });
    expect(rebound.status).toBe(403);
    expect((await call('getStatus', {}, { host: `evil.example:${server.port}` })).status).toBe(403);
    const otherPort = await call('getStatus', {}, { host: `127.0.0.1:${server.port + 1}` });
    expect(otherPort.status).toBe(403);
    expect((await call('getStatus', {}, { host: `localhost:${server.port}`, origin: `http://localhost:${server.port}` })).status).toBe(200);
  });

  it('refuses a request another local server’s page makes: Sec-Fetch-Site same-site or cross-site, whatever else it holds', async () => {
    // To the browser, another port on 127.0.0.1 is the same site, not the same origin.
    for (const site of ['same-site', 'cross-site']) {
      const res = await call('getStatus', {}, { 'sec-fetch-site': site });
      expect(res.status, site).toBe(403);
      expect(JSON.parse(res.body), site).toMatchObject({ code: 'forbidden_origin' });
    }
    // The page's own calls, and a navigation the user typed.
    expect((await call('getStatus', {}, { 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await call('getStatus', {}, { 'sec-fetch-site': 'none' })).status).toBe(200);
  });

  it('reads the token the way HTTP writes it: the scheme in any case, any spaces after it', async () => {
    for (const authorization of [`bearer ${token}`, `BEARER ${token}`, `Bearer   ${token}`]) {
      expect((await call('getStatus', {}, { authorization })).status, authorization).toBe(200);
    }
    for (const authorization of [`Basic ${token}`, `NotBearer ${token}`, `Token Bearer ${token}`]) {
      expect((await call('getStatus', {}, { authorization })).status, authorization).toBe(401);
    }
    expect((await call('getStatus', {}, { authorization: `Bearer ${token}x` })).status).toBe(401);
  });

  it('takes its own Host and Origin in any case, as browsers and HTTP allow', async () => {
    const upper = `LOCALHOST:${server.port}`;
    expect((await call('getStatus', {}, { host: upper, origin: `HTTP://${upper}` })).status).toBe(200);
    const page = await send(server, '/', { headers: { host: upper } });
    expect(page.status).toBe(200);
  });

  it('keeps its API to JSON POSTs: no GET, no form or text body a page of another site could send without asking', async () => {
    const get = await send(server, '/api/getStatus', { headers: { host: host(), origin, authorization: bearer() } });
    expect(get.status).toBe(405);
    expect(JSON.parse(get.body)).toMatchObject({ code: 'method_not_allowed' });
    const postEvents = await send(server, '/api/events', { method: 'POST', headers: { host: host(), origin, authorization: bearer() } });
    expect(postEvents.status).toBe(405);
    // text/plain with a parameter is still a type browsers send cross-site without a preflight.
    for (const type of ['text/plain; charset=application/json', 'application/jsonp', 'application/json-seq', 'multipart/form-data']) {
      expect((await call('getStatus', '{}', { 'content-type': type })).status, type).toBe(415);
    }
    for (const type of ['application/json', 'Application/JSON', 'application/json;charset=utf-8', 'application/json ; charset=utf-8']) {
      expect((await call('getStatus', '{}', { 'content-type': type })).status, type).toBe(200);
    }
    // Without a content type at all: refused too.
    const untyped = await send(server, '/api/getStatus', { method: 'POST', headers: { host: host(), origin, authorization: bearer() }, body: '{}' });
    expect(untyped.status).toBe(415);
  });

  it('says in words why it refuses a request, whatever the reason', async () => {
    const refusals = [
      await call('getStatus', {}, { authorization: '' }),
      await call('getStatus', {}, { 'sec-fetch-site': 'cross-site' }),
      await send(server, '/api/events', { method: 'POST', headers: { host: host(), origin, authorization: bearer() } }),
      await send(server, '/api/getStatus', { headers: { host: host(), origin, authorization: bearer() } }),
      await call('getStatus', '{}', { 'content-type': 'text/plain' }),
      await call('getStatus', '{not json'),
      await call('getStatus', 'x'.repeat(1024 * 1024 + 1)),
    ];
    for (const res of refusals) {
      const error = JSON.parse(res.body) as { code: string; message: string };
      expect(error.message, error.code).toMatch(/^[A-Z].{10,}\.$/);
    }
    const pages = [
      await send(server, '/', { headers: { host: `evil.example:${server.port}` } }),
      await send(server, '/nothing-here.js', { headers: { host: host() } }),
      await send(server, '/', { method: 'DELETE', headers: { host: host() } }),
    ];
    for (const res of pages) {
      expect(res.body, String(res.status)).toMatch(/^[A-Z].{5,}\.$/);
    }
  });

  it('refuses a request that names no Host at all', async () => {
    // HTTP/1.0 needs no Host: node:http's client always sends one, so the request is written by hand.
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.end(`POST /api/getStatus HTTP/1.0\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 403 /);
  });

  it('serves its page to GET and HEAD only', async () => {
    const head = await send(server, '/', { method: 'HEAD', headers: { host: host() } });
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toMatch(/^text\/html/);
    expect(head.body).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      // Answered before its body is read: the server closes that connection, so none is kept for the next test.
      const res = await send(server, '/', { method, headers: { host: host(), connection: 'close' }, body: 'x' });
      expect(res.status, method).toBe(405);
    }
  });

  it('takes a call with no body at all as one without arguments', async () => {
    const res = await send(server, '/api/getStatus', { method: 'POST', headers: { host: host(), origin, authorization: bearer(), 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ state: 'stopped' });
  });

  it('guards /api itself, not only what is under it', async () => {
    const bare = await send(server, '/api', { headers: { host: host() } });
    expect(bare.status).toBe(401);
    expect(JSON.parse(bare.body)).toMatchObject({ code: 'unauthorized' });
  });

  it('reads a body of up to 1 MiB and refuses a longer one with 413', async () => {
    const MIB = 1024 * 1024;
    const padded = (bytes: number) => {
      const shell = JSON.stringify({ pad: '' });
      return JSON.stringify({ pad: 'x'.repeat(bytes - shell.length) });
    };
    const fits = await call('getStatus', padded(MIB));
    expect(fits.status).not.toBe(413);
    expect(JSON.parse(fits.body)).not.toMatchObject({ code: 'payload_too_large' });
    const tooLong = await call('getStatus', padded(MIB + 1));
    expect(tooLong.status).toBe(413);
    expect(JSON.parse(tooLong.body)).toMatchObject({ code: 'payload_too_large' });
  });

  it('answers an invalid request with 400 and a BridgeError in words', async () => {
    const missing = await call('listFiles', { folder: 'x' });
    expect(missing.status).toBe(400);
    const error = JSON.parse(missing.body) as { code: string; message: string };
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/workspaceId/);
    expect(error.message).not.toMatch(/\n\s+at /);
    expect(Object.keys(error).sort()).toEqual(['code', 'message']);

    const notJson = await call('getStatus', '{not json');
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body)).toMatchObject({ code: 'invalid_request' });

    const unknown = await call('deleteEverything', {});
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ code: 'unknown_channel' });

    const form = await call('getStatus', '{}', { 'content-type': 'text/plain' });
    expect(form.status).toBe(415);
  });

  it('says what to do when signed out', async () => {
    const res = await call('listFiles', { workspaceId: 'w1' });
    expect(res.status).toBe(409);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'signed_out', message: expect.stringMatching(/Sign in/) });
  });

  it('never serves files outside the renderer folder', async () => {
    const res = await send(server, '/%2e%2e/secret.txt', { headers: { host: host() } });
    expect(res.status).toBe(404);
    expect(res.body).not.toContain('not for the browser');
  });

  it('delivers the status first, then every event, as server-sent events', async () => {
    const events: Array<{ name: string; args: unknown[] }> = [];
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      request({ host: '127.0.0.1', port: server.port, path: '/api/events', headers: { host: host(), authorization: bearer(), accept: 'text/event-stream' } }, resolve)
        .on('error', reject)
        .end();
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    let buffer = '';
    const waitFor = (name: string) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (events.some((e) => e.name === name)) {
            res.off('data', onData);
            resolve();
          }
        };
        const onData = (chunk: Buffer) => {
          buffer += chunk.toString('utf8');
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const name = /^event: (.+)$/m.exec(block)?.[1];
            const data = /^data: (.+)$/m.exec(block)?.[1];
            if (name && data) events.push({ name, args: JSON.parse(data) as unknown[] });
          }
          check();
        };
        res.on('data', onData);
        check();
      });
    await waitFor('status');
    expect(events[0]).toEqual({ name: 'status', args: [expect.objectContaining({ state: 'stopped' })] });
    api.navigate({ view: 'reviews', assetId: 'a1' });
    await waitFor('navigate');
    expect(events.find((e) => e.name === 'navigate')?.args).toEqual([{ view: 'reviews', assetId: 'a1' }]);
    res.destroy();
  });

  it('answers 503 with what to run when the renderer is not built', async () => {
    const bare = await startUiServer({ api, port: 0, staticDir: join(dir, 'nothing-here') });
    try {
      const res = await send(bare, '/', { headers: { host: `127.0.0.1:${bare.port}` } });
      expect(res.status).toBe(503);
      expect(res.body).toContain('npm run build:renderer');
    } finally {
      await bare.close();
    }
  });
});

describe('opening a program or script from the browser', () => {
  it('is refused until the page confirms it, naming the file; other files open at once', async () => {
    const folder = join(dir, 'root', 'W');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'deploy.command'), 'echo hi');
    await writeFile(join(folder, 'notes.txt'), 'hello');
    const session = offlineSession(join(dir, 'root'));
    session.index.workspaces.add({ id: 'w1', accountId: 'acct', name: 'W', localPath: folder });
    const opened: string[] = [];
    const local = new AppApi({
      configFile: join(dir, 'config-open.json'),
      config: Config.parse({ root: join(dir, 'root') }),
      secrets: new MemorySecrets(),
      hooks: { ...headlessHooks({ downloadsDir: join(dir, 'downloads') }), openPath: async (path) => void opened.push(path) },
      openSession: () => Promise.reject(new Error('no service in this test')),
      session,
    });
    const ui = await startUiServer({ api: local, port: 0, staticDir: join(dir, 'renderer') });
    const open = async (request: unknown) => {
      const res = await send(ui, '/api/openFile', {
        method: 'POST',
        headers: { host: `127.0.0.1:${ui.port}`, authorization: `Bearer ${tokenOf(ui)}`, 'content-type': 'application/json' },
        body: JSON.stringify(request),
      });
      return { status: res.status, body: JSON.parse(res.body) as unknown };
    };
    try {
      const asked = await open({ workspaceId: 'w1', path: 'deploy.command' });
      expect(asked).toEqual({
        status: 200,
        body: { opened: false, confirm: { name: 'deploy.command', uploadedBy: null, question: expect.stringMatching(/deploy\.command.*runs? .*on this computer/is) } },
      });
      expect(opened).toEqual([]);
      expect(await open({ workspaceId: 'w1', path: 'deploy.command', runConfirmed: true })).toEqual({ status: 200, body: { opened: true } });
      expect(opened).toEqual([join(folder, 'deploy.command')]);
      expect(await open({ workspaceId: 'w1', path: 'notes.txt' })).toEqual({ status: 200, body: { opened: true } });
      expect(opened).toEqual([join(folder, 'deploy.command'), join(folder, 'notes.txt')]);
    } finally {
      await ui.close();
      await local.close();
    }
  });
});
