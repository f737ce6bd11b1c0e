/**
 * The Electron main process as `main/app/main.ts` wires it, against the fake `electron` module:
 * every web contents the app makes gets the navigation and window-open rules, not only the main
 * window's (a popup, a webview or any later window would otherwise go anywhere).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('../fakes/electron.js'));

import * as electron from '../fakes/electron.js';

let home: string;
const previousHome = process.env.ASSET_SYNC_HOME;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'electron-main-'));
  process.env.ASSET_SYNC_HOME = home;
  electron.resetElectron();
  await import('../../main/app/main.js');
  await vi.waitFor(() => expect(electron.BrowserWindow.instances).toHaveLength(1));
});

afterAll(async () => {
  // The app quits once its engine and its log file are closed: nothing writes in `home` after.
  const quit = new Promise((resolve) => electron.app.once('quit', resolve));
  electron.app.quit();
  await quit;
  if (previousHome === undefined) delete process.env.ASSET_SYNC_HOME;
  else process.env.ASSET_SYNC_HOME = previousHome;
  await rm(home, { recursive: true, force: true });
});

describe('the Electron main process', () => {
  it('keeps the main window on our origin', () => {
    const contents = electron.BrowserWindow.instances[0]?.webContents;
    expect(contents?.navigate('https://evil.example/phish')).toBe(false);
    expect(contents?.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
  });

  it('applies the same rules to every other web contents it makes', () => {
    const other = new electron.FakeWebContents();
    expect(other.navigate('https://evil.example/phish')).toBe(false);
    expect(other.navigate('file:///etc/passwd')).toBe(false);
    expect(other.windowOpenHandler?.({ url: 'https://docs.example.com/help' })).toEqual({ action: 'deny' });
    expect(electron.shell.external).toContain('https://docs.example.com/help');
    expect(other.attachWebview()).toBe(false);
  });
});
