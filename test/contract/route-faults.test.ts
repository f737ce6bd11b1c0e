/**
 * Contract: a route fault answers one route the same way every time (docs/protocol.md "Local
 * service options"): a fixed error status in the error shape, or a connection destroyed before
 * any answer; other routes and methods answer as usual, and the rules can change while the
 * service runs. Also the `--faults route=…` syntax, parsed and through the real command line.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFaults, type RouteFault } from '../../service/config.js';
import { errorCode, getToken, startTestService, type TestService } from '../helpers/service.js';

const CHANGES = '/workspaces/changes?since=0&limit=10';
const HIERARCHY = '/workspaces/folders/hierarchy';
const noFaults = { latencyMs: 0, error5xx: 0, drop: 0, truncate: 0, seed: 1 };

const running: TestService[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((t) => t.stop()));
});

async function start(routes: RouteFault[] = [], errorShape: 'object' | 'flat' = 'object'): Promise<TestService> {
  const t = await startTestService({ service: { errorShape, faults: { ...noFaults, routes } }, demo: { assets: 1 } });
  running.push(t);
  return t;
}

describe('route faults', () => {
  it('answer a fixed status on one method and path (and below it), in the error shape, and nowhere else', async () => {
    const t = await start([{ method: 'GET', path: '/workspaces/changes', answer: 501 }]);
    for (let i = 0; i < 3; i += 1) {
      const res = await t.api('GET', CHANGES);
      expect(res.status).toBe(501);
      expect(errorCode(res)).toBe('internal');
    }
    expect((await t.api('GET', '/workspaces/changes/anything')).status).toBe(501);
    // Same prefix, another route; the same path with another method: untouched.
    expect((await t.api('GET', '/workspaces/changesets')).status).toBe(404);
    expect((await t.api('POST', '/workspaces/changes', { body: {} })).status).toBe(404);
    expect((await t.api('GET', HIERARCHY)).status).toBe(200);
    expect(t.service.faults?.counts.route).toBe(4);
  });

  it('answer 404 and 405 with the codes the service uses, in the flat shape too', async () => {
    const nested = await start([{ method: 'GET', path: '/workspaces/changes', answer: 404 }]);
    const gone = await nested.api('GET', CHANGES);
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ error: { code: 'not_found', message: expect.any(String) as string } });

    const flat = await start([{ method: 'GET', path: '/workspaces/changes', answer: 405 }], 'flat');
    const refused = await flat.api('GET', CHANGES);
    expect(refused.status).toBe(405);
    expect(refused.json).toEqual({ error: 'invalid_request', message: expect.any(String) as string });
  });

  it('drop the connection before any answer', async () => {
    const t = await start([{ method: 'GET', path: HIERARCHY, answer: 'drop' }]);
    await expect(t.api('GET', HIERARCHY)).rejects.toThrow();
    expect((await t.api('GET', CHANGES)).status).toBe(200);
    expect(t.service.faults?.counts.route).toBe(1);
  });

  it('answer a 200 whose JSON is cut off', async () => {
    const t = await start([{ method: 'GET', path: '/workspaces/changes', answer: 'malformed' }]);
    const res = await t.api('GET', CHANGES);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(res.text) as unknown).toThrow(SyntaxError);
  });

  it('answer only so many calls when given a count, then let them through', async () => {
    const t = await start([
      { method: 'GET', path: '/workspaces/changes', answer: 409, times: 1 },
      { method: 'GET', path: '/workspaces/changes', answer: 503, times: 2 },
    ]);
    expect((await t.api('GET', CHANGES)).status).toBe(409);
    expect((await t.api('GET', CHANGES)).status).toBe(503);
    expect((await t.api('GET', CHANGES)).status).toBe(503);
    expect((await t.api('GET', CHANGES)).status).toBe(200);
    expect(t.service.faults?.counts.route).toBe(3);
    expect(() => t.service.faults?.setRoutes([{ method: 'GET', path: CHANGES.split('?')[0] ?? '', answer: 500, times: 0 }])).toThrow(/times/);
  });

  it('let a test act just before a call is answered as usual (a race made on purpose)', async () => {
    const t = await start();
    const faults = t.service.faults;
    if (!faults) throw new Error('the service was started with faults');
    const before = (await t.api<{ sequence: number }>('GET', HIERARCHY)).json.sequence;
    faults.setRoutes([
      {
        method: 'GET',
        path: HIERARCHY,
        answer: 'pass',
        times: 1,
        before: async () => {
          expect((await t.colleague.api('POST', '/workspaces/folders', { body: { name: 'Raced in' } })).status).toBe(201);
        },
      },
    ]);
    const raced = await t.api<{ sequence: number; folders: Array<{ name: string }> }>('GET', HIERARCHY);
    expect(raced.status).toBe(200);
    expect(raced.json.sequence).toBeGreaterThan(before);
    expect(raced.json.folders.map((f) => f.name)).toContain('Raced in');
    expect(faults.counts.route).toBe(1);
  });

  it('change while the service runs: a route goes down and comes back', async () => {
    const t = await start();
    const faults = t.service.faults;
    if (!faults) throw new Error('the service was started with faults');
    expect((await t.api('GET', HIERARCHY)).status).toBe(200);
    faults.setRoutes([{ method: 'GET', path: HIERARCHY, answer: 500 }]);
    expect((await t.api('GET', HIERARCHY)).status).toBe(500);
    faults.setRoutes([]);
    expect((await t.api('GET', HIERARCHY)).status).toBe(200);
    expect(faults.counts.route).toBe(1);
    expect(() => faults.setRoutes([{ method: 'GET', path: HIERARCHY, answer: 200 }])).toThrow(/error status/);
    expect(() => faults.setRoutes([{ method: 'get', path: HIERARCHY, answer: 500 }])).toThrow(/upper case/);
  });
});

describe('--faults route=', () => {
  it('parses METHOD:/path:ANSWER[:once|:N], repeated, beside the other faults', () => {
    expect(parseFaults('error5xx=0.1,route=GET:/workspaces/changes:404,route=get:/workspaces/folders/hierarchy:drop')).toEqual({
      ...noFaults,
      error5xx: 0.1,
      routes: [
        { method: 'GET', path: '/workspaces/changes', answer: 404 },
        { method: 'GET', path: '/workspaces/folders/hierarchy', answer: 'drop' },
      ],
    });
    expect(parseFaults('seed=3')).toEqual({ ...noFaults, seed: 3 });
    expect(parseFaults('route=POST:/workspaces/assets:409:once,route=GET:/workspaces/changes:malformed:3').routes).toEqual([
      { method: 'POST', path: '/workspaces/assets', answer: 409, times: 1 },
      { method: 'GET', path: '/workspaces/changes', answer: 'malformed', times: 3 },
    ]);
    for (const bad of ['route=GET:/x:200', 'route=GET:/x', 'route=GET:x:404', 'route=:/x:404', 'route=GET:/x:often', 'route=GET:/x:404:twice', 'route=GET:/x:404:0']) {
      expect(() => parseFaults(bad)).toThrow(/--faults/);
    }
  });

  it('reaches the service started from the command line', async () => {
    // As built (Vitest's global setup builds dist/node), as `npm run service` starts it.
    const cli = fileURLToPath(new URL('../../dist/node/service.js', import.meta.url));
    const child = spawn(process.execPath, ['--enable-source-maps', cli, '--port', '0', '--blob-port', '0', '--demo', '--json', '--faults', 'route=GET:/workspaces/changes:501'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const info = await new Promise<{ base_url: string; account_id: string; workspace_id: string; api_key: string; api_secret: string }>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`the service exited (${String(code)}) before it listened`)));
        createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as never));
      });
      const token = await getToken(info.base_url, info.account_id, { apiKey: info.api_key, apiSecret: info.api_secret });
      const headers = { authorization: `Bearer ${token}`, 'x-account-id': info.account_id, 'x-workspace-id': info.workspace_id };
      const changes = await fetch(`${info.base_url}${CHANGES}`, { headers });
      expect(changes.status).toBe(501);
      await changes.arrayBuffer();
      const listing = await fetch(`${info.base_url}${HIERARCHY}`, { headers });
      expect(listing.status).toBe(200);
      await listing.arrayBuffer();
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
