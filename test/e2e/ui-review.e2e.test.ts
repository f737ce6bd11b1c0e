/**
 * A designer's review day in Chromium (ui-world.ts: the local service, the headless daemon):
 * a review request made through the API appears with its picture and version, is looked at and
 * rejected with a reason, which the API then has; a comment mentions a colleague; a conflict is
 * resolved by looking, with "Keep mine", and the service has that version as current; a file
 * locked here is read-only on a colleague's computer. Screenshots of these screens (light, dark,
 * 800x600) go to test-results/ui-e2e.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset, AssetReview, Comment } from '../../shared/api/index.js';
import { runCli } from '../cli/cli-helpers.js';
import type { TestService } from '../helpers/service.js';
import { PATIENCE, eventually, startUiWorld, type UiWorld } from './ui-world.js';

let world: UiWorld;
let service: TestService;
let page: Page;

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const requests = () => page.getByRole('region', { name: /^Review requests/ });
const nav = (name: string | RegExp) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name });
const workspaceDir = (): string => join(world.root, 'Spring Campaign');
/** A square of one colour, as a real PNG. */
const png = (r: number, g: number, b: number): Promise<Buffer> => sharp({ create: { width: 320, height: 200, channels: 3, background: { r, g, b } } }).png().toBuffer();

async function assetAt(path: string): Promise<Asset> {
  const listing = await service.user.api<{ folders: Array<{ id: string; parent_id: string | null; name: string }>; assets: Array<{ id: string; folder_id: string | null; file_name: string }> }>('GET', '/workspaces/folders/hierarchy');
  const folderPath = (id: string | null): string => {
    if (id === null) return '';
    const folder = listing.json.folders.find((f) => f.id === id);
    const parent = folder ? folderPath(folder.parent_id) : '';
    return parent ? `${parent}/${folder?.name ?? ''}` : (folder?.name ?? '');
  };
  const found = listing.json.assets.find((a) => [folderPath(a.folder_id), a.file_name].filter(Boolean).join('/') === path);
  if (!found) throw new Error(`no asset at ${path}`);
  return (await service.user.api<Asset>('GET', `/workspaces/assets/${found.id}`)).json;
}

/** Light, dark, and a 800x600 window. */
async function shots(name: string): Promise<void> {
  await world.shot(`${name}-light`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await world.shot(`${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 800, height: 600 });
  await world.shot(`${name}-800x600`, { fullPage: false });
  await page.setViewportSize({ width: 1200, height: 860 });
}

beforeAll(async () => {
  world = await startUiWorld();
  ({ service, page } = world);
  await page.goto(world.url);
  await eventually('the first sync', () => page.getByRole('banner').getByTestId('header-state').textContent(), (text) => text === 'Up to date');
}, 120_000);

afterAll(async () => {
  await world?.close();
}, 60_000);

describe('reviews in context', () => {
  const STORY = 'Campaigns/Spring/Social/story-01.png';

  it('shows a review request made through the API with its picture and version, and previews that version', async () => {
    const story = await assetAt(STORY);
    const asked = await service.colleague.api('POST', `/workspaces/assets/${story.id}/reviewRequests/${service.user.userId}`, { body: { message: 'Is the crop right for stories?' } });
    expect(asked.status).toBe(201);
    const number = story.currentVersion?.version_number ?? 0;

    await nav(/^Reviews/).click();
    const card = requests().getByRole('listitem', { name: 'story-01.png' });
    await card.waitFor(PATIENCE);
    const picture = card.getByRole('img', { name: `story-01.png, version ${number}` });
    await picture.waitFor(PATIENCE);
    expect(await picture.getAttribute('src')).toMatch(/^\/media\//);
    await expect.poll(() => picture.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), PATIENCE).toBeGreaterThan(0);
    expect(await card.getByText(`Version ${number}`, { exact: true }).count()).toBe(1);
    expect(await card.getByText('Campaigns/Spring/Social', { exact: false }).count()).toBeGreaterThan(0);
    expect(await card.getByText('Is the crop right for stories?').count()).toBe(1);
    await shots('review-card');

    await card.getByRole('button', { name: `Open version ${number} of story-01.png` }).click();
    const dialog = page.getByRole('dialog', { name: `story-01.png, version ${number}` });
    const shown = dialog.getByRole('img', { name: `story-01.png, version ${number}` });
    await shown.waitFor(PATIENCE);
    await expect.poll(() => shown.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), PATIENCE).toBeGreaterThan(0);
    await shots('review-preview');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', ...PATIENCE });
  }, 180_000);

  it('asks for a reason before rejecting, rejects with one, and the API has the rejection of that version', async () => {
    const story = await assetAt(STORY);
    const card = requests().getByRole('listitem', { name: 'story-01.png' });
    const field = card.getByLabel('Comment for Rafael Reviewer');
    await card.getByRole('button', { name: 'Reject' }).click();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await card.getByText('Say why you reject it: the reason goes to the colleague who asked.').count()).toBe(1);
    await world.shot('review-reason-needed-light');

    await field.fill('The logo is cut off at the top.');
    await card.getByRole('button', { name: 'Reject' }).click();
    await card.getByText(/^You rejected version \d+ of story-01\.png/).waitFor(PATIENCE);
    await shots('review-decided');
    const reviews = await service.colleague.api<AssetReview[]>('GET', `/workspaces/assets/${story.id}/reviews`);
    expect(reviews.json).toContainEqual(
      expect.objectContaining({ status: 'rejected', content: 'The logo is cut off at the top.', user_id: service.user.userId, asset_version_id: story.current_version_id }),
    );
    // Once the undo time is over, the decision is in the Decided list.
    await card.waitFor({ state: 'detached', ...PATIENCE });
    await page.getByRole('table', { name: 'Your decisions, newest first' }).getByRole('row', { name: /story-01\.png/ }).waitFor(PATIENCE);
    await shots('reviews-decided-list');
  }, 180_000);

  it('adds a comment that mentions a colleague, which the API has', async () => {
    const hero = await assetAt('Campaigns/Spring/Social/hero.psd');
    const card = requests().getByRole('listitem', { name: 'hero.psd' });
    await card.getByRole('button', { name: 'Comments on hero.psd' }).click();
    const thread = card.getByRole('region', { name: 'Comments on hero.psd' });
    await thread.getByLabel('Add a comment on hero.psd').fill('Rafael, the sky needs another pass.');
    await thread.getByRole('checkbox', { name: 'Rafael Reviewer' }).check();
    await thread.getByRole('button', { name: 'Comment' }).click();
    await thread.getByText('Rafael, the sky needs another pass.').waitFor(PATIENCE);
    await shots('review-comments');
    const comments = await service.colleague.api<Comment[]>('GET', `/workspaces/assets/${hero.id}/comments`);
    expect(comments.json).toContainEqual(expect.objectContaining({ content: 'Rafael, the sky needs another pass.', mentions: [service.colleague.userId], user_id: service.user.userId }));
  }, 180_000);
});

describe('a conflict resolved by looking', () => {
  it('says so in the header, shows both pictures, and "Keep mine" makes mine the current version on the service', async () => {
    const LOGO = 'Brand/Logos/logo-mark.png';
    const mine = await png(220, 40, 40);
    const theirs = await png(40, 80, 220);
    const state = page.getByRole('banner').getByTestId('header-state');
    await nav('Status').click();
    await page.getByRole('button', { name: 'Pause sync' }).click();
    await expect.poll(() => state.textContent(), PATIENCE).toBe('Paused');
    writeFileSync(join(workspaceDir(), LOGO), mine);
    const logo = await assetAt(LOGO);
    const ticket = await service.colleague.api<{ key: string; signed_url: string }>('POST', `/workspaces/upload?file_name=logo-mark.png&content_type=image/png&checksum=${sha256(theirs)}&size=${theirs.length}`);
    expect((await fetch(ticket.json.signed_url, { method: 'PUT', body: theirs })).status).toBe(200);
    const made = await service.colleague.api<{ id: string }>('POST', `/workspaces/assets/${logo.id}/versions`, { body: { key: ticket.json.key, checksum: sha256(theirs), commit_parent_id: logo.current_version_id } });
    expect(made.status).toBe(201);
    await page.getByRole('button', { name: 'Resume sync' }).click();

    await expect.poll(() => state.textContent(), PATIENCE).toBe('1 conflict to resolve');
    await nav(/^Conflicts/).click();
    const card = page.getByRole('listitem', { name: LOGO });
    await card.waitFor(PATIENCE);
    for (const name of ['Your version of logo-mark.png', 'Their version of logo-mark.png']) {
      const picture = card.getByRole('img', { name });
      await picture.waitFor(PATIENCE);
      await expect.poll(() => picture.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), PATIENCE).toBeGreaterThan(0);
    }
    expect(await card.getByText(/by Rafael Reviewer/).count()).toBe(1);
    await shots('conflict');

    await card.getByRole('button', { name: 'Keep mine' }).click();
    await page.getByText(/^Kept your version of logo-mark\.png as version \d+; the copy went to the trash\.$/).waitFor(PATIENCE);
    const after = await assetAt(LOGO);
    expect(after.currentVersion?.checksum).toBe(sha256(mine));
    expect(after.currentVersion?.commit_parent_id).toBe(made.json.id);
    await expect.poll(() => sha256(readFileSync(join(workspaceDir(), LOGO))), PATIENCE).toBe(sha256(mine));
    await expect.poll(() => state.textContent(), PATIENCE).toBe('Up to date');
    await shots('conflicts-none');
  }, 180_000);
});

describe('a lock', () => {
  it('is taken from Files, and the file is read-only on a colleague’s computer', async () => {
    await nav('Files').click();
    await page.getByRole('button', { name: 'Folder Campaigns' }).click();
    await page.getByRole('button', { name: 'Folder Spring' }).click();
    await page.getByRole('button', { name: 'Lock brief.md' }).click();
    await page.getByText('Locked brief.md: it is read-only for everyone else until you unlock it.').waitFor(PATIENCE);
    await page.getByRole('button', { name: 'Unlock brief.md (you hold the lock)' }).waitFor(PATIENCE);
    await shots('files-locked');
    const brief = await assetAt('Campaigns/Spring/brief.md');
    expect(brief.locked_by_user_id).toBe(service.user.userId);

    const home = mkdtempSync(join(tmpdir(), 'asset-sync-ui-desk-'));
    try {
      const { demo } = service;
      const desk = await runCli(['sync', '--once', '--base-url', service.service.url, '--account', demo.accountId, '--workspace', demo.workspaceId, '--root', join(home, 'root')], {
        env: { ASSET_SYNC_HOME: join(home, 'state'), ASSET_SYNC_API_KEY: demo.colleague.apiKey, ASSET_SYNC_API_SECRET: demo.colleague.apiSecret },
      });
      expect(desk.code, desk.stdout + desk.stderr).toBe(0);
      expect(lstatSync(join(home, 'root', 'Spring Campaign', 'Campaigns/Spring/brief.md')).mode & 0o222).toBe(0);
      expect(lstatSync(join(home, 'root', 'Spring Campaign', 'README.txt')).mode & 0o200).not.toBe(0);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 180_000);
});
