/**
 * `asset-sync sync --ui` right after installing: npm's `prepare` (run by `npm ci` and
 * `npm install`) builds the interface, and the command serves it. After a bare `npm ci` it used
 * to answer "The Asset Sync interface is not built" (503).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { CLI, REPO } from './cli-helpers.js';

let dir: string;
let svc: TestService;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-ui-'));
  svc = await startTestService();
});

afterAll(async () => {
  await svc?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Runs an npm script of the package as `npm ci` would, its output kept. */
function npmRun(script: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', script, '--', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}` } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the interface after installing', () => {
  it('is built by npm’s prepare script, which `npm ci` runs', async () => {
    const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts.prepare).toBeDefined();
    // Into a folder of the test's own: the checkout's build stays as it is for the other tests.
    const out = join(dir, 'renderer');
    const built = await npmRun('prepare', ['--outDir', out]);
    expect(built.code, built.output).toBe(0);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('<div id="root">');
    expect(readdirSync(join(out, 'assets')).some((f) => f.endsWith('.js'))).toBe(true);
  }, 120_000);

  it('is what `sync --ui` serves', async () => {
    expect(existsSync(join(REPO, 'dist', 'renderer', 'index.html')), 'npm ci (or npm test) builds dist/renderer').toBe(true);
    const { demo } = svc;
    const child = spawn(
      process.execPath,
      [CLI, 'sync', '--ui', '0', '--base-url', svc.service.url, '--account', demo.accountId, '--workspace', demo.workspaceId, '--root', join(dir, 'Assets')],
      { cwd: REPO, env: { ...process.env, ASSET_SYNC_HOME: join(dir, 'state'), ASSET_SYNC_API_KEY: demo.user.apiKey, ASSET_SYNC_API_SECRET: demo.user.apiSecret }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const url = await new Promise<URL>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          if (/^http:\/\/127\.0\.0\.1:\d+\//.test(line.trim())) resolve(new URL(line.trim()));
        });
        child.once('exit', (code) => reject(new Error(`asset-sync exited (${code}) before printing its address`)));
      });
      const page = await get(Number(url.port), '/');
      expect(page.status).toBe(200);
      expect(page.body).toContain('<div id="root">');
      expect(page.body).not.toContain('not built');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }, 60_000);
});
