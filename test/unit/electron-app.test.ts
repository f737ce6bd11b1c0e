/**
 * The Electron glue (main/app/, preload/) against a fake `electron` module: the window is locked
 * down, IPC serves only our own page and validates every call, notifications lead to the right
 * view, the tray shows the engine's state. The AppApi behind them is the real one, over a real
 * engine and index (the engine never reaches a service here: nothing in these tests needs one).
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineStatus, Problem, ReviewNotification } from '../../shared/engine.js';

vi.mock('electron', () => import('../fakes/electron.js'));

import * as electron from '../fakes/electron.js';
import { AppApi } from '../../main/app-api/index.js';
import type { AppSession } from '../../main/app-api/session.js';
import { Config } from '../../main/config.js';
import type { SecretStore } from '../../main/secrets/secret-store.js';
import { headlessHooks } from '../../main/ui-server/headless-hooks.js';
import { electronHooks } from '../../main/app/hooks.js';
import { forwardEvents, registerIpc } from '../../main/app/ipc.js';
import { setLaunchAtLogin } from '../../main/app/login-item.js';
import { startNotifications } from '../../main/app/notifications.js';
import { APP_ORIGIN, APP_URL } from '../../main/app/origin.js';
import { rendererResponse } from '../../main/app/protocol.js';
import { denyAllPermissions, lockEveryWebContents } from '../../main/app/security.js';
import { AppTray } from '../../main/app/tray.js';
import { MainWindow } from '../../main/app/window.js';
import { createIpcBridge } from '../../preload/bridge.js';
import { offlineSession } from '../helpers/offline-session.js';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../preload/channels.js';

const noSecrets: SecretStore = { name: 'none', get: async () => undefined, set: async () => undefined, delete: async () => undefined };

let dir: string;
let api: AppApi;
let session: AppSession;

beforeEach(async () => {
  electron.resetElectron();
  // As main.ts does before making any window.
  lockEveryWebContents(electron.app as never, APP_ORIGIN, (url) => electron.shell.openExternal(url));
  dir = await mkdtemp(join(tmpdir(), 'electron-app-'));
  session = offlineSession(join(dir, 'root'));
  api = new AppApi({
    configFile: join(dir, 'config.json'),
    config: Config.parse({ root: join(dir, 'root') }),
    secrets: noSecrets,
    hooks: headlessHooks({ downloadsDir: join(dir, 'downloads') }),
    openSession: () => Promise.reject(new Error('not in this test')),
    session,
  });
});

afterEach(async () => {
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

function openWindow(): { window: MainWindow; browser: electron.BrowserWindow } {
  const window = new MainWindow({ preload: '/app/dist/app/preload/index.cjs', url: APP_URL, startHidden: false });
  window.open();
  const browser = electron.BrowserWindow.instances[0];
  if (!browser) throw new Error('no window was created');
  return { window, browser };
}

describe('the window', () => {
  it('is created sandboxed and isolated, without Node, loading app://', () => {
    const { browser } = openWindow();
    expect(browser.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      preload: '/app/dist/app/preload/index.cjs',
    });
    expect(browser.loadedUrl).toBe('app://asset-sync/index.html');
  });

  it('never navigates to another origin', () => {
    const { browser } = openWindow();
    expect(browser.webContents.navigate('https://evil.example/phish')).toBe(false);
    expect(browser.webContents.navigate('file:///etc/passwd')).toBe(false);
    expect(browser.webContents.mainFrame.url).toBe(APP_URL);
    expect(browser.webContents.navigate('app://asset-sync/index.html#/files')).toBe(true);
  });

  it('denies window.open; web links open in the browser instead', () => {
    const { browser } = openWindow();
    const open = browser.webContents.windowOpenHandler;
    expect(open?.({ url: 'https://docs.example.com/help' })).toEqual({ action: 'deny' });
    expect(open?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(open?.({ url: 'app://asset-sync/index.html' })).toEqual({ action: 'deny' });
    expect(electron.shell.external).toEqual(['https://docs.example.com/help']);
  });

  it('hides on close (syncing goes on in the tray) until the app quits', () => {
    const { window, browser } = openWindow();
    browser.show();
    const close = electron.fakeEvent({});
    browser.emit('close', close);
    expect(close.defaultPrevented).toBe(true);
    expect(browser.isVisible()).toBe(false);
    window.quitting = true;
    const quit = electron.fakeEvent({});
    browser.emit('close', quit);
    expect(quit.defaultPrevented).toBe(false);
  });

  it('grants no permission request or check', () => {
    denyAllPermissions(electron.session.defaultSession as never);
    const answers: boolean[] = [];
    electron.session.defaultSession.permissionRequest?.({}, 'media', (granted) => answers.push(granted), {});
    expect(answers).toEqual([false]);
    expect(electron.session.defaultSession.permissionCheck?.({}, 'notifications', APP_ORIGIN, {})).toBe(false);
  });
});

describe('IPC', () => {
  const call = (from: { sender: electron.FakeWebContents; senderFrame: electron.FakeWebFrame | null }, channel: unknown, request: unknown) =>
    electron.ipcMain.invoke(INVOKE_CHANNEL, from, channel, request);

  it('serves our own page, validating each request', async () => {
    const { window, browser } = openWindow();
    registerIpc(electron.ipcMain as never, api, () => window.current, APP_ORIGIN);
    const page = { sender: browser.webContents, senderFrame: browser.webContents.mainFrame };
    expect(await call(page, 'getStatus', {})).toEqual({ ok: true, value: expect.objectContaining({ paused: false, workspaces: [] }) });
    const bad = (await call(page, 'listFiles', { workspaceId: 5 })) as { ok: false; error: { code: string; message: string } };
    expect(bad.ok).toBe(false);
    expect(bad.error.code).toBe('invalid_request');
    expect(bad.error.message).toMatch(/workspaceId/);
    expect(await call(page, 'constructor', {})).toEqual({ ok: false, error: expect.objectContaining({ code: 'unknown_channel' }) });
  });

  it('refuses calls from a subframe, another origin or another web contents', async () => {
    const { window, browser } = openWindow();
    registerIpc(electron.ipcMain as never, api, () => window.current, APP_ORIGIN);
    const forbidden = { ok: false, error: expect.objectContaining({ code: 'forbidden' }) };

    const iframe = new electron.FakeWebFrame('app://asset-sync/index.html');
    iframe.parent = browser.webContents.mainFrame;
    expect(await call({ sender: browser.webContents, senderFrame: iframe }, 'getStatus', {})).toEqual(forbidden);

    const stranger = new electron.FakeWebContents();
    stranger.mainFrame.url = APP_URL;
    expect(await call({ sender: stranger, senderFrame: stranger.mainFrame }, 'getStatus', {})).toEqual(forbidden);

    browser.webContents.mainFrame.url = 'https://evil.example/';
    expect(await call({ sender: browser.webContents, senderFrame: browser.webContents.mainFrame }, 'getStatus', {})).toEqual(forbidden);
    expect(await call({ sender: browser.webContents, senderFrame: null }, 'getStatus', {})).toEqual(forbidden);
  });
});

describe('opening a file a collaborator synced', () => {
  /** An AppApi over the Electron hooks, with one workspace holding a script and a drawing. */
  async function desktopApi(): Promise<{ desktop: AppApi; folder: string }> {
    const { window } = openWindow();
    const folder = join(dir, 'root', 'W');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'install.sh'), '#!/bin/sh\nrm -rf ~\n');
    await writeFile(join(folder, 'Setup.EXE.'), 'MZ');
    await writeFile(join(folder, 'drawing.svg'), '<svg/>');
    const own = offlineSession(join(dir, 'root'));
    own.index.workspaces.add({ id: 'w1', accountId: 'acct', name: 'W', localPath: folder });
    const desktop = new AppApi({
      configFile: join(dir, 'config.json'),
      config: Config.parse({ root: join(dir, 'root') }),
      secrets: noSecrets,
      hooks: electronHooks(window),
      openSession: () => Promise.reject(new Error('not in this test')),
      session: own,
    });
    return { desktop, folder };
  }

  it('asks with a native dialog naming a program or script before opening it, whatever the page says', async () => {
    const { desktop, folder } = await desktopApi();
    try {
      electron.dialog.messageAnswer = 0;
      expect(await desktop.handle('openFile', { workspaceId: 'w1', path: 'install.sh' })).toEqual({ opened: false });
      // A page claiming the user agreed does not replace the dialog.
      expect(await desktop.handle('openFile', { workspaceId: 'w1', path: 'install.sh', runConfirmed: true })).toEqual({ opened: false });
      expect(electron.shell.opened).toEqual([]);
      expect(electron.dialog.messages).toHaveLength(2);
      expect(electron.dialog.messages[0]).toMatchObject({ type: 'warning', message: expect.stringContaining('install.sh'), cancelId: 0, defaultId: 0 });
      expect(electron.dialog.messages[0]?.detail).toMatch(/runs? .*on this computer/i);

      electron.dialog.messageAnswer = 1;
      expect(await desktop.handle('openFile', { workspaceId: 'w1', path: 'Setup.EXE.' })).toEqual({ opened: true });
      expect(electron.shell.opened).toEqual([join(folder, 'Setup.EXE.')]);
      expect(electron.dialog.messages[2]?.message).toContain('Setup.EXE.');

      expect(await desktop.handle('openFile', { workspaceId: 'w1', path: 'drawing.svg' })).toEqual({ opened: true });
      expect(electron.dialog.messages).toHaveLength(3);
      expect(electron.shell.opened.at(-1)).toBe(join(folder, 'drawing.svg'));
    } finally {
      await desktop.close();
    }
  });
});

const review: ReviewNotification = {
  kind: 'review_request',
  remoteKey: 'rr1@v3',
  workspaceId: 'w1',
  assetId: 'a1',
  versionId: 'v3',
  assetName: 'hero.psd',
  from: 'Rafael Reviewer',
  message: 'Can you check the colours?',
  at: null,
};

describe('notifications', () => {
  it('shows a new review request; a click shows the window on that asset', () => {
    const { window, browser } = openWindow();
    forwardEvents(api, () => window.current);
    const stop = startNotifications({ api, showWindow: () => window.show() });
    try {
      session.engine.emit('review', review);
      const [shown] = electron.Notification.instances;
      expect(shown?.shown).toBe(true);
      expect(shown?.options.title).toBe('Rafael Reviewer asks you to review hero.psd');
      expect(shown?.options.body).toBe('Can you check the colours?');

      shown?.emit('click');
      expect(browser.isVisible()).toBe(true);
      expect(browser.webContents.sent).toContainEqual({ channel: EVENT_CHANNEL, args: ['navigate', { view: 'reviews', workspaceId: 'w1', assetId: 'a1' }] });
    } finally {
      stop();
    }
  });

  it('tells a problem that needs the user once, and leaves retried errors to the app', () => {
    const { window, browser } = openWindow();
    forwardEvents(api, () => window.current);
    const stop = startNotifications({ api, showWindow: () => window.show() });
    try {
      const conflict: Problem = { workspaceId: 'w1', path: 'Brand/logo.svg', kind: 'conflict', message: 'Edited here and on the service.' };
      session.engine.emit('problem', conflict);
      session.engine.emit('problem', { ...conflict });
      session.engine.emit('problem', { workspaceId: 'w1', path: 'a.txt', kind: 'error', message: 'timeout' });
      expect(electron.Notification.instances.map((n) => n.options.title)).toEqual(['Conflicting edits']);
      electron.Notification.instances[0]?.emit('click');
      expect(browser.webContents.sent).toContainEqual({
        channel: EVENT_CHANNEL,
        args: ['navigate', { view: 'files', workspaceId: 'w1', path: 'Brand/logo.svg' }],
      });
      session.engine.emit('problem', { workspaceId: 'w1', path: null, kind: 'auth', message: 'The key was revoked.' });
      expect(electron.Notification.instances.map((n) => n.options.title)).toEqual(['Conflicting edits', 'Sign in to Asset Sync again']);
    } finally {
      stop();
    }
  });
});

describe('the tray', () => {
  const status = (patch: Partial<EngineStatus>): EngineStatus => ({ state: 'up-to-date', workspaces: [], transfers: [], paused: false, ...patch });

  it('shows syncing progress, then paused after "Pause syncing", with its own badge', async () => {
    const tray = new AppTray(api, { openWindow: () => undefined, openSyncFolder: () => undefined, quit: () => undefined });
    const fake = electron.Tray.instances[0];
    try {
      session.engine.emit(
        'status',
        status({
          state: 'syncing',
          transfers: [{ id: 't1', workspaceId: 'w1', path: 'hero.psd', direction: 'download', bytesDone: 50, bytesTotal: 200, speed: 10, etaSeconds: 15, state: 'active' }],
        }),
      );
      expect(fake?.tooltip).toBe('Asset Sync: Syncing 25%');
      const syncingImage = fake?.image;

      const paused = new Promise<void>((resolve) => api.once('status', () => resolve()));
      fake?.menu?.items.find((item) => item.label === 'Pause syncing')?.click?.();
      await paused;
      expect(session.engine.paused).toBe(true);
      expect(fake?.tooltip).toBe('Asset Sync: Paused');
      expect(fake?.image).not.toBe(syncingImage);
      expect(fake?.menu?.items.map((i) => i.label)).toContain('Resume syncing');
    } finally {
      tray.destroy();
    }
  });

  it('says when the user is needed', () => {
    const tray = new AppTray(api, { openWindow: () => undefined, openSyncFolder: () => undefined, quit: () => undefined });
    try {
      const problem: Problem = { workspaceId: 'w1', path: null, kind: 'marker', message: 'The folder is gone.' };
      session.engine.emit('status', status({ state: 'attention', workspaces: [{ workspaceId: 'w1', name: 'W', folder: '/x', state: 'attention', pending: { downloads: 0, uploads: 0, deletes: 0, moves: 0, conflicts: 0 }, files: 0, lastSyncAt: null, problems: [problem] }] }));
      expect(electron.Tray.instances[0]?.tooltip).toBe('Asset Sync: Needs your attention (1 problem)');
    } finally {
      tray.destroy();
    }
  });
});

describe('launch at login', () => {
  it('uses the login item on macOS and Windows, started hidden', async () => {
    await setLaunchAtLogin(true, 'darwin');
    expect(electron.app.loginItem).toEqual({ openAtLogin: true, args: ['--hidden'] });
    await setLaunchAtLogin(false, 'win32');
    expect(electron.app.loginItem.openAtLogin).toBe(false);
  });

  it('writes and removes an XDG autostart entry on Linux', async () => {
    const env = { XDG_CONFIG_HOME: join(dir, 'xdg') };
    await setLaunchAtLogin(true, 'linux', env);
    const file = join(dir, 'xdg', 'autostart', 'asset-sync.desktop');
    expect(await readFile(file, 'utf8')).toMatch(/^Exec=".+" --hidden$/m);
    await setLaunchAtLogin(false, 'linux', env);
    await expect(readFile(file, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('the app:// protocol', () => {
  it('serves dist/renderer with the CSP, and nothing outside it', async () => {
    const renderer = join(dir, 'renderer');
    await mkdir(renderer, { recursive: true });
    await writeFile(join(renderer, 'index.html'), '<title>Asset Sync</title>');
    await writeFile(join(dir, 'secret.txt'), 'private');
    const page = await rendererResponse(renderer, 'app://asset-sync/index.html');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Asset Sync');
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect((await rendererResponse(renderer, 'app://asset-sync/%2e%2e/secret.txt')).status).toBe(404);
    expect((await rendererResponse(renderer, 'app://elsewhere/index.html')).status).toBe(404);
  });

  it('says how to build the renderer when it is missing', async () => {
    const page = await rendererResponse(join(dir, 'missing'), 'app://asset-sync/');
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('npm run build:renderer');
  });
});

describe('the preload bridge', () => {
  it('exposes only invoke and on, as window.assetSync', async () => {
    await import('../../preload/index.js');
    expect([...electron.contextBridge.exposed.keys()]).toEqual(['assetSync']);
    expect(Object.keys(electron.contextBridge.exposed.get('assetSync') as object).sort()).toEqual(['invoke', 'on']);
  });

  it('sends calls on the invoke channel and rejects with the BridgeError main chose', async () => {
    const bridge = createIpcBridge(electron.ipcRenderer as never);
    electron.ipcRenderer.answer = async () => ({ ok: true, value: { state: 'paused' } });
    await expect(bridge.invoke('pause', {})).resolves.toEqual({ state: 'paused' });
    expect(electron.ipcRenderer.invocations[0]).toEqual([INVOKE_CHANNEL, 'pause', {}]);
    electron.ipcRenderer.answer = async () => ({ ok: false, error: { code: 'signed_out', message: 'Sign in first, in Settings.' } });
    await expect(bridge.invoke('listReviews', {})).rejects.toEqual({ code: 'signed_out', message: 'Sign in first, in Settings.' });
  });

  it('delivers only the event asked for, until unsubscribed', () => {
    const bridge = createIpcBridge(electron.ipcRenderer as never);
    const seen: unknown[] = [];
    const off = bridge.on('navigate', (target) => seen.push(target));
    electron.ipcRenderer.emit(EVENT_CHANNEL, {}, 'status', { state: 'paused' });
    electron.ipcRenderer.emit(EVENT_CHANNEL, {}, 'navigate', { view: 'settings' });
    off();
    electron.ipcRenderer.emit(EVENT_CHANNEL, {}, 'navigate', { view: 'files' });
    expect(seen).toEqual([{ view: 'settings' }]);
    expect(() => bridge.on('secret' as never, () => undefined)).toThrow(/unknown event/);
  });
});
