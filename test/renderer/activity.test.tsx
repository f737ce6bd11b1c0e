// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ActivityItem } from '../../shared/engine.js';
import type { VersionSummary } from '../../shared/ipc.js';
import { never } from './memory-bridge.js';
import { renderApp } from './render-app.js';
import { status, thumbnailRef, workspace, WS } from './fixtures.js';

const at = (minute: number) => `2025-03-14T10:${String(minute).padStart(2, '0')}:00.000Z`;

const DOWNLOADED: ActivityItem = {
  at: at(5),
  workspaceId: WS,
  kind: 'downloaded',
  path: 'Campaigns/Social/hero.psd',
  message: 'Downloaded Campaigns/Social/hero.psd (version 7)',
  version: { assetId: 'asset-hero', versionId: 'v7', number: 7 },
};
const UPLOADED: ActivityItem = {
  at: at(4),
  workspaceId: WS,
  kind: 'uploaded',
  path: 'Campaigns/Social/story-01.png',
  message: 'Uploaded Campaigns/Social/story-01.png',
  version: { assetId: 'asset-story', versionId: 's2', number: 2 },
};
const WAITING: ActivityItem = { at: at(3), workspaceId: WS, kind: 'waiting', path: 'Campaigns/Social/teaser.mov', message: 'Waiting for teaser.mov to finish writing' };
const DELETED: ActivityItem = { at: at(2), workspaceId: WS, kind: 'deleted', path: 'Old/draft.psd', message: 'Deleted Old/draft.psd on the service (restorable there)' };

const SUMMARIES: Record<string, VersionSummary> = {
  v7: { versionId: 'v7', number: 7, author: 'Dana Reyes', mine: false, note: 'brighter sky' },
  s2: { versionId: 's2', number: 2, author: 'Sam Lee', mine: true, note: null },
};

const feed = async () => (await screen.findByRole('heading', { name: 'Recent activity' })).parentElement as HTMLElement;

describe('Recent activity', () => {
  it('says it is loading, and when nothing has happened yet', async () => {
    renderApp({ getActivity: () => never() });
    expect(await within(await feed()).findByText('Loading recent activity…')).toBeTruthy();
  });

  it('says when nothing has happened yet', async () => {
    renderApp({ getActivity: () => [] });
    expect(await within(await feed()).findByText(/^Nothing has happened yet\./)).toBeTruthy();
  });

  it('shows why the activity could not be loaded', async () => {
    renderApp({ getActivity: () => Promise.reject(new Error('The index is busy.')) });
    expect(await within(await feed()).findByText('Could not load recent activity: The index is busy.')).toBeTruthy();
  });

  it('names the version, who made it and the note, with the version’s picture, asking once for every entry shown', async () => {
    const { bridge } = renderApp({
      getActivity: () => [DOWNLOADED, UPLOADED, WAITING, DELETED],
      describeVersions: ({ items }) => items.map((i) => SUMMARIES[i.versionId] ?? null),
      mediaThumbnails: ({ items }) => items.map(() => thumbnailRef()),
    });
    const list = await feed();
    expect(await within(list).findByRole('button', { name: 'Dana Reyes uploaded version 7 of hero.psd: brighter sky' })).toBeTruthy();
    expect(within(list).getByRole('button', { name: 'You uploaded version 2 of story-01.png' })).toBeTruthy();
    // A file still being written is named as such; a deletion has no file to open.
    expect(within(list).getByText('Waiting for teaser.mov to finish writing').closest('button')).toBeNull();
    expect(within(list).getByText('Deleted Old/draft.psd on the service (restorable there)').closest('button')).toBeNull();
    expect(bridge.requestsTo('describeVersions')).toEqual([
      { workspaceId: WS, items: [{ assetId: 'asset-hero', versionId: 'v7' }, { assetId: 'asset-story', versionId: 's2' }] },
    ]);
    await waitFor(() => expect(bridge.requestsTo('mediaThumbnails')).toHaveLength(1));
    expect(bridge.requestsTo('mediaThumbnails')[0]?.items).toEqual([
      { assetId: 'asset-hero', versionId: 'v7' },
      { assetId: 'asset-story', versionId: 's2' },
      { path: 'Campaigns/Social/teaser.mov' },
    ]);
  });

  it('keeps the engine’s own words when the service cannot say who made a version', async () => {
    renderApp({ getActivity: () => [DOWNLOADED], describeVersions: () => Promise.reject(new Error('offline')) });
    expect(await within(await feed()).findByRole('button', { name: 'Downloaded Campaigns/Social/hero.psd (version 7)' })).toBeTruthy();
  });

  it('describes a new entry as it arrives, and asks only for what it does not know', async () => {
    const { bridge } = renderApp({ getActivity: () => [UPLOADED], describeVersions: ({ items }) => items.map((i) => SUMMARIES[i.versionId] ?? null) });
    await within(await feed()).findByRole('button', { name: 'You uploaded version 2 of story-01.png' });
    bridge.emit('activity', DOWNLOADED);
    expect(await screen.findByRole('button', { name: 'Dana Reyes uploaded version 7 of hero.psd: brighter sky' })).toBeTruthy();
    expect(bridge.requestsTo('describeVersions').map((r) => r.items.map((i) => i.versionId))).toEqual([['s2'], ['v7']]);
  });

  it('opens the versions of the file an entry names', async () => {
    renderApp({ getActivity: () => [DOWNLOADED], describeVersions: ({ items }) => items.map((i) => SUMMARIES[i.versionId] ?? null), listVersions: () => never() });
    fireEvent.click(await within(await feed()).findByRole('button', { name: /^Dana Reyes uploaded version 7/ }));
    expect(await screen.findByRole('heading', { name: 'Versions of hero.psd' })).toBeTruthy();
  });
});

describe('A file still being written', () => {
  it('is named in the header and on its workspace instead of a state that flickers', async () => {
    const writing = workspace({ state: 'syncing', writing: ['Campaigns/Social/teaser.mov'] });
    const { bridge } = renderApp({ getStatus: () => status({ state: 'syncing', workspaces: [writing] }) });
    const header = screen.getByTestId('header-state');
    await waitFor(() => expect(header.textContent).toBe('Waiting for teaser.mov to finish writing'));
    // The rescan every few seconds does not change what is said.
    bridge.emit('status', status({ state: 'scanning', workspaces: [{ ...writing, state: 'scanning' }] }));
    expect(header.textContent).toBe('Waiting for teaser.mov to finish writing');
    const workspaces = screen.getByRole('heading', { name: 'Workspaces' }).parentElement as HTMLElement;
    expect(within(workspaces).getByText('Waiting for teaser.mov to finish writing')).toBeTruthy();
  });

  it('counts several files being written', async () => {
    renderApp({ getStatus: () => status({ state: 'syncing', workspaces: [workspace({ state: 'syncing', writing: ['a.mov', 'b.mov', 'c.mov'] })] }) });
    await waitFor(() => expect(screen.getByTestId('header-state').textContent).toBe('Waiting for 3 files to finish writing'));
  });
});
