// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { VersionInfo } from '../../shared/ipc.js';
import { never } from './memory-bridge.js';
import { renderApp } from './render-app.js';
import { version, WS } from './fixtures.js';

const HERO = { view: 'versions', workspaceId: WS, path: 'Campaigns/hero.psd', assetId: 'asset-hero' } as const;
const row = (n: number) => screen.getByRole('rowheader', { name: new RegExp(`^Version ${n}\\b`) }).closest('tr') as HTMLElement;

describe('Versions screen', () => {
  it('says it is loading until the versions arrive', async () => {
    renderApp({ listVersions: () => never() }, HERO);
    expect(await screen.findByRole('heading', { name: 'Versions of hero.psd' })).toBeTruthy();
    expect(screen.getByText('Loading the versions…')).toBeTruthy();
  });

  it('shows why the versions could not be listed', async () => {
    renderApp({ listVersions: () => Promise.reject({ code: 'offline', message: 'The service cannot be reached.' }) }, HERO);
    expect((await screen.findByRole('alert')).textContent).toContain('Could not load the versions: The service cannot be reached.');
  });

  it('says when a file has no versions yet', async () => {
    renderApp({ listVersions: () => [] }, HERO);
    expect(await screen.findByText('This file has no versions on the service yet.')).toBeTruthy();
  });

  it('lists versions newest first with author, size, checksum prefix and parent', async () => {
    renderApp({ listVersions: () => [version(1), version(2), version(3, { current: true })] }, HERO);
    await screen.findByRole('rowheader', { name: /^Version 3/ });
    const numbers = screen.getAllByRole('rowheader').map((h) => h.textContent?.match(/^Version \d+/)?.[0]);
    expect(numbers).toEqual(['Version 3', 'Version 2', 'Version 1']);
    const current = row(3);
    expect(within(current).getByText('current')).toBeTruthy();
    expect(within(current).getByText('Dana Designer')).toBeTruthy();
    expect(within(current).getByText('333333333333')).toBeTruthy();
    expect(within(current).getByText('Version 2')).toBeTruthy();
    expect(within(current).getByText('40.6 KB')).toBeTruthy();
    expect(within(row(1)).getAllByText('—').length).toBeGreaterThan(0);
    // The current version is current already.
    expect(within(current).queryByRole('button', { name: /Make version 3 current/ })).toBeNull();
  });

  it('opens a version and saves a copy of it', async () => {
    const { bridge } = renderApp(
      { listVersions: () => [version(1), version(2, { current: true })], openVersion: () => ({ opened: true }), saveVersionCopy: () => ({ savedTo: '/home/dana/Downloads/hero v1.psd' }) },
      HERO,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Open version 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save a copy of version 1' }));
    expect(await screen.findByText('Saved version 1 to /home/dana/Downloads/hero v1.psd.')).toBeTruthy();
    expect(bridge.requestsTo('openVersion')).toEqual([{ workspaceId: WS, path: 'Campaigns/hero.psd', versionId: 'v1', runConfirmed: false }]);
    expect(bridge.requestsTo('saveVersionCopy')).toEqual([{ workspaceId: WS, path: 'Campaigns/hero.psd', versionId: 'v1' }]);
  });

  it('makes an older version current only after the user confirms', async () => {
    let versions: VersionInfo[] = [version(1), version(2, { current: true })];
    const { bridge } = renderApp(
      {
        listVersions: () => versions,
        restoreVersion: () => {
          versions = [version(1), version(2), version(3, { current: true, parentId: 'v2', description: 'Restored version 1' })];
          return { versionId: 'v3' };
        },
      },
      HERO,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Make version 1 current' }));
    const confirm = screen.getByRole('group', { name: 'Make version 1 current?' });
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Yes, make current' }));
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(bridge.requestsTo('restoreVersion')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Make version 1 current' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, make current' }));
    expect(await screen.findByText('Version 1 is current again.')).toBeTruthy();
    expect(bridge.requestsTo('restoreVersion')).toEqual([{ workspaceId: WS, path: 'Campaigns/hero.psd', versionId: 'v1' }]);
    expect(await screen.findByText('Restored version 1')).toBeTruthy();
    expect(within(row(3)).getByText('current')).toBeTruthy();
  });

  it('gives the focus back to "Make current" when the question is closed with Escape or Cancel', async () => {
    const { bridge } = renderApp({ listVersions: () => [version(1), version(2, { current: true })] }, HERO);
    const opener = () => screen.getByRole('button', { name: 'Make version 1 current' });
    fireEvent.click(await screen.findByRole('button', { name: 'Make version 1 current' }));
    const confirm = screen.getByRole('group', { name: 'Make version 1 current?' });
    fireEvent.keyDown(within(confirm).getByRole('button', { name: 'Yes, make current' }), { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'Make version 1 current?' })).toBeNull();
    expect(document.activeElement).toBe(opener());

    fireEvent.click(opener());
    fireEvent.click(within(screen.getByRole('group', { name: 'Make version 1 current?' })).getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(opener());
    expect(bridge.requestsTo('restoreVersion')).toEqual([]);
  });

  it('gives the focus back to "Make current" once a confirmed restore is done', async () => {
    renderApp({ listVersions: () => [version(1), version(2, { current: true })], restoreVersion: () => Promise.reject(new Error('The asset is locked by Rafael.')) }, HERO);
    fireEvent.click(await screen.findByRole('button', { name: 'Make version 1 current' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, make current' }));
    await screen.findByText('The asset is locked by Rafael.');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Make version 1 current' })));
  });

  it('shows why a restore failed', async () => {
    renderApp({ listVersions: () => [version(1), version(2, { current: true })], restoreVersion: () => Promise.reject(new Error('The asset is locked by Rafael.')) }, HERO);
    fireEvent.click(await screen.findByRole('button', { name: 'Make version 1 current' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, make current' }));
    expect((await screen.findByText('The asset is locked by Rafael.')).getAttribute('role')).toBe('alert');
  });

  it('opens the versions main asks for (a notification was clicked)', async () => {
    const { bridge } = renderApp({ listVersions: () => [version(1, { current: true })] });
    await screen.findByTestId('overall-state');
    bridge.emit('navigate', { view: 'versions', workspaceId: WS, path: 'Docs/brief.md', assetId: 'asset-brief' });
    expect(await screen.findByRole('heading', { name: 'Versions of brief.md' })).toBeTruthy();
    expect(bridge.requestsTo('listVersions')).toEqual([{ workspaceId: WS, path: 'Docs/brief.md' }]);
  });

  it('finds the file of an asset main names only by its id', async () => {
    const { bridge } = renderApp({ listVersions: () => [version(1, { current: true })], openAsset: () => ({ path: 'Docs/brief.md', opened: true }) });
    await screen.findByTestId('overall-state');
    bridge.emit('navigate', { view: 'versions', workspaceId: WS, assetId: 'asset-brief' });
    fireEvent.click(await screen.findByRole('button', { name: 'Open the asset' }));
    expect(await screen.findByRole('heading', { name: 'Versions of brief.md' })).toBeTruthy();
    expect(bridge.requestsTo('openAsset')).toEqual([{ workspaceId: WS, assetId: 'asset-brief', runConfirmed: false }]);
  });
});
