/**
 * The whole way a user goes (ui-world.ts: the local service, the headless daemon, Chromium).
 * The UI sees the files sync, shows a file's versions, receives a review request a colleague
 * makes, approves it, and the approval is then on the service. When the daemon is killed, the
 * page says it is no longer connected.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-helpers.js';
import type { TestService } from '../helpers/service.js';
import { PATIENCE, startUiWorld, type UiWorld } from './ui-world.js';

let world: UiWorld;
let service: TestService;
let page: Page;

const shot = (name: string) => world.shot(name);

beforeAll(async () => {
  world = await startUiWorld();
  ({ service, page } = world);
  await page.goto(world.url);
}, 120_000);

afterAll(async () => {
  await world?.close();
}, 60_000);

describe('the UI in a browser, over the headless daemon', () => {
  it('shows the workspace syncing until it is up to date, without the token in the address bar', async () => {
    const state = page.getByRole('banner').getByTestId('header-state');
    await expect.poll(() => state.textContent(), PATIENCE).toBe('Up to date');
    expect(page.url()).not.toContain(world.token);
    expect(page.url()).not.toContain('token');
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

  it('marks a review read, then all of them: the badge counts only the unread, and stays so after a reload', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: /^Reviews/ }).click();
    const markOne = page.getByRole('button', { name: 'Mark as read' });
    await expect.poll(() => markOne.count(), PATIENCE).toBeGreaterThan(1);
    const unread = await markOne.count();
    // The demo's review and change requests, none read yet.
    expect(await nav.getByRole('button', { name: new RegExp(`^Reviews\\s*, ${unread} new$`) }).count()).toBe(1);
    expect(await nav.locator('.badge').textContent()).toBe(String(unread));

    const card = page.getByRole('listitem').filter({ has: markOne }).first();
    const name = await card.locator('strong').first().textContent();
    await markOne.first().click();
    const read = page.getByRole('listitem', { name: name ?? '' });
    await expect.poll(() => read.getByRole('button', { name: 'Mark as read' }).count(), PATIENCE).toBe(0);
    expect(await read.getByText('new', { exact: true }).count()).toBe(0);
    expect(await markOne.count()).toBe(unread - 1);
    expect(await nav.getByRole('button', { name: new RegExp(`^Reviews\\s*, ${unread - 1} new$`) }).count()).toBe(1);
    await shot('reviews-one-read');

    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect.poll(() => markOne.count(), PATIENCE).toBe(0);
    expect(await page.getByRole('button', { name: 'Mark all as read' }).count()).toBe(0);
    expect(await nav.getByRole('button', { name: 'Reviews', exact: true }).count()).toBe(1);
    expect(await nav.locator('.badge').count()).toBe(0);

    // The daemon keeps what was read: a fresh page shows the requests, none of them new.
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Reviews/ }).click();
    await page.getByRole('heading', { name: /^Review requests \(\d+\)$/ }).waitFor(PATIENCE);
    expect(await page.getByRole('heading', { name: /^Change requests \(\d+\)$/ }).count()).toBe(1);
    expect(await markOne.count()).toBe(0);
    expect(await nav.locator('.badge').count()).toBe(0);
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

  it('counts the changes saved while paused, in the header and in `asset-sync status`, and syncs them on resume', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Status' }).click();
    const state = page.getByRole('banner').getByTestId('header-state');
    await expect.poll(() => state.textContent(), PATIENCE).toBe('Up to date');
    await page.getByRole('button', { name: 'Pause sync' }).click();
    await expect.poll(() => state.textContent(), PATIENCE).toBe('Paused');

    const saved = join(world.root, 'Spring Campaign', 'saved-while-paused.txt');
    writeFileSync(saved, 'saved while sync was paused\n');
    await expect.poll(() => state.textContent(), PATIENCE).toBe('Paused · 1 change waiting');
    expect(await page.getByTestId('overall-state').textContent()).toBe('Paused · 1 change waiting');
    expect(await page.getByRole('listitem').filter({ hasText: '1 change saved while paused' }).count()).toBe(1);
    await shot('status-paused-changes');

    // The command line, beside the running daemon, tells the same.
    const env = { ASSET_SYNC_HOME: join(dirname(world.root), 'state') };
    const human = await runCli(['status', '--root', world.root], { env });
    expect(human.stdout).toMatch(/^State: paused since .+, 1 change waiting/m);
    const json = JSON.parse((await runCli(['status', '--json', '--root', world.root], { env })).stdout) as { paused: { since: string } | null; workspaces: Array<{ pausedChanges: number }> };
    expect(json.paused?.since).toBeTruthy();
    expect(json.workspaces[0]?.pausedChanges).toBe(1);
    // Nothing went up while paused.
    const listed = async () => (await service.user.api<{ assets: Array<{ file_name: string }> }>('GET', '/workspaces/folders/hierarchy')).json.assets.map((a) => a.file_name);
    expect(await listed()).not.toContain('saved-while-paused.txt');

    await page.getByRole('button', { name: 'Resume sync' }).click();
    await expect.poll(() => listed(), PATIENCE).toContain('saved-while-paused.txt');
    await expect.poll(() => state.textContent(), PATIENCE).toBe('Up to date');
    expect((await runCli(['status', '--root', world.root], { env })).stdout).toContain('State: up to date');
  });

  it('says it is no longer connected once the daemon is gone, instead of its last status', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Status' }).click();
    const state = page.getByRole('banner').getByTestId('header-state');
    await expect.poll(() => state.textContent(), PATIENCE).toBe('Up to date');
    await world.stopDaemon('SIGKILL');
    await expect.poll(() => state.textContent(), PATIENCE).toBe('Not connected to Asset Sync');
    expect(await page.getByTestId('overall-state').textContent()).toBe('Not connected to Asset Sync');
    expect(await page.getByTestId('connection-notice').textContent()).toContain('This page reconnects by itself');
    expect(await page.getByRole('button', { name: 'Pause sync' }).isDisabled()).toBe(true);
    await shot('daemon-gone');
  });
});
