/**
 * Every setting saved from the browser applies to the running `asset-sync sync --ui`: after each
 * save, a file edited in the sync folder still reaches the service, and the header never says
 * "Needs attention" (saving reopened the session while the process still held the root's lock:
 * "Another Asset Sync is already syncing", and nothing synced until a restart).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type Session } from '../helpers/service.js';
import { PATIENCE, openWhenSynced, startUiWorld, type UiWorld } from './ui-world.js';

let world: UiWorld;
let page: Page;
/** A second workspace of the demo account, created for this test. */
let moodboards: Session;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

interface Listed {
  assets: Array<{ file_name: string; folder_id: string | null; checksum: string }>;
}

/** The checksum the service holds for a top-level file of a workspace, or null. */
async function checksumOnService(who: Session, fileName: string): Promise<string | null> {
  const listed = await who.api<Listed>('GET', '/workspaces/folders/hierarchy');
  return listed.json.assets.find((a) => a.file_name === fileName && a.folder_id === null)?.checksum ?? null;
}

const assetCount = async (who: Session): Promise<number> => (await who.api<Listed>('GET', '/workspaces/folders/hierarchy')).json.assets.length;

let edits = 0;
/** Writes new bytes into `<root>/<workspace folder>/<name>` and waits until the service has them. */
async function editReachesService(who: Session, root: string, folder: string, name: string): Promise<void> {
  edits += 1;
  const content = `edit ${edits} at ${new Date().toISOString()}\n`;
  const file = join(root, folder, name);
  // The file is first synced there (a new sync folder downloads it): an edit races no download.
  const current = await checksumOnService(who, name);
  await expect.poll(() => (existsSync(file) ? sha256(readFileSync(file, 'utf8')) : existsSync(join(root, folder)) && current === null ? null : 'absent'), PATIENCE).toBe(current);
  writeFileSync(file, content);
  await expect.poll(() => checksumOnService(who, name), PATIENCE).toBe(sha256(content));
  expect(world.output()).not.toMatch(/conflict/i);
}

/** Every text the header's state took since the page loaded (a MutationObserver in the page). */
const headerStates = (): Promise<string[]> => page.evaluate('window.headerStates');

async function openSettings(): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Workspaces and folders' }).waitFor(PATIENCE);
}

async function saveSync(field: string, value: string): Promise<void> {
  await openSettings();
  const form = page.getByRole('form', { name: 'Sync' });
  await form.getByLabel(field).fill(value);
  await form.getByRole('button', { name: 'Save settings' }).click();
  await page.getByRole('region', { name: 'Sync' }).getByText('Settings saved.').waitFor(PATIENCE);
}

async function saveWorkspaces(): Promise<void> {
  const section = page.getByRole('region', { name: 'Workspaces and folders' });
  await section.getByRole('button', { name: 'Save workspaces' }).click();
  await section.getByText('Workspace choices saved.').waitFor(PATIENCE);
}

beforeAll(async () => {
  world = await startUiWorld();
  page = world.page;
  const created = await world.service.user.api<{ id: string }>('POST', '/workspaces', { body: { name: 'Moodboards' } });
  expect(created.status).toBe(201);
  moodboards = await signIn(world.service.service.url, { ...world.service.demo.user, accountId: world.service.demo.accountId, workspaceId: created.json.id });

  await page.addInitScript(`(() => {
    const seen = [];
    window.headerStates = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="header-state"]')?.textContent ?? null;
      if (text !== null && seen.at(-1) !== text) seen.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  })()`);
  await openWhenSynced(world);
}, 120_000);

afterAll(async () => {
  await world?.close();
}, 60_000);

// Each step waits for the engine to see an edit and for the service to have it.
describe('settings saved in the browser apply to the running sync', { timeout: 180_000 }, () => {
  const campaign = 'Spring Campaign';

  it('changes how often the service is checked, and keeps syncing', async () => {
    await saveSync('Check the service every (seconds)', '7');
    await editReachesService(world.service.user, world.root, campaign, 'README.txt');
  });

  it('sets a bandwidth limit, then removes it, and keeps syncing', async () => {
    await saveSync('Bandwidth limit (KB/s)', '5000');
    await editReachesService(world.service.user, world.root, campaign, 'README.txt');
    await saveSync('Bandwidth limit (KB/s)', '');
    await editReachesService(world.service.user, world.root, campaign, 'README.txt');
  });

  it('sets how many files move at once, stops making thumbnails as files sync, shrinks the picture cache, and keeps syncing', async () => {
    await saveSync('Downloads at once', '2');
    await saveSync('Uploads at once', '1');
    await saveSync('Picture cache size (MB)', '64');
    const form = page.getByRole('form', { name: 'Sync' });
    await form.getByLabel('Make thumbnails as files sync').uncheck();
    await form.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('region', { name: 'Sync' }).getByText('Settings saved.').waitFor(PATIENCE);
    await editReachesService(world.service.user, world.root, campaign, 'README.txt');
    // Kept in the config file (ASSET_SYNC_HOME is the state folder beside the sync root), and shown again after a reload.
    const saved = JSON.parse(readFileSync(join(dirname(world.root), 'state', 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ maxDownloads: 2, maxUploads: 1, mediaCacheMiB: 64, prefetchThumbnails: false });
    await page.reload();
    await openSettings();
    expect(await form.getByLabel('Downloads at once').inputValue()).toBe('2');
    expect(await form.getByLabel('Make thumbnails as files sync').isChecked()).toBe(false);
  });

  it('leaves a folder out under Choose folders, and keeps syncing the rest', async () => {
    await openSettings();
    const section = page.getByRole('region', { name: 'Workspaces and folders' });
    await section.getByRole('button', { name: /^Choose folders/ }).click();
    await section.getByRole('checkbox', { name: 'Photography' }).uncheck();
    const photos = await assetCount(world.service.user);
    await saveWorkspaces();
    await editReachesService(world.service.user, world.root, campaign, 'README.txt');
    // Left out on this device only: the service keeps every asset.
    expect(await assetCount(world.service.user)).toBe(photos);
  });

  it('adds a second workspace and syncs both, then drops it again', async () => {
    await openSettings();
    const section = page.getByRole('region', { name: 'Workspaces and folders' });
    await section.getByRole('checkbox', { name: 'Sync Moodboards' }).check();
    await saveWorkspaces();
    await editReachesService(moodboards, world.root, 'Moodboards', 'ideas.txt');
    await editReachesService(world.service.user, world.root, campaign, 'README.txt');

    await section.getByRole('checkbox', { name: 'Sync Moodboards' }).uncheck();
    await saveWorkspaces();
    await editReachesService(world.service.user, world.root, campaign, 'README.txt');
    expect(await checksumOnService(moodboards, 'ideas.txt')).not.toBeNull();
  });

  it('moves to another sync folder and syncs there', async () => {
    const moved = join(dirname(world.root), 'Moved Assets');
    mkdirSync(moved, { recursive: true });
    await saveSync('Sync folder', moved);
    await editReachesService(world.service.user, moved, campaign, 'README.txt');
  });

  it('never showed "Needs attention" on the way, in the page or in the terminal', async () => {
    const states = await headerStates();
    expect(states).toContain('Up to date');
    expect(states, world.output()).not.toContain('Needs attention');
    // The terminal prints every state the engine reports, even one the page's batching skips.
    expect(world.output()).toContain('status: up to date');
    expect(world.output()).not.toMatch(/needs attention|RootBusyError|already syncing/i);
  });
});
