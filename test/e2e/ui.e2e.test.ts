/**
 * The whole way a user goes: the local service with demo data, the headless daemon
 * (`asset-sync sync --ui`) as a child process, and the built UI in Debian's Chromium.
 * The UI sees the files sync, shows a file's versions, receives a review request a colleague
 * makes, approves it, and the approval is then on the service.
 *
 * Needs `npm run build:renderer` first (`npm test` runs it) and /usr/bin/chromium
 * (`apt-get install chromium`; `.ci/run` installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';

const REPO = resolve(import.meta.dirname, '../..');
const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(REPO, 'test-results', 'ui-e2e');
/** Waiting is not asserting on speed: a slow machine only takes longer to get there. */
const PATIENCE = { timeout: 60_000 };

let service: TestService;
let home: string;
let daemon: ChildProcess;
let daemonOutput = '';
let browser: Browser;
let page: Page;

/** Starts `asset-sync sync --ui 0` and answers the address it prints on a line of its own. */
async function startDaemon(): Promise<string> {
  const { demo } = service;
  daemon = spawn(
    process.execPath,
    ['bin/asset-sync.js', 'sync', '--ui', '0', '--base-url', service.service.url, '--account', demo.accountId, '--workspace', demo.workspaceId, '--root', join(home, 'Assets'), '--poll', '5'],
    {
      cwd: REPO,
      env: { ...process.env, ASSET_SYNC_HOME: join(home, 'state'), ASSET_SYNC_API_KEY: demo.user.apiKey, ASSET_SYNC_API_SECRET: demo.user.apiSecret },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  daemon.stderr?.on('data', (chunk: Buffer) => (daemonOutput += chunk.toString()));
  const lines = createInterface({ input: daemon.stdout! });
  return new Promise<string>((resolveUrl, reject) => {
    lines.on('line', (line) => {
      daemonOutput += `${line}\n`;
      const url = line.trim();
      if (/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+$/.test(url)) resolveUrl(url);
    });
    daemon.once('exit', (code) => reject(new Error(`asset-sync exited (${code}) before printing its UI address:\n${daemonOutput}`)));
  });
}

async function stopDaemon(): Promise<void> {
  if (!daemon || daemon.exitCode !== null) return;
  const exited = new Promise((done) => daemon.once('exit', done));
  daemon.kill('SIGTERM');
  await exited;
}

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`The UI end-to-end test drives Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\`.`);
  if (!existsSync(join(REPO, 'dist/renderer/index.html'))) throw new Error('The UI is not built: run `npm run build:renderer` first (`npm test` does).');
  mkdirSync(SHOTS, { recursive: true });
  home = mkdtempSync(join(tmpdir(), 'asset-sync-ui-e2e-'));
  service = await startTestService();
  const url = await startDaemon();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  // A fresh context is a fresh profile: no cookie, no stored theme.
  const context = await browser.newContext({ viewport: { width: 1200, height: 860 }, colorScheme: 'light' });
  page = await context.newPage();
  await page.goto(url);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stopDaemon();
  await service?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
}, 60_000);

describe('the UI in a browser, over the headless daemon', () => {
  it('shows the workspace syncing until it is up to date, without the token in the address bar', async () => {
    const state = page.getByRole('banner').getByTestId('header-state');
    await expect.poll(() => state.textContent(), PATIENCE).toBe('Up to date');
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    await expect.poll(() => page.getByText('Spring Campaign', { exact: true }).count()).toBeGreaterThan(0);
    await shot('status-light');
  });

  it('lists the synced demo files and opens a file’s versions', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Files' }).click();
    const readme = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /README\.txt/ }) });
    await readme.waitFor(PATIENCE);
    expect(await readme.getByText('Synced').count()).toBe(1);
    await shot('files-light');
    await page.getByRole('button', { name: 'Folder Brand' }).click();
    await page.getByRole('button', { name: 'Folder Logos' }).click();
    await page.getByRole('button', { name: 'logo-mono.svg: versions' }).click();
    await page.getByRole('heading', { name: 'Versions of logo-mono.svg' }).waitFor(PATIENCE);
    const rows = page.getByRole('rowheader', { name: /^Version \d/ });
    await rows.first().waitFor(PATIENCE);
    expect((await rows.allTextContents()).map((t) => t.match(/^Version \d+/)?.[0])).toEqual(['Version 2', 'Version 1']);
    expect(await page.getByRole('row').filter({ hasText: 'current' }).getByText('Rafael Reviewer').count()).toBe(1);
    await shot('versions-light');
  });

  it('receives a review request from a colleague and approves it', async () => {
    const { demo, colleague, user } = service;
    const assetId = demo.assetIds[0]!; // Brand/Logos/logo-primary.svg
    const asked = await colleague.api('POST', `/workspaces/assets/${assetId}/reviewRequests/${user.userId}`, { body: { message: 'New logo colour: OK for you?' } });
    expect(asked.status).toBe(201);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Reviews/ }).click();
    const card = page.getByRole('listitem', { name: 'logo-primary.svg' });
    // The daemon polls the service and pushes the request over the event stream.
    await card.waitFor(PATIENCE);
    expect(await card.getByText('New logo colour: OK for you?').count()).toBe(1);
    await shot('reviews-light');

    await card.getByLabel('Comment for Rafael Reviewer').fill('Approved from the browser.');
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.waitFor({ state: 'detached', ...PATIENCE });

    const reviews = await colleague.api<Array<{ status: string; content: string; user_id: string }>>('GET', `/workspaces/assets/${assetId}/reviews`);
    expect(reviews.status).toBe(200);
    expect(reviews.json).toContainEqual(expect.objectContaining({ status: 'approved', content: 'Approved from the browser.', user_id: user.userId }));
  });

  it('follows the system’s dark theme, and switches to dark on request', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Status' }).click();
    const toggle = page.getByRole('button', { name: 'Dark theme' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    await shot('status-dark-system');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('false');

    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await shot('status-dark');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Workspaces and folders' }).waitFor(PATIENCE);
    await shot('settings-dark');
  });
});
