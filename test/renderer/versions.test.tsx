// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { VersionInfo } from '../../shared/ipc.js';
import { never } from './memory-bridge.js';
import { renderApp } from './render-app.js';
import { preview, thumbnailRef, version, WS } from './fixtures.js';

const HERO = { view: 'versions', workspaceId: WS, path: 'Campaigns/hero.psd', assetId: 'asset-hero' } as const;
const card = (n: number) => screen.getByRole('listitem', { name: new RegExp(`^Version ${n}\\b`) });

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
    expect(await screen.findByText(/^This file has no versions on the service yet/)).toBeTruthy();
  });

  it('shows each version with its picture, number, who made it, when, its note and size; checksums only in its details', async () => {
    renderApp({ listVersions: () => [version(1), version(2), version(3, { current: true })], mediaThumbnails: ({ items }) => items.map(() => thumbnailRef()) }, HERO);
    await screen.findByRole('listitem', { name: /^Version 3/ });
    const numbers = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent?.match(/^Version \d+/)?.[0]);
    expect(numbers).toEqual(['Version 3', 'Version 2', 'Version 1']);
    const current = card(3);
    expect(within(current).getByText('current')).toBeTruthy();
    expect(within(current).getByText('Dana Designer (you)')).toBeTruthy();
    expect(within(card(2)).getByText('Rafael Reviewer')).toBeTruthy();
    expect(within(current).getByText('Revision 3')).toBeTruthy();
    expect(within(current).getByText('40.6 KB')).toBeTruthy();
    expect(within(card(1)).getByText('No note')).toBeTruthy();
    // The checksum and the parent are folded away in a details row.
    const details = within(current).getByText('Details').closest('details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(within(details).getByText(/^333333333333/)).toBeTruthy();
    expect(within(details).getByText('Version 2')).toBeTruthy();
    // Each card's picture is that version's, asked for by path and version in one batch.
    await waitFor(() => expect(current.querySelector('img')?.getAttribute('src')).toBe('/media/thumb.webp'));
    // The current version is current already.
    expect(within(current).queryByRole('button', { name: /Make version 3 current/ })).toBeNull();
  });

  it('asks for every card’s picture in one call', async () => {
    const { bridge } = renderApp({ listVersions: () => [version(1), version(2), version(3, { current: true })], mediaThumbnails: ({ items }) => items.map(() => thumbnailRef()) }, HERO);
    await screen.findByRole('listitem', { name: /^Version 3/ });
    await waitFor(() => expect(bridge.requestsTo('mediaThumbnails')).toHaveLength(1));
    expect(bridge.requestsTo('mediaThumbnails')[0]).toEqual({
      workspaceId: WS,
      size: 'grid',
      items: ['v3', 'v2', 'v1'].map((versionId) => ({ path: 'Campaigns/hero.psd', versionId })),
    });
  });

  it('previews a version from its picture', async () => {
    renderApp({ listVersions: () => [version(1), version(2, { current: true })], mediaThumbnails: ({ items }) => items.map(() => thumbnailRef()), mediaPreview: () => preview({ versionNumber: 1 }) }, HERO);
    fireEvent.click(await screen.findByRole('button', { name: 'Preview version 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'hero.psd, version 1' });
    expect(within(dialog).getByRole('img', { name: 'hero.png, version 1' })).toBeTruthy();
  });

  it('adds and edits the note of the user’s own version, and offers no editing of another’s', async () => {
    let versions: VersionInfo[] = [version(1), version(2, { current: true })];
    const { bridge } = renderApp(
      {
        listVersions: () => versions,
        setVersionNote: ({ versionId, note }) => {
          versions = versions.map((v) => (v.id === versionId ? { ...v, description: note || null } : v));
          return versions.find((v) => v.id === versionId) as VersionInfo;
        },
      },
      HERO,
    );
    await screen.findByRole('listitem', { name: /^Version 2/ });
    expect(within(card(2)).queryByRole('button', { name: /note of version 2/ })).toBeNull();
    const add = within(card(1)).getByRole('button', { name: 'Add a note of version 1' });
    fireEvent.click(add);
    const field = within(card(1)).getByLabelText('Note for version 1');
    expect(document.activeElement).toBe(field);
    fireEvent.change(field, { target: { value: 'first sketch, brighter sky' } });
    fireEvent.click(within(card(1)).getByRole('button', { name: 'Save note' }));
    // The note as shown once saved (the field being closed holds the same words until then).
    expect(await within(card(1)).findByText('first sketch, brighter sky', { selector: 'p' })).toBeTruthy();
    expect(bridge.requestsTo('setVersionNote')).toEqual([{ workspaceId: WS, path: 'Campaigns/hero.psd', versionId: 'v1', note: 'first sketch, brighter sky' }]);
    expect(document.activeElement).toBe(within(card(1)).getByRole('button', { name: 'Edit the note of version 1' }));

    // Escape leaves the note as it was.
    fireEvent.click(within(card(1)).getByRole('button', { name: 'Edit the note of version 1' }));
    fireEvent.change(within(card(1)).getByLabelText('Note for version 1'), { target: { value: 'something else' } });
    fireEvent.keyDown(within(card(1)).getByLabelText('Note for version 1'), { key: 'Escape' });
    expect(within(card(1)).getByText('first sketch, brighter sky')).toBeTruthy();
    expect(bridge.requestsTo('setVersionNote')).toHaveLength(1);
  });

  it('keeps the note being written when saving it fails, and says why', async () => {
    renderApp({ listVersions: () => [version(1, { current: true })], setVersionNote: () => Promise.reject(new Error('The service cannot be reached.')) }, HERO);
    fireEvent.click(await screen.findByRole('button', { name: 'Add a note of version 1' }));
    fireEvent.change(screen.getByLabelText('Note for version 1'), { target: { value: 'brighter sky' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save note' }));
    expect((await screen.findByText('The service cannot be reached.')).getAttribute('role')).toBe('alert');
    expect((screen.getByLabelText('Note for version 1') as HTMLTextAreaElement).value).toBe('brighter sky');
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
    expect(within(card(3)).getByText('current')).toBeTruthy();
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
