// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RequestOf, SettingsView } from '../../shared/ipc.js';
import { never } from './memory-bridge.js';
import { renderApp } from './render-app.js';
import { settings, status, WS } from './fixtures.js';

const SETTINGS = { view: 'settings' } as const;
/** The transfer and picture settings of `settings()`, sent again as they were. */
const UNCHANGED = { maxDownloads: 4, maxUploads: 4, prefetchThumbnails: true, mediaCacheMiB: 256 };
const SIGNED_OUT = settings({ signedIn: false, baseUrl: null, accountId: null, root: null, workspaces: [] });
const REMOTE = [
  { id: WS, name: 'Spring Campaign', synced: true },
  { id: 'ws-archive', name: 'Archive', synced: false },
];
const FOLDERS = [
  { id: 'f1', path: 'Brand' },
  { id: 'f2', path: 'Brand/Logos' },
  { id: 'f3', path: 'Photography' },
];

/** Settings as main would store them: each update is applied to the last answer. */
function settingsMain(start: SettingsView) {
  let current = start;
  return {
    getSettings: () => current,
    updateSettings: (patch: RequestOf<'updateSettings'>) => {
      const { workspaces, ...rest } = patch;
      current = { ...current, ...rest, ...(workspaces ? { workspaces: workspaces.map((w) => ({ id: w.id, name: w.id, excluded: w.excluded ?? [] })) } : {}) } as SettingsView;
      return current;
    },
    listRemoteWorkspaces: () => REMOTE,
    listRemoteFolders: () => FOLDERS,
  };
}

describe('Settings screen', () => {
  it('says it is loading until the settings arrive', async () => {
    renderApp({ getSettings: () => never() }, SETTINGS);
    expect(await screen.findByText('Loading your settings…')).toBeTruthy();
  });

  it('shows why the settings could not be loaded', async () => {
    renderApp({ getSettings: () => Promise.reject(new Error('The config file is not readable.')) }, SETTINGS);
    expect((await screen.findByRole('alert')).textContent).toContain('Could not load your settings: The config file is not readable.');
  });

  it('signs in with the service address, account, key and secret', async () => {
    const { bridge } = renderApp({ getSettings: () => SIGNED_OUT, signIn: () => settings(), listRemoteWorkspaces: () => REMOTE }, SETTINGS);
    fireEvent.change(await screen.findByLabelText('Service address'), { target: { value: 'http://127.0.0.1:4010' } });
    fireEvent.change(screen.getByLabelText('Account ID'), { target: { value: 'acct-1' } });
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'key-1' } });
    fireEvent.change(screen.getByLabelText('API secret'), { target: { value: 's3cret' } });
    expect((screen.getByLabelText('API secret') as HTMLInputElement).type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Signed in.')).toBeTruthy();
    expect(bridge.requestsTo('signIn')).toEqual([{ baseUrl: 'http://127.0.0.1:4010', accountId: 'acct-1', key: 'key-1', secret: 's3cret' }]);
    const account = screen.getByRole('button', { name: 'Sign out' }).previousElementSibling;
    expect(account?.textContent).toBe('Signed in to http://127.0.0.1:4010, account acct-1, on this computer (dana-laptop).');
    expect(await screen.findByLabelText('Sync Spring Campaign')).toBeTruthy();
  });

  it('shows why a sign-in failed', async () => {
    renderApp({ getSettings: () => SIGNED_OUT, signIn: () => Promise.reject({ code: 'unauthorized', message: 'The key or secret is wrong.' }) }, SETTINGS);
    fireEvent.change(await screen.findByLabelText('Service address'), { target: { value: 'http://127.0.0.1:4010' } });
    fireEvent.change(screen.getByLabelText('Account ID'), { target: { value: 'acct-1' } });
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'key-1' } });
    fireEvent.change(screen.getByLabelText('API secret'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByText('The key or secret is wrong.')).getAttribute('role')).toBe('alert');
  });

  it('signs out', async () => {
    const { bridge } = renderApp({ getSettings: () => settings(), signOut: () => SIGNED_OUT, listRemoteWorkspaces: () => REMOTE }, SETTINGS);
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(bridge.requestsTo('signOut')).toEqual([{}]);
  });

  it('saves the sync folder, poll interval, bandwidth limit and launch at login', async () => {
    const main = settingsMain(settings());
    const { bridge } = renderApp(main, SETTINGS);
    expect(((await screen.findByLabelText('Sync folder')) as HTMLInputElement).value).toBe('/home/dana/Assets');
    fireEvent.change(screen.getByLabelText('Sync folder'), { target: { value: '/data/Assets' } });
    fireEvent.change(screen.getByLabelText('Check the service every (seconds)'), { target: { value: '60' } });
    fireEvent.change(screen.getByLabelText('Bandwidth limit (KB/s)'), { target: { value: '512' } });
    fireEvent.click(screen.getByLabelText('Start Asset Sync when I log in'));
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved.')).toBeTruthy();
    expect(bridge.requestsTo('updateSettings')).toEqual([{ pollIntervalSeconds: 60, bandwidthLimit: 512 * 1024, launchAtLogin: true, ...UNCHANGED, root: '/data/Assets' }]);
    expect(((await screen.findByLabelText('Bandwidth limit (KB/s)')) as HTMLInputElement).value).toBe('512');
  });

  it('saves how many files move at once, whether thumbnails are made as files sync, and the picture cache size', async () => {
    const { bridge } = renderApp(settingsMain(settings()), SETTINGS);
    expect(((await screen.findByLabelText('Downloads at once')) as HTMLInputElement).value).toBe('4');
    expect((screen.getByLabelText('Make thumbnails as files sync') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Picture cache size (MB)') as HTMLInputElement).value).toBe('256');
    fireEvent.change(screen.getByLabelText('Downloads at once'), { target: { value: '8' } });
    fireEvent.change(screen.getByLabelText('Uploads at once'), { target: { value: '2' } });
    fireEvent.click(screen.getByLabelText('Make thumbnails as files sync'));
    fireEvent.change(screen.getByLabelText('Picture cache size (MB)'), { target: { value: '1024' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved.')).toBeTruthy();
    expect(bridge.requestsTo('updateSettings')).toEqual([
      { pollIntervalSeconds: 30, bandwidthLimit: null, launchAtLogin: false, maxDownloads: 8, maxUploads: 2, prefetchThumbnails: false, mediaCacheMiB: 1024 },
    ]);
    expect((screen.getByLabelText('Make thumbnails as files sync') as HTMLInputElement).checked).toBe(false);
  });

  it.each([
    ['Downloads at once', '0', 'Downloads at once: a whole number from 1 to 32.'],
    ['Uploads at once', '17', 'Uploads at once: a whole number from 1 to 16.'],
    ['Picture cache size (MB)', '8', 'The picture cache holds 16 to 65536 MB.'],
  ])('refuses %s = %s before asking main', async (label, value, message) => {
    const { bridge } = renderApp(settingsMain(settings()), SETTINGS);
    fireEvent.change(await screen.findByLabelText(label), { target: { value } });
    fireEvent.submit(screen.getByRole('button', { name: 'Save settings' }).closest('form') as HTMLFormElement);
    expect(await screen.findByText(message)).toBeTruthy();
    expect(bridge.requestsTo('updateSettings')).toEqual([]);
  });

  it('unticks "Start Asset Sync when I log in" again when saving it fails, and says why', async () => {
    const { bridge } = renderApp(
      { ...settingsMain(settings()), updateSettings: () => Promise.reject({ code: 'unsupported', message: 'Launching at login is set from the Asset Sync desktop app.' }) },
      SETTINGS,
    );
    const box = (await screen.findByLabelText('Start Asset Sync when I log in')) as HTMLInputElement;
    fireEvent.click(box);
    expect(box.checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect((await screen.findByText('Launching at login is set from the Asset Sync desktop app.')).getAttribute('role')).toBe('alert');
    expect(box.checked).toBe(false);
    expect(bridge.requestsTo('updateSettings')).toEqual([{ pollIntervalSeconds: 30, bandwidthLimit: null, launchAtLogin: true, ...UNCHANGED }]);
  });

  it('refuses a poll interval out of range before asking main', async () => {
    const { bridge } = renderApp(settingsMain(settings()), SETTINGS);
    fireEvent.change(await screen.findByLabelText('Check the service every (seconds)'), { target: { value: '2' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Save settings' }).closest('form') as HTMLFormElement);
    expect(await screen.findByText('Check for changes every 5 to 3600 seconds.')).toBeTruthy();
    expect(bridge.requestsTo('updateSettings')).toEqual([]);
  });

  it('chooses workspaces and leaves folders out of sync', async () => {
    const { bridge } = renderApp(settingsMain(settings()), SETTINGS);
    const archive = (await screen.findByLabelText('Sync Archive')) as HTMLInputElement;
    expect(archive.checked).toBe(false);
    expect((screen.getByLabelText('Sync Spring Campaign') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(archive);

    fireEvent.click(screen.getAllByRole('button', { name: 'Choose folders' })[0] as HTMLElement);
    const picker = await screen.findByRole('group', { name: 'Folders of Spring Campaign to sync' });
    fireEvent.click(await within(picker).findByLabelText('Brand'));
    // Leaving Brand out leaves out what is inside it.
    const logos = within(picker).getByLabelText('Logos') as HTMLInputElement;
    expect(logos.checked).toBe(false);
    expect(logos.disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Choose folders (1 left out)' }).getAttribute('aria-expanded')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Save workspaces' }));
    expect(await screen.findByText('Workspace choices saved.')).toBeTruthy();
    expect(bridge.requestsTo('updateSettings')).toEqual([
      {
        workspaces: [
          { id: WS, excluded: ['Brand'] },
          { id: 'ws-archive', excluded: [] },
        ],
      },
    ]);
  });

  it('pauses sync from the settings', async () => {
    const { bridge } = renderApp({ ...settingsMain(settings()), pause: () => status({ state: 'paused', paused: true }) }, SETTINGS);
    fireEvent.click(await screen.findByRole('button', { name: 'Pause sync' }));
    expect(await screen.findByText('Sync is paused.')).toBeTruthy();
    expect(bridge.requestsTo('pause')).toEqual([{}]);
  });
});
