/**
 * What the UI end-to-end tests stand on: the local service with demo data, the headless daemon
 * (`asset-sync sync --ui`) as a child process, and the built UI in Debian's Chromium.
 *
 * Needs `npm run build:renderer` first (`npm test` runs it) and /usr/bin/chromium
 * (`apt-get install chromium`; `.ci/run` installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestService, type TestService } from '../helpers/service.js';

export const REPO = resolve(import.meta.dirname, '../..');
const CHROMIUM = '/usr/bin/chromium';
export const SHOTS = join(REPO, 'test-results', 'ui-e2e');
/** Waiting is not asserting on speed: a slow machine only takes longer to get there. */
export const PATIENCE = { timeout: 60_000 };

export interface UiWorld {
  service: TestService;
  /** The sync root; the demo workspace is synced into `<root>/Spring Campaign`. */
  root: string;
  /** The address the daemon printed, with its token in the fragment. */
  url: string;
  /** The access token the address carries. */
  token: string;
  daemon: ChildProcess;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Everything the daemon printed, for failure messages. */
  output(): string;
  shot(name: string, options?: { fullPage?: boolean }): Promise<void>;
  stopDaemon(signal?: NodeJS.Signals): Promise<void>;
  /** Stops the daemon and starts it again on the same port, root and state: answers the new address it prints. */
  restartDaemon(): Promise<string>;
  close(): Promise<void>;
}

export async function startUiWorld(options: { viewport?: { width: number; height: number } } = {}): Promise<UiWorld> {
  if (!existsSync(CHROMIUM)) throw new Error(`The UI end-to-end test drives Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\`.`);
  if (!existsSync(join(REPO, 'dist/renderer/index.html'))) throw new Error('The UI is not built: run `npm run build:renderer` first (`npm test` does).');
  mkdirSync(SHOTS, { recursive: true });
  const home = mkdtempSync(join(tmpdir(), 'asset-sync-ui-e2e-'));
  const root = join(home, 'Assets');
  const service = await startTestService();
  let output = '';
  const { demo } = service;
  const startDaemon = (port: number): ChildProcess => {
    const child = spawn(
      process.execPath,
      ['bin/asset-sync.js', 'sync', '--ui', String(port), '--base-url', service.service.url, '--account', demo.accountId, '--workspace', demo.workspaceId, '--root', root, '--poll', '5'],
      {
        cwd: REPO,
        env: { ...process.env, ASSET_SYNC_HOME: join(home, 'state'), ASSET_SYNC_API_KEY: demo.user.apiKey, ASSET_SYNC_API_SECRET: demo.user.apiSecret },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return child;
  };
  const printedUrl = (child: ChildProcess) =>
    new Promise<string>((resolveUrl, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        output += `${line}\n`;
        const printed = line.trim();
        if (/^http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]{64}$/.test(printed)) resolveUrl(printed);
      });
      child.once('exit', (code) => reject(new Error(`asset-sync exited (${code}) before printing its UI address:\n${output}`)));
    });
  let daemon = startDaemon(0);
  const stopDaemon = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (daemon.exitCode !== null || daemon.signalCode !== null) return;
    const exited = new Promise((done) => daemon.once('exit', done));
    daemon.kill(signal);
    await exited;
  };

  let browser: Browser | undefined;
  try {
    const url = await printedUrl(daemon);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    });
    // A fresh context is a fresh profile: no cookie, no stored theme.
    const context = await browser.newContext({ viewport: options.viewport ?? { width: 1200, height: 860 }, colorScheme: 'light' });
    const page = await context.newPage();
    const opened = browser;
    const world: UiWorld = {
      service,
      root,
      url,
      token: new URLSearchParams(new URL(url).hash.slice(1)).get('token') ?? '',
      daemon,
      browser: opened,
      context,
      page,
      output: () => output,
      shot: async (name, shotOptions = {}) => void (await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: shotOptions.fullPage ?? true })),
      stopDaemon,
      async restartDaemon() {
        await stopDaemon();
        daemon = startDaemon(Number(new URL(url).port));
        world.daemon = daemon;
        return printedUrl(daemon);
      },
      async close() {
        await opened.close();
        await stopDaemon();
        await service.stop();
        rmSync(home, { recursive: true, force: true });
      },
    };
    return world;
  } catch (error) {
    await browser?.close();
    await stopDaemon();
    await service.stop();
    rmSync(home, { recursive: true, force: true });
    throw error;
  }
}

/** One call of the app's API from inside the page, as the UI makes it (the token the tab keeps in its header). */
export function callApi<T>(page: Page, channel: string, request: unknown = {}): Promise<T> {
  return page.evaluate(
    async ([name, body]) => {
      const token = (globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }).sessionStorage.getItem('asset-sync-token');
      const response = await fetch(`/api/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token ?? ''}` },
        body: JSON.stringify(body),
      });
      return (await response.json()) as T;
    },
    [channel, request] as const,
  );
}

/** Opens the UI at the address the daemon printed, once the first sync is over (the header says "Up to date"). */
export async function openWhenSynced(world: UiWorld): Promise<void> {
  await world.page.goto(world.url);
  await eventually('the first sync', () => world.page.getByRole('banner').getByTestId('header-state').textContent(), (text) => text === 'Up to date');
}

/** A button of the main navigation (its name may carry a count: match those with a RegExp). */
export const navButton = (page: Page, name: string | RegExp) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name });

/** Asks `probe` until `done` holds (outside a test, where expect.poll cannot run); fails after PATIENCE. */
export async function eventually<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const until = Date.now() + PATIENCE.timeout;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`Gave up waiting for ${what}; last seen: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Accessibility violations axe finds on the page as it is now that are serious or critical, in short. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}
