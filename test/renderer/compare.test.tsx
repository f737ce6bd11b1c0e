// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { VersionInfo } from '../../shared/ipc.js';
import { never } from './memory-bridge.js';
import { renderApp } from './render-app.js';
import { preview, thumbnailRef, version, WS } from './fixtures.js';

const COMPARE = { view: 'compare', workspaceId: WS, path: 'Brand/logo-mark.png', a: null, b: null } as const;
const THREE = [version(1), version(2), version(3, { current: true })];
const pictures = { mediaPreview: ({ item }: { item: { versionId?: string } }) => preview({ versionId: item.versionId ?? '', versionNumber: Number(item.versionId?.slice(1)), url: `/media/${item.versionId}.png` }) };

describe('Compare screen', () => {
  it('says it is loading, then compares the newest version with the one before it', async () => {
    renderApp({ listVersions: () => never() }, COMPARE);
    expect(await screen.findByText('Loading the versions…')).toBeTruthy();
  });

  it('shows why the versions could not be listed', async () => {
    renderApp({ listVersions: () => Promise.reject(new Error('The service cannot be reached.')) }, COMPARE);
    expect(await screen.findByText('Could not load the versions: The service cannot be reached.')).toBeTruthy();
  });

  it('says there is nothing to compare for a file of one version', async () => {
    renderApp({ listVersions: () => [version(1, { current: true })] }, COMPARE);
    expect(await screen.findByText('logo-mark.png has only one version: there is nothing to compare yet.')).toBeTruthy();
  });

  it('shows two versions side by side with their metadata, the newest and the one before by default', async () => {
    renderApp({ listVersions: () => THREE, ...pictures }, COMPARE);
    expect(await screen.findByRole('heading', { name: 'Compare versions of logo-mark.png' })).toBeTruthy();
    expect((await screen.findByRole('img', { name: 'Version 2' })).getAttribute('src')).toBe('/media/v2.png');
    expect(screen.getByRole('img', { name: 'Version 3' }).getAttribute('src')).toBe('/media/v3.png');
    const table = screen.getByRole('table', { name: 'Version 2 and version 3 side by side' });
    const row = (label: string) => within(table).getByRole('rowheader', { name: label }).closest('tr') as HTMLElement;
    expect(within(row('Made by')).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Rafael Reviewer', 'Dana Designer (you)']);
    expect(within(row('Note')).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Revision 2', 'Revision 3']);
    expect(within(row('Dimensions')).getAllByRole('cell').map((c) => c.textContent)).toEqual(['1600 × 1000 px', '1600 × 1000 px']);
  });

  it('compares any two versions the user picks, with a slider that wipes between them and an onion skin', async () => {
    const { store } = renderApp({ listVersions: () => THREE, ...pictures }, COMPARE);
    fireEvent.change(await screen.findByLabelText('Left'), { target: { value: 'v1' } });
    await screen.findByRole('img', { name: 'Version 1' });
    expect(store.getState().route).toEqual({ ...COMPARE, a: 'v1', b: 'v3' });

    fireEvent.click(screen.getByLabelText('Slider'));
    const slider = screen.getByRole('slider', { name: 'Slider between version 1 and version 3' });
    const top = screen.getByTestId('overlay-top');
    expect(top.getAttribute('src')).toBe('/media/v3.png');
    expect(top.style.clipPath).toBe('inset(0 0 0 50%)');
    fireEvent.change(slider, { target: { value: '20' } });
    expect(top.style.clipPath).toBe('inset(0 0 0 20%)');

    fireEvent.click(screen.getByLabelText('Onion skin'));
    const opacity = screen.getByRole('slider', { name: 'Opacity of version 3 over version 1' });
    fireEvent.change(opacity, { target: { value: '30' } });
    expect(screen.getByTestId('overlay-top').style.opacity).toBe('0.3');
  });

  it('offers no slider for files that are not pictures', async () => {
    renderApp({ listVersions: () => THREE, mediaPreview: () => preview({ view: 'none', url: null, type: { category: 'document', format: 'indd', mime: null, fromBytes: true } }) }, COMPARE);
    await screen.findByRole('table');
    await waitFor(() => expect(screen.getAllByText('Document (INDD)')).toHaveLength(2));
    expect(screen.queryByLabelText('Slider')).toBeNull();
  });

  it('makes either version current after asking, and saves a copy of it', async () => {
    let versions: VersionInfo[] = THREE;
    const { bridge } = renderApp(
      {
        listVersions: () => versions,
        ...pictures,
        mediaThumbnails: ({ items }) => items.map(() => thumbnailRef()),
        saveVersionCopy: () => ({ savedTo: '/home/dana/logo-mark (v2).png' }),
        restoreVersion: () => {
          versions = [version(1), version(2), version(3), version(4, { current: true, description: 'Restored from version 2' })];
          return { versionId: 'v4' };
        },
      },
      COMPARE,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Save a copy of version 2' }));
    expect(await screen.findByText('Saved version 2 to /home/dana/logo-mark (v2).png.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Make version 3 current' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Make version 2 current' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, make current' }));
    expect(await screen.findByText('Version 2 is current again.')).toBeTruthy();
    expect(bridge.requestsTo('restoreVersion')).toEqual([{ workspaceId: WS, path: 'Brand/logo-mark.png', versionId: 'v2' }]);
    expect(bridge.requestsTo('saveVersionCopy')).toEqual([{ workspaceId: WS, path: 'Brand/logo-mark.png', versionId: 'v2' }]);
  });

  it('is reached from the versions of a file', async () => {
    renderApp({ listVersions: () => THREE, ...pictures, mediaThumbnails: ({ items }) => items.map(() => thumbnailRef()) }, { view: 'versions', workspaceId: WS, path: 'Brand/logo-mark.png', assetId: null });
    fireEvent.click(await screen.findByRole('button', { name: 'Compare versions' }));
    expect(await screen.findByRole('heading', { name: 'Compare versions of logo-mark.png' })).toBeTruthy();
    expect(document.title).toBe('Compare versions of logo-mark.png – Asset Sync');
  });
});
