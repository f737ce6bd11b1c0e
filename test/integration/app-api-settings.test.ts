/**
 * Settings saved in the desktop app apply to the running sync (the AppApi with its own session
 * opener, the real engine, against the local service): after each change an edited file reaches
 * the service, the status never turns to "attention", and only another sync folder opens a new
 * session. The rest apply to the engine as it runs, without cutting its transfers short.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EngineStatus } from '../../shared/engine.js';
import { AppApi } from '../../main/app-api/index.js';
import { sessionOpener } from '../../main/app-api/open-session.js';
import type { AppSession } from '../../main/app-api/session.js';
import { Config } from '../../main/config.js';
import { accountRef } from '../../main/secrets/secret-store.js';
import { headlessHooks } from '../../main/ui-server/headless-hooks.js';
import { removeTreeSync } from '../helpers/disk.js';
import { MemorySecrets } from '../helpers/memory-secrets.js';
import { signIn, startTestService, type Session, type TestService } from '../helpers/service.js';

const sha256 = (bytes: string | Buffer): string => createHash('sha256').update(bytes).digest('hex');
const PATIENCE = { timeout: 30_000, interval: 100 };

let svc: TestService;
let dir: string;
let api: AppApi;
let moodboards: Session;
const sessions: AppSession[] = [];
const states: EngineStatus['state'][] = [];
const previousHome = process.env.ASSET_SYNC_HOME;

interface Listed {
  assets: Array<{ file_name: string; folder_id: string | null; checksum: string }>;
}

async function checksumOnService(who: Session, name: string): Promise<string | null> {
  const listed = await who.api<Listed>('GET', '/workspaces/folders/hierarchy');
  return listed.json.assets.find((a) => a.file_name === name && a.folder_id === null)?.checksum ?? null;
}

let edits = 0;
/** Edits `<root>/<folder>/<name>` once it is synced there, and waits until the service has the edit. */
async function editReachesService(who: Session, root: string, folder: string, name: string, content = `edit ${++edits}\n`): Promise<void> {
  const file = join(root, folder, name);
  const current = await checksumOnService(who, name);
  await vi.waitFor(() => {
    if (current === null) expect(existsSync(join(root, folder))).toBe(true);
    else expect(existsSync(file) && sha256(readFileSync(file))).toBe(current);
  }, PATIENCE);
  await writeFile(file, content);
  await vi.waitFor(async () => expect(await checksumOnService(who, name)).toBe(sha256(content)), PATIENCE);
}

const current = (): AppSession => sessions.at(-1) as AppSession;

beforeAll(async () => {
  svc = await startTestService();
  dir = await mkdtemp(join(tmpdir(), 'app-api-settings-'));
  process.env.ASSET_SYNC_HOME = join(dir, 'home');
  const created = await svc.user.api<{ id: string }>('POST', '/workspaces', { body: { name: 'Moodboards' } });
  moodboards = await signIn(svc.service.url, { ...svc.demo.user, accountId: svc.demo.accountId, workspaceId: created.json.id });
  const secrets = new MemorySecrets();
  await secrets.set(accountRef(svc.service.url, svc.demo.accountId), { key: svc.demo.user.apiKey, secret: svc.demo.user.apiSecret });
  const open = sessionOpener({ secretStores: [secrets] });
  api = new AppApi({
    configFile: join(dir, 'config.json'),
    config: Config.parse({ baseUrl: svc.service.url, accountId: svc.demo.accountId, root: join(dir, 'Asset Sync'), workspaces: [{ id: svc.demo.workspaceId }], pollIntervalSeconds: 5 }),
    secrets,
    hooks: headlessHooks({ downloadsDir: join(dir, 'Downloads') }),
    openSession: async (config) => {
      const session = await open(config);
      sessions.push(session);
      return session;
    },
    tempRoot: join(dir, 'tmp'),
  });
  api.on('status', (status) => void states.push(status.state));
  await api.start();
  await vi.waitFor(() => expect(api.status().state).toBe('up-to-date'), { timeout: 60_000, interval: 100 });
}, 90_000);

afterAll(async () => {
  await api?.close();
  await svc?.stop();
  if (previousHome === undefined) delete process.env.ASSET_SYNC_HOME;
  else process.env.ASSET_SYNC_HOME = previousHome;
  removeTreeSync(dir);
});

describe('settings saved in the desktop app', () => {
  const root = () => join(dir, 'Asset Sync');
  const campaign = 'Spring Campaign';

  it('change how often the service is checked on the running engine', async () => {
    await api.handle('updateSettings', { pollIntervalSeconds: 6 });
    await editReachesService(svc.user, root(), campaign, 'README.txt');
    expect(sessions).toHaveLength(1);
  });

  it('limit the bandwidth of the running engine, then lift the limit', async () => {
    await api.handle('updateSettings', { bandwidthLimit: 64 * 1024 });
    const before = current().engine.queue.throttleWaits;
    // Four times what the limit lets through in a second: the upload has to wait for it.
    await editReachesService(svc.user, root(), campaign, 'README.txt', 'x'.repeat(256 * 1024));
    expect(current().engine.queue.throttleWaits).toBeGreaterThan(before);

    await api.handle('updateSettings', { bandwidthLimit: null });
    const lifted = current().engine.queue.throttleWaits;
    await editReachesService(svc.user, root(), campaign, 'README.txt', 'y'.repeat(256 * 1024));
    expect(current().engine.queue.throttleWaits).toBe(lifted);
    expect(sessions).toHaveLength(1);
  });

  it('leave a folder out, add a workspace and drop it, on the running engine', async () => {
    await api.handle('updateSettings', { workspaces: [{ id: svc.demo.workspaceId, excluded: ['Photography'] }] });
    await editReachesService(svc.user, root(), campaign, 'README.txt');
    expect(api.status().workspaces.map((w) => w.name)).toEqual([campaign]);

    await api.handle('updateSettings', { workspaces: [{ id: svc.demo.workspaceId, excluded: ['Photography'] }, { id: moodboards.workspaceId, excluded: [] }] });
    await editReachesService(moodboards, root(), 'Moodboards', 'ideas.txt');
    await editReachesService(svc.user, root(), campaign, 'README.txt');
    expect(api.status().workspaces.map((w) => w.name)).toEqual([campaign, 'Moodboards']);

    await api.handle('updateSettings', { workspaces: [{ id: svc.demo.workspaceId, excluded: [] }] });
    await editReachesService(svc.user, root(), campaign, 'README.txt');
    expect(api.status().workspaces.map((w) => w.name)).toEqual([campaign]);
    // Photography is synced again.
    await vi.waitFor(() => expect(existsSync(join(root(), campaign, 'Photography'))).toBe(true), PATIENCE);
    expect(sessions).toHaveLength(1);
  });

  it('move to another sync folder: a new session there, the old one closed', async () => {
    const moved = join(dir, 'Moved');
    await mkdir(moved);
    await api.handle('updateSettings', { root: moved });
    await editReachesService(svc.user, moved, campaign, 'README.txt');
    expect(sessions).toHaveLength(2);
    expect(sessions[0]?.index.isOpen).toBe(false);
  });

  it('never reported "attention" on the way', () => {
    expect(states).toContain('up-to-date');
    expect(states).not.toContain('attention');
  });
});
