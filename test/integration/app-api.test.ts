/**
 * The app API as the desktop UI uses it, against the local service over HTTP, with the real
 * engine, index and files: sign in, pick a workspace, browse files with their sync state, work
 * with versions (save, open, restore as a new version), decide a review, sign out.
 */
import { createHash } from 'node:crypto';
import { chmod, lstat, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AssetReview } from '../helpers/served.js';
import type { FileEntry, ReviewItem, VersionInfo } from '../../shared/ipc.js';
import { AppApi } from '../../main/app-api/index.js';
import type { AppHooks } from '../../main/app-api/hooks.js';
import { sessionOpener } from '../../main/app-api/open-session.js';
import { Config } from '../../main/config.js';
import { removeTreeSync } from '../helpers/disk.js';
import { statusWhen } from '../helpers/app-status.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { MemorySecrets } from '../helpers/memory-secrets.js';

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

let svc: TestService;
let dir: string;
let api: AppApi;
let secrets: MemorySecrets;
const opened: string[] = [];
const previousHome = process.env.ASSET_SYNC_HOME;
const previousTmp = process.env.TMPDIR;
/** The system's temp folder as another user of the machine left it (see the versions test). */
let sharedTmp: string;
let planted: string[];
const HERO = 'Campaigns/Spring/Social/hero.psd';

beforeAll(async () => {
  svc = await startTestService();
  dir = await mkdtemp(join(tmpdir(), 'app-api-'));
  // Logs and the index go under the test's folder, not the user's.
  process.env.ASSET_SYNC_HOME = join(dir, 'home');
  // Another user made the folders a temp copy might go to, open to everyone.
  sharedTmp = join(dir, 'shared-tmp');
  planted = [join(sharedTmp, 'asset-sync'), join(sharedTmp, `asset-sync-${process.getuid?.() ?? 0}`)];
  for (const folder of planted) {
    await mkdir(folder, { recursive: true });
    await chmod(folder, 0o777);
  }
  process.env.TMPDIR = sharedTmp;
  secrets = new MemorySecrets();
  const hooks: AppHooks = {
    openPath: async (path) => void opened.push(path),
    showItemInFolder: async (path) => void opened.push(path),
    chooseSavePath: async (name) => {
      await mkdir(join(dir, 'saved'), { recursive: true });
      return join(dir, 'saved', name);
    },
    setLoginItem: async () => undefined,
  };
  api = new AppApi({
    configFile: join(dir, 'config.json'),
    config: Config.parse({}),
    secrets,
    hooks,
    openSession: sessionOpener({ secretStores: [secrets] }),
    defaultRoot: join(dir, 'Asset Sync'),
  });
  await api.start();
});

afterAll(async () => {
  await api?.close();
  await svc?.stop();
  if (previousHome === undefined) delete process.env.ASSET_SYNC_HOME;
  else process.env.ASSET_SYNC_HOME = previousHome;
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
  removeTreeSync(dir);
});

describe('AppApi over a real session', () => {
  it('starts signed out, and refuses a wrong key without storing it', async () => {
    expect(await api.handle('getStatus', {})).toMatchObject({ state: 'stopped' });
    const wrong = api.handle('signIn', { baseUrl: svc.service.url, accountId: svc.demo.accountId, key: svc.demo.user.apiKey, secret: 'not-the-secret' });
    await expect(wrong).rejects.toMatchObject({ code: 'auth', message: expect.stringMatching(/not accepted/) });
    expect(secrets.items.size).toBe(0);
  });

  it('signs in: the secret goes to the secret store, never to the config file', async () => {
    const settings = await api.handle('signIn', { baseUrl: svc.service.url, accountId: svc.demo.accountId, key: svc.demo.user.apiKey, secret: svc.demo.user.apiSecret });
    expect(settings).toMatchObject({ signedIn: true, baseUrl: svc.service.url, accountId: svc.demo.accountId, root: join(dir, 'Asset Sync'), workspaces: [] });
    expect([...secrets.items.values()]).toEqual([{ key: svc.demo.user.apiKey, secret: svc.demo.user.apiSecret }]);
    const configText = await readFile(join(dir, 'config.json'), 'utf8');
    expect(configText).not.toContain(svc.demo.user.apiSecret);
    expect(configText).not.toContain(svc.demo.user.apiKey);
  });

  it('lists the account’s workspaces and a workspace’s folders for selective sync', async () => {
    expect(await api.handle('listRemoteWorkspaces', {})).toContainEqual({ id: svc.demo.workspaceId, name: 'Spring Campaign', synced: false });
    const folders = await api.handle('listRemoteFolders', { workspaceId: svc.demo.workspaceId });
    expect(folders.map((f) => f.path)).toEqual(expect.arrayContaining(['Brand', 'Brand/Logos', 'Campaigns/Spring/Social', 'Photography']));
  });

  it('syncs a chosen workspace, leaving out an excluded folder', async () => {
    const settings = await api.handle('updateSettings', { workspaces: [{ id: svc.demo.workspaceId, excluded: ['Photography'] }] });
    expect(settings.workspaces).toEqual([{ id: svc.demo.workspaceId, name: 'Spring Campaign', excluded: ['Photography'] }]);
    const status = await statusWhen(api, (s) => s.state === 'up-to-date' && (s.workspaces[0]?.files ?? 0) > 0);
    expect(status.workspaces[0]?.name).toBe('Spring Campaign');
  });

  it('lists one folder level with each entry’s sync state', async () => {
    await api.handle('pause', {});
    const folder = join(dir, 'Asset Sync', 'Spring Campaign');
    await writeFile(join(folder, 'notes.txt'), 'new here');
    await writeFile(join(folder, 'Thumbs.db'), 'litter');
    const top = await api.handle('listFiles', { workspaceId: svc.demo.workspaceId, folder: '' });
    const byName = new Map(top.map((e): [string, FileEntry] => [e.name, e]));
    expect(top.slice(0, 4).map((e) => e.name)).toEqual(['Brand', 'Campaigns', 'Docs', 'Photography']);
    expect(byName.get('Brand')).toMatchObject({ isFolder: true, state: 'synced' });
    expect(byName.get('Photography')).toMatchObject({ isFolder: true, state: 'remote-only' });
    expect(byName.get('README.txt')).toMatchObject({ isFolder: false, state: 'synced', versionNumber: expect.any(Number), assetId: expect.any(String) });
    expect(byName.get('notes.txt')).toMatchObject({ state: 'pending-upload', assetId: null, size: 8 });
    expect(byName.get('Thumbs.db')).toMatchObject({ state: 'local-only' });
    expect(byName.has('.assetsync')).toBe(false);

    const social = await api.handle('listFiles', { workspaceId: svc.demo.workspaceId, folder: 'Campaigns/Spring/Social' });
    expect(social.find((e) => e.name === 'hero.psd')).toMatchObject({ path: HERO, state: 'synced', versionNumber: 3 });
    await expect(api.handle('listFiles', { workspaceId: svc.demo.workspaceId, folder: '../..' })).rejects.toMatchObject({ code: 'invalid_path' });
  });

  it('names who holds a lock in the Files view', async () => {
    const top = await api.handle('listFiles', { workspaceId: svc.demo.workspaceId, folder: '' });
    const readme = top.find((e) => e.name === 'README.txt');
    expect(readme?.lockedBy).toBeNull();
    const lock = await svc.colleague.api('PUT', `/workspaces/assets/${readme?.assetId ?? ''}`, { body: { locked: true } });
    expect(lock.status).toBe(200);
    // Resuming syncs at once: the lock comes with the service's changes.
    await api.handle('resume', {});
    await vi.waitFor(
      async () => {
        const entry = (await api.handle('listFiles', { workspaceId: svc.demo.workspaceId, folder: '' })).find((e) => e.name === 'README.txt');
        expect(entry).toMatchObject({ state: 'locked', lockedBy: 'Rafael Reviewer' });
      },
      { timeout: 15_000, interval: 200 },
    );
    await svc.colleague.api('PUT', `/workspaces/assets/${readme?.assetId ?? ''}`, { body: { locked: false } });
  });

  it('lists versions with their authors and the current one', async () => {
    const versions = await api.handle('listVersions', { workspaceId: svc.demo.workspaceId, path: HERO });
    expect(versions.map((v) => [v.number, v.author, v.current])).toEqual([
      [3, 'Dana Designer', true],
      [2, 'Rafael Reviewer', false],
      [1, 'Dana Designer', false],
    ]);
  });

  it('saves and opens copies of old versions, verified by checksum', async () => {
    const versions = await api.handle('listVersions', { workspaceId: svc.demo.workspaceId, path: HERO });
    const [v3, v2, v1] = versions as [VersionInfo, VersionInfo, VersionInfo];
    const saved = await api.handle('saveVersionCopy', { workspaceId: svc.demo.workspaceId, path: HERO, versionId: v1.id });
    expect(saved.savedTo).toBe(join(dir, 'saved', 'hero (v1).psd'));
    expect(sha256(await readFile(saved.savedTo ?? ''))).toBe(v1.checksum);

    await api.handle('openVersion', { workspaceId: svc.demo.workspaceId, path: HERO, versionId: v2.id });
    const openedFile = opened.at(-1) ?? '';
    expect(openedFile).toMatch(/hero \(v2\)\.psd$/);
    expect(sha256(await readFile(openedFile))).toBe(v2.checksum);
    // Not in a folder someone else made or can write to: one of this user's own, closed to others.
    for (const folder of planted) expect(openedFile.startsWith(`${folder}/`)).toBe(false);
    const privateRoot = dirname(dirname(openedFile));
    const info = await lstat(privateRoot);
    expect(info.isDirectory()).toBe(true);
    expect(info.uid).toBe(process.getuid?.());
    expect(info.mode & 0o077).toBe(0);
    expect(v3.checksum).not.toBe(v2.checksum);
  });

  it('restores an old version as a new one on top of the current: history is kept', async () => {
    const before = await api.handle('listVersions', { workspaceId: svc.demo.workspaceId, path: HERO });
    const v1 = before.find((v) => v.number === 1) as VersionInfo;
    const v3 = before.find((v) => v.current) as VersionInfo;
    const restored = await api.handle('restoreVersion', { workspaceId: svc.demo.workspaceId, path: HERO, versionId: v1.id });
    const after = await api.handle('listVersions', { workspaceId: svc.demo.workspaceId, path: HERO });
    expect(after).toHaveLength(4);
    expect(after[0]).toMatchObject({ id: restored.versionId, number: 4, current: true, checksum: v1.checksum, parentId: v3.id, description: 'Restored from version 1' });
    expect(after.slice(1).map((v) => v.id)).toEqual(before.map((v) => v.id));
    await expect(api.handle('restoreVersion', { workspaceId: svc.demo.workspaceId, path: HERO, versionId: restored.versionId })).rejects.toMatchObject({
      code: 'already_current',
    });
    const activity = await api.handle('getActivity', { workspaceId: svc.demo.workspaceId });
    // The unlock of a file an earlier test locked may be told meanwhile: it is no answer to the restore.
    expect(activity.find((a) => a.kind !== 'waiting' && a.kind !== 'unlocked')).toMatchObject({ kind: 'restored', path: HERO, message: `Restored version 1 of ${HERO} as version 4` });
  });

  it('lists review and change requests, and records a decision', async () => {
    const reviews = await api.handle('listReviews', {});
    expect(reviews.reviewRequests).toHaveLength(3);
    expect(reviews.changeRequests).toHaveLength(2);
    const request = reviews.reviewRequests.find((r) => r.assetName === 'hero.psd');
    expect(request).toMatchObject({ from: 'Rafael Reviewer', message: 'Could you review this before Friday?', read: false });
    const decided = await api.handle('decideReview', {
      workspaceId: svc.demo.workspaceId,
      assetId: request?.assetId ?? '',
      versionId: null,
      status: 'approved',
      content: 'Good to go.',
    });
    const seen = await svc.colleague.api<AssetReview[]>('GET', `/workspaces/assets/${request?.assetId}/reviews`);
    expect(seen.json).toContainEqual(expect.objectContaining({ id: decided.reviewId, status: 'approved', content: 'Good to go.' }));
    expect((await api.handle('listReviews', {})).reviewRequests.map((r) => r.assetName)).not.toContain('hero.psd');
  });

  it('marks review and change requests read, one and then all; a request made afterwards is new', async () => {
    const keyOf = (r: ReviewItem) => ({ kind: r.kind, remoteKey: r.remoteKey });
    const unreadKeys = (lists: { reviewRequests: ReviewItem[]; changeRequests: ReviewItem[] }) =>
      [...lists.reviewRequests, ...lists.changeRequests].filter((r) => !r.read).map((r) => r.remoteKey).sort();
    const before = await api.handle('listReviews', {});
    const all = [...before.reviewRequests, ...before.changeRequests];
    expect(all.filter((r) => r.read)).toEqual([]);
    const one = before.changeRequests[0] as ReviewItem;

    await api.handle('markReviewsRead', { items: [keyOf(one)] });
    const afterOne = await api.handle('listReviews', {});
    expect(afterOne.changeRequests.find((r) => r.remoteKey === one.remoteKey)?.read).toBe(true);
    expect(unreadKeys(afterOne)).toEqual(all.filter((r) => r !== one).map((r) => r.remoteKey).sort());

    await api.handle('markReviewsRead', { items: all.map(keyOf) });
    expect(unreadKeys(await api.handle('listReviews', {}))).toEqual([]);
    await expect(api.handle('markReviewsRead', { items: [] })).rejects.toMatchObject({ code: 'invalid_request' });

    const social = await api.handle('listFiles', { workspaceId: svc.demo.workspaceId, folder: 'Campaigns/Spring/Social' });
    const logo = social.find((e) => !e.isFolder && e.name !== 'hero.psd' && !all.some((r) => r.assetId === e.assetId));
    expect(logo?.assetId).toBeTruthy();
    const asked = await svc.colleague.api('POST', `/workspaces/assets/${logo?.assetId}/reviewRequests/${svc.user.userId}`, { body: { message: 'One more, please.' } });
    expect(asked.status).toBe(201);
    const after = await api.handle('listReviews', {});
    expect(after.reviewRequests.filter((r) => !r.read).map((r) => r.message)).toEqual(['One more, please.']);
  });

  it('opens a file and refuses a path outside the sync folder', async () => {
    await api.handle('openFile', { workspaceId: svc.demo.workspaceId, path: 'README.txt' });
    expect(opened.at(-1)).toBe(join(dir, 'Asset Sync', 'Spring Campaign', 'README.txt'));
    await expect(api.handle('openFile', { workspaceId: svc.demo.workspaceId, path: '../../config.json' })).rejects.toMatchObject({ code: 'invalid_path' });
    await expect(api.handle('openFile', { workspaceId: svc.demo.workspaceId, path: 'nothing.txt' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('asks before opening a program or script, naming who made its version, and opens it on a yes', async () => {
    const folder = join(dir, 'Asset Sync', 'Spring Campaign');
    await writeFile(join(folder, 'deploy.sh'), '#!/bin/sh\necho deployed\n');
    await vi.waitFor(
      async () => {
        const entry = (await api.handle('listFiles', { workspaceId: svc.demo.workspaceId, folder: '' })).find((e) => e.name === 'deploy.sh');
        expect(entry?.state).toBe('synced');
      },
      { timeout: 15_000, interval: 200 },
    );
    const before = opened.length;
    const asked = await api.handle('openFile', { workspaceId: svc.demo.workspaceId, path: 'deploy.sh' });
    expect(asked).toEqual({ opened: false, confirm: { name: 'deploy.sh', uploadedBy: 'Dana Designer', question: expect.stringContaining('Dana Designer') } });
    const [version] = await api.handle('listVersions', { workspaceId: svc.demo.workspaceId, path: 'deploy.sh' });
    const copy = await api.handle('openVersion', { workspaceId: svc.demo.workspaceId, path: 'deploy.sh', versionId: version?.id ?? '' });
    expect(copy).toMatchObject({ opened: false, confirm: { name: 'deploy (v1).sh', uploadedBy: 'Dana Designer' } });
    expect(opened.length).toBe(before);

    expect(await api.handle('openFile', { workspaceId: svc.demo.workspaceId, path: 'deploy.sh', runConfirmed: true })).toEqual({ opened: true });
    expect(opened.at(-1)).toBe(join(folder, 'deploy.sh'));
  });

  it('signs out: the engine stops and the stored key is gone', async () => {
    const settings = await api.handle('signOut', {});
    expect(settings.signedIn).toBe(false);
    expect(secrets.items.size).toBe(0);
    expect(api.status().state).toBe('stopped');
    await expect(api.handle('listFiles', { workspaceId: svc.demo.workspaceId })).rejects.toMatchObject({ code: 'signed_out' });
  });
});
