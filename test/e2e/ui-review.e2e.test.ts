/**
 * A designer's review day in Chromium (ui-world.ts: the local service, the headless daemon):
 * a review request made through the API arrives as a browser notification that opens it, shows
 * its picture, folder, version, who asked and when; Open previews that version; a rejection asks
 * for its reason, is undone, made again, and the API has it; it then sits in the Decided list; a
 * comment mentions a colleague; three conflicts are shown side by side (axe finds nothing serious,
 * light or dark, at 800x600 too), each side opens in the preview, and they are resolved by
 * looking (keep mine, keep theirs, keep both) and the service and the folder agree; a file locked
 * here is read-only on a colleague's computer until it is unlocked, and a file a colleague locks
 * is read-only here, named as theirs, and its release is told. Screenshots of these screens (light, dark, 800x600)
 * go to test-results/ui-e2e.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset, AssetReview, Comment } from '../../shared/api/index.js';
import type { ConflictView } from '../../shared/ipc.js';
import { runCli } from '../cli/cli-helpers.js';
import type { TestService } from '../helpers/service.js';
import { PATIENCE, callApi, navButton, openWhenSynced, seriousViolations, startUiWorld, type UiWorld } from './ui-world.js';

let world: UiWorld;
let service: TestService;
let page: Page;

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const requests = () => page.getByRole('region', { name: /^Review requests/ });
const nav = (name: string | RegExp) => navButton(page, name);
const workspaceDir = (): string => join(world.root, 'Spring Campaign');
/** A square of one colour, as a real PNG. */
const png = (r: number, g: number, b: number): Promise<Buffer> => sharp({ create: { width: 320, height: 200, channels: 3, background: { r, g, b } } }).png().toBuffer();

/** The same colour as a real JPEG. */
const jpeg = (r: number, g: number, b: number): Promise<Buffer> => sharp({ create: { width: 320, height: 200, channels: 3, background: { r, g, b } } }).jpeg().toBuffer();

/**
 * The browser's notifications, recorded as the page makes them (the real constructor still runs):
 * what each said, and a click on one, as the user's would be.
 */
const RECORD_NOTIFICATIONS = `{
  const Real = globalThis.Notification;
  const made = [];
  globalThis.Notification = class extends Real {
    constructor(title, options) {
      super(title, options);
      made.push(this);
    }
  };
  globalThis.__notifications = made;
}`;
type Notice = { title: string; body: string };
const notices = (): Promise<Notice[]> =>
  page.evaluate(() => ((globalThis as unknown as { __notifications?: Notice[] }).__notifications ?? []).map(({ title, body }) => ({ title, body })));
const clickNotice = (title: string): Promise<void> =>
  page.evaluate((wanted) => {
    const made = (globalThis as unknown as { __notifications: Array<{ title: string; dispatchEvent(event: unknown): boolean }> }).__notifications;
    const Click = (globalThis as unknown as { Event: new (type: string) => unknown }).Event;
    made.find((n) => n.title === wanted)?.dispatchEvent(new Click('click'));
  }, title);

/** A colleague's new version of an asset, uploaded as the reference describes. */
async function colleagueVersion(asset: Asset, bytes: Buffer, contentType: string): Promise<string> {
  const ticket = await service.colleague.api<{ key: string; signed_url: string }>(
    'POST',
    `/workspaces/upload?file_name=${encodeURIComponent(asset.file_name ?? '')}&content_type=${contentType}&checksum=${sha256(bytes)}&size=${bytes.length}`,
  );
  expect((await fetch(ticket.json.signed_url, { method: 'PUT', body: bytes })).status).toBe(200);
  const made = await service.colleague.api<{ id: string }>('POST', `/workspaces/assets/${asset.id}/versions`, { body: { key: ticket.json.key, checksum: sha256(bytes), commit_parent_id: asset.current_version_id } });
  expect(made.status).toBe(201);
  return made.json.id;
}

async function assetExists(path: string): Promise<boolean> {
  return assetAt(path).then(
    () => true,
    () => false,
  );
}

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
  await world.context.grantPermissions(['notifications'], { origin: new URL(world.url).origin });
  await page.addInitScript({ content: RECORD_NOTIFICATIONS });
  await openWhenSynced(world);
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

    // Notifications were allowed for the page beforehand: a headless browser's prompt cannot be answered.
    const title = 'Rafael Reviewer asks you to review story-01.png';
    await expect.poll(notices, PATIENCE).toContainEqual({ title, body: 'Is the crop right for stories?' });
    await clickNotice(title);
    const card = requests().getByRole('listitem', { name: 'story-01.png' });
    await card.waitFor(PATIENCE);
    await expect.poll(() => card.evaluate((li) => li === (li as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement), PATIENCE).toBe(true);
    const picture = card.getByRole('img', { name: `story-01.png, version ${number}` });
    await picture.waitFor(PATIENCE);
    expect(await picture.getAttribute('src')).toMatch(/^\/media\//);
    await expect.poll(() => picture.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), PATIENCE).toBeGreaterThan(0);
    expect(await card.getByText(`Version ${number}`, { exact: true }).count()).toBe(1);
    expect(await card.getByText('Campaigns/Spring/Social', { exact: false }).count()).toBeGreaterThan(0);
    expect(await card.getByText('Is the crop right for stories?').count()).toBe(1);
    expect(await card.getByText(/^Rafael Reviewer asks for your review · \S/).count()).toBe(1);
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

  it('asks for a reason before rejecting, undoes a rejection, rejects again, and the API has the rejection of that version', async () => {
    const story = await assetAt(STORY);
    const mine = async () => (await service.colleague.api<AssetReview[]>('GET', `/workspaces/assets/${story.id}/reviews`)).json.filter((r) => r.user_id === service.user.userId);
    const card = requests().getByRole('listitem', { name: 'story-01.png' });
    const field = card.getByLabel('Comment for Rafael Reviewer');
    await card.getByRole('button', { name: 'Reject' }).click();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await card.getByText('Say why you reject it: the reason goes to the colleague who asked.').count()).toBe(1);
    expect(await mine()).toEqual([]);
    await world.shot('review-reason-needed-light');

    await field.fill('Too dark.');
    await card.getByRole('button', { name: 'Reject' }).click();
    await card.getByText(/^You rejected version \d+ of story-01\.png: “Too dark\.”/).waitFor(PATIENCE);
    expect(await mine()).toEqual([expect.objectContaining({ status: 'rejected', content: 'Too dark.' })]);
    await card.getByRole('button', { name: 'Undo' }).click();
    await field.waitFor(PATIENCE);
    expect(await mine()).toEqual([]);

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

describe('conflicts resolved by looking', () => {
  const LOGO = 'Brand/Logos/logo-mark.png';
  const STUDIO_1 = 'Photography/studio-001.jpg';
  const STUDIO_2 = 'Photography/studio-002.jpg';
  const state = () => page.getByRole('banner').getByTestId('header-state');
  const card = (path: string) => page.getByRole('listitem', { name: path });
  const copyOf = async (path: string): Promise<string> => {
    const found = (await callApi<ConflictView[]>(page, 'listConflicts')).find((c) => c.path === path);
    if (!found) throw new Error(`no conflict on ${path}`);
    return found.copyPath;
  };
  const local = (path: string): string => join(workspaceDir(), path);
  const mine = { logo: png(220, 40, 40), studio1: jpeg(200, 200, 40), studio2: jpeg(40, 200, 200) };
  const theirs = { logo: png(40, 80, 220), studio1: jpeg(90, 20, 120), studio2: jpeg(250, 120, 0) };
  let logoTheirsId = '';

  it('edits here and by a colleague at once make three conflicts: the header says so, and each shows both pictures with who made theirs', async () => {
    await nav('Status').click();
    await page.getByRole('button', { name: 'Pause sync' }).click();
    await expect.poll(() => state().textContent(), PATIENCE).toBe('Paused');
    const edits: Array<[string, Buffer, Buffer, string]> = [
      [LOGO, await mine.logo, await theirs.logo, 'image/png'],
      [STUDIO_1, await mine.studio1, await theirs.studio1, 'image/jpeg'],
      [STUDIO_2, await mine.studio2, await theirs.studio2, 'image/jpeg'],
    ];
    for (const [path, ours, theirBytes, type] of edits) {
      writeFileSync(local(path), ours);
      const id = await colleagueVersion(await assetAt(path), theirBytes, type);
      if (path === LOGO) logoTheirsId = id;
    }
    await page.getByRole('button', { name: 'Resume sync' }).click();

    await expect.poll(() => state().textContent(), PATIENCE).toBe('3 conflicts to resolve');
    await nav(/^Conflicts/).click();
    for (const path of [LOGO, STUDIO_1, STUDIO_2]) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      await card(path).waitFor(PATIENCE);
      for (const alt of [`Your version of ${name}`, `Their version of ${name}`]) {
        const picture = card(path).getByRole('img', { name: alt });
        await picture.waitFor(PATIENCE);
        await expect.poll(() => picture.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), PATIENCE).toBeGreaterThan(0);
      }
      expect(await card(path).getByText(/Version \d+ by Rafael Reviewer/).count()).toBe(1);
    }
    await shots('conflict');
    for (const [scheme, size] of [['light', { width: 1200, height: 860 }], ['dark', { width: 1200, height: 860 }], ['light', { width: 800, height: 600 }], ['dark', { width: 800, height: 600 }]] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize(size);
      expect(await seriousViolations(page), `${scheme}, ${size.width} × ${size.height}`).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1200, height: 860 });
  }, 180_000);

  it('opens each side in the preview over the conflicts, at its own address, and Escape comes back to them', async () => {
    await card(LOGO).getByRole('button', { name: 'Preview their version of logo-mark.png' }).click();
    const dialog = page.getByRole('dialog', { name: /^logo-mark\.png, version \d+$/ });
    const shown = dialog.getByRole('img', { name: /^logo-mark\.png, version \d+$/ });
    await shown.waitFor(PATIENCE);
    await expect.poll(() => shown.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), PATIENCE).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/preview');
    expect(new URL(page.url()).searchParams.get('from')).toBe('/conflicts');
    expect(await page.title()).toBe('Preview of logo-mark.png – Asset Sync');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', ...PATIENCE });
    expect(new URL(page.url()).pathname).toBe('/conflicts');
    expect(await page.title()).toBe('Conflicts – Asset Sync');

    const copy = await copyOf(LOGO);
    await card(LOGO).getByRole('button', { name: 'Preview your version of logo-mark.png' }).click();
    const mine = page.getByRole('dialog', { name: new RegExp(`^${copy.slice(copy.lastIndexOf('/') + 1).replace(/[.()]/g, '\\$&')}`) });
    await mine.getByRole('img').first().waitFor(PATIENCE);
    await page.keyboard.press('Escape');
    await mine.waitFor({ state: 'detached', ...PATIENCE });
  }, 180_000);

  it('"Keep mine" makes mine the current version on the service, on top of theirs', async () => {
    await card(LOGO).getByRole('button', { name: 'Keep mine' }).click();
    await page.getByText(/^Kept your version of logo-mark\.png as version \d+; the copy went to the trash\.$/).waitFor(PATIENCE);
    const after = await assetAt(LOGO);
    expect(after.currentVersion?.checksum).toBe(sha256(await mine.logo));
    expect(after.currentVersion?.commit_parent_id).toBe(logoTheirsId);
    await expect.poll(() => sha256(readFileSync(local(LOGO))), PATIENCE).toBe(sha256(await mine.logo));
    await expect.poll(() => state().textContent(), PATIENCE).toBe('2 conflicts to resolve');
  }, 180_000);

  it('"Keep theirs" puts my copy in the trash: theirs stays, here and on the service', async () => {
    const copy = await copyOf(STUDIO_1);
    expect(sha256(readFileSync(local(copy)))).toBe(sha256(await mine.studio1));
    expect(await assetExists(copy)).toBe(true);
    await card(STUDIO_1).getByRole('button', { name: 'Keep theirs' }).click();
    await page.getByText('Kept their version of studio-001.jpg; your copy went to the trash.').waitFor(PATIENCE);
    expect(existsSync(local(copy))).toBe(false);
    expect(sha256(readFileSync(local(STUDIO_1)))).toBe(sha256(await theirs.studio1));
    await expect.poll(() => assetExists(copy), PATIENCE).toBe(false);
    expect((await assetAt(STUDIO_1)).currentVersion?.checksum).toBe(sha256(await theirs.studio1));
    await expect.poll(() => state().textContent(), PATIENCE).toBe('1 conflict to resolve');
  }, 180_000);

  it('"Keep both" keeps my copy as a file of its own beside theirs; then nothing waits and the header says "Up to date"', async () => {
    const copy = await copyOf(STUDIO_2);
    await card(STUDIO_2).getByRole('button', { name: 'Keep both' }).click();
    await page.getByText(`Kept both: ${copy.slice(copy.lastIndexOf('/') + 1)} stays beside studio-002.jpg.`).waitFor(PATIENCE);
    await expect.poll(() => state().textContent(), PATIENCE).toBe('Up to date');
    expect(sha256(readFileSync(local(copy)))).toBe(sha256(await mine.studio2));
    expect(sha256(readFileSync(local(STUDIO_2)))).toBe(sha256(await theirs.studio2));
    expect((await assetAt(copy)).currentVersion?.checksum).toBe(sha256(await mine.studio2));
    expect((await assetAt(STUDIO_2)).currentVersion?.checksum).toBe(sha256(await theirs.studio2));
    await page.getByText(/^No conflicts\./).waitFor(PATIENCE);
    await shots('conflicts-none');
  }, 180_000);
});

describe('locks', () => {
  const BRIEF = 'Campaigns/Spring/brief.md';
  const HERO = 'Campaigns/Spring/Social/hero.psd';
  const writable = (path: string): boolean => (lstatSync(path).mode & 0o200) !== 0;
  const openFolder = async (...names: string[]) => {
    await nav('Files').click();
    for (const name of names) await page.getByRole('button', { name: `Folder ${name}` }).click();
  };

  it('a lock taken in Files makes the file read-only on a colleague’s computer, who is told when it is unlocked', async () => {
    await openFolder('Campaigns', 'Spring');
    await page.getByRole('button', { name: 'Lock brief.md' }).click();
    await page.getByText('Locked brief.md: it is read-only for everyone else until you unlock it.').waitFor(PATIENCE);
    await page.getByRole('button', { name: 'Unlock brief.md (you hold the lock)' }).waitFor(PATIENCE);
    await shots('files-locked');
    expect((await assetAt(BRIEF)).locked_by_user_id).toBe(service.user.userId);

    const home = mkdtempSync(join(tmpdir(), 'asset-sync-ui-desk-'));
    try {
      const { demo } = service;
      const deskSync = () =>
        runCli(['sync', '--once', '--base-url', service.service.url, '--account', demo.accountId, '--workspace', demo.workspaceId, '--root', join(home, 'root')], {
          env: { ASSET_SYNC_HOME: join(home, 'state'), ASSET_SYNC_API_KEY: demo.colleague.apiKey, ASSET_SYNC_API_SECRET: demo.colleague.apiSecret },
        });
      const onDesk = (path: string): string => join(home, 'root', 'Spring Campaign', path);
      const first = await deskSync();
      expect(first.code, first.stdout + first.stderr).toBe(0);
      expect(first.stdout).toContain(`${BRIEF} is locked by Dana Designer: it is read-only here until they unlock it`);
      expect(lstatSync(onDesk(BRIEF)).mode & 0o222).toBe(0);
      expect(writable(onDesk('README.txt'))).toBe(true);

      await page.getByRole('button', { name: 'Unlock brief.md (you hold the lock)' }).click();
      await page.getByText('Unlocked brief.md.').waitFor(PATIENCE);
      expect((await assetAt(BRIEF)).locked_by_user_id ?? null).toBeNull();
      const second = await deskSync();
      expect(second.code, second.stdout + second.stderr).toBe(0);
      expect(second.stdout).toContain(`${BRIEF} is unlocked: you can edit it now`);
      expect(writable(onDesk(BRIEF))).toBe(true);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 180_000);

  it('a file a colleague locks is read-only here and names them; its release is told by a notification that opens its folder', async () => {
    const hero = await assetAt(HERO);
    expect((await service.colleague.api('PUT', `/workspaces/assets/${hero.id}`, { body: { locked: true } })).status).toBe(200);
    await openFolder('Campaigns', 'Spring', 'Social');
    const row = page.getByRole('row', { name: /hero\.psd/ });
    await row.getByText('Locked by Rafael Reviewer').waitFor(PATIENCE);
    await expect.poll(() => writable(join(workspaceDir(), HERO)), PATIENCE).toBe(false);
    expect(await row.getByRole('button', { name: /^(Lock|Unlock) hero\.psd/ }).count()).toBe(0);
    await shots('files-locked-by-colleague');

    expect((await service.colleague.api('PUT', `/workspaces/assets/${hero.id}`, { body: { locked: false } })).status).toBe(200);
    const title = 'hero.psd is unlocked';
    await expect.poll(notices, PATIENCE).toContainEqual({ title, body: `${HERO} is unlocked: you can edit it now` });
    expect(writable(join(workspaceDir(), HERO))).toBe(true);
    await nav('Status').click();
    await clickNotice(title);
    await page.getByRole('row', { name: /hero\.psd/ }).getByRole('button', { name: 'Lock hero.psd' }).waitFor(PATIENCE);
  }, 180_000);
});
