// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { never } from './memory-bridge.js';
import { renderApp } from './render-app.js';
import { conflict, preview, thumbnailRef, WS } from './fixtures.js';

const CONFLICTS = { view: 'conflicts' } as const;
const MINE = 'Brand/palette (conflicted copy dana-laptop 2025-03-14 101500).png';

describe('Conflicts screen', () => {
  it('says it is loading until the conflicts arrive', async () => {
    renderApp({ listConflicts: () => never() }, CONFLICTS);
    expect(await screen.findByText('Loading the conflicts…')).toBeTruthy();
  });

  it('shows why the conflicts could not be loaded', async () => {
    renderApp({ listConflicts: () => Promise.reject(new Error('Asset Sync is not responding.')) }, CONFLICTS);
    expect((await screen.findByRole('alert')).textContent).toContain('Could not load the conflicts: Asset Sync is not responding.');
  });

  it('says there is none, and what would show here', async () => {
    renderApp({ listConflicts: () => [] }, CONFLICTS);
    expect(await screen.findByText(/^No conflicts\. When a file changes on this computer and on the service/)).toBeTruthy();
  });

  it('shows both versions side by side, yours and theirs with who and when', async () => {
    const { bridge } = renderApp(
      {
        listConflicts: () => [conflict()],
        mediaThumbnails: ({ items }) => items.map((item) => thumbnailRef({ url: item.path ? '/media/mine.png' : '/media/theirs.png' })),
      },
      CONFLICTS,
    );
    const card = await screen.findByRole('listitem', { name: 'Brand/palette.png' });
    expect(((await within(card).findByRole('img', { name: 'Your version of palette.png' })) as HTMLImageElement).getAttribute('src')).toBe('/media/mine.png');
    expect((within(card).getByRole('img', { name: 'Their version of palette.png' }) as HTMLImageElement).getAttribute('src')).toBe('/media/theirs.png');
    const yours = within(card).getByText('Yours').closest('figure') as HTMLElement;
    expect(yours.textContent).toContain('On this computer, as palette (conflicted copy dana-laptop 2025-03-14 101500).png');
    expect(yours.textContent).toContain('50.0 KB');
    const theirs = within(card).getByText('Theirs').closest('figure') as HTMLElement;
    expect(theirs.textContent).toContain('Version 4 by Rafael Reviewer');
    // Both pictures in one call, as every thumbnail on screen is asked for.
    expect(bridge.requestsTo('mediaThumbnails')).toEqual([
      { workspaceId: WS, items: [{ path: MINE }, { assetId: 'asset-palette', versionId: 'pv4' }], size: 'preview' },
    ]);
  });

  it("opens each side in the preview over the conflicts, and Escape comes back to the card's button", async () => {
    const { bridge, store } = renderApp(
      {
        listConflicts: () => [conflict()],
        mediaPreview: ({ item }) => preview({ name: item.path === MINE ? 'palette (conflicted copy dana-laptop 2025-03-14 101500).png' : 'palette.png', versionNumber: item.path === MINE ? null : 4 }),
      },
      { view: 'conflicts', path: 'Brand/palette.png' },
    );
    const card = await screen.findByRole('listitem', { name: 'Brand/palette.png' });
    const theirs = within(card).getByRole('button', { name: 'Preview their version of palette.png' });
    theirs.focus();
    fireEvent.click(theirs);
    const dialog = await screen.findByRole('dialog', { name: 'palette.png, version 4' });
    expect(await within(dialog).findByRole('img', { name: 'palette.png, version 4' })).toBeTruthy();
    expect(store.getState().route).toEqual({
      view: 'preview',
      workspaceId: WS,
      path: 'Brand/palette.png',
      assetId: 'asset-palette',
      versionId: 'pv4',
      name: 'palette.png',
      under: { view: 'conflicts', path: 'Brand/palette.png' },
    });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(within(card).getByRole('button', { name: 'Preview their version of palette.png' }));

    fireEvent.click(within(card).getByRole('button', { name: 'Preview your version of palette.png' }));
    await screen.findByRole('dialog', { name: 'palette (conflicted copy dana-laptop 2025-03-14 101500).png' });
    expect(bridge.requestsTo('mediaPreview')).toContainEqual({ workspaceId: WS, item: { path: MINE }, page: 1 });
  });

  it('keeps mine on the version the user saw, then says so and lists what is left', async () => {
    let list = [conflict(), conflict({ path: 'Docs/brief.md', copyPath: 'Docs/brief (conflicted copy dana-laptop 2025-03-14 101500).md', assetId: 'asset-brief', theirs: null })];
    const { bridge } = renderApp(
      {
        listConflicts: () => list,
        mediaPreview: () => never(),
        resolveConflict: (r) => {
          list = list.filter((c) => c.copyPath !== r.copyPath);
          return { keep: r.keep, path: 'Brand/palette.png', copyPath: r.copyPath, versionNumber: 5 };
        },
      },
      CONFLICTS,
    );
    const card = await screen.findByRole('listitem', { name: 'Brand/palette.png' });
    fireEvent.click(within(card).getByRole('button', { name: 'Keep mine' }));
    expect(await screen.findByText('Kept your version of palette.png as version 5; the copy went to the trash.')).toBeTruthy();
    expect(bridge.requestsTo('resolveConflict')).toEqual([{ workspaceId: WS, copyPath: MINE, keep: 'mine', theirsVersionId: 'pv4' }]);
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Brand/palette.png' })).toBeNull());
    // The card is gone: what was done is still said.
    expect(screen.getByText('Kept your version of palette.png as version 5; the copy went to the trash.').getAttribute('role')).toBe('status');
    const left = screen.getByRole('listitem', { name: 'Docs/brief.md' });
    expect(within(left).getByText('Theirs').closest('figure')?.textContent).toContain("The service's version");
  });

  it('says why a choice failed, and keeps the conflict', async () => {
    renderApp(
      {
        listConflicts: () => [conflict()],
        mediaPreview: () => never(),
        resolveConflict: () => Promise.reject(new Error('The file has a newer version on the service. Refresh and try again.')),
      },
      CONFLICTS,
    );
    const card = await screen.findByRole('listitem', { name: 'Brand/palette.png' });
    fireEvent.click(within(card).getByRole('button', { name: 'Keep theirs' }));
    expect(await within(card).findByText('The file has a newer version on the service. Refresh and try again.')).toBeTruthy();
    expect(screen.getByRole('listitem', { name: 'Brand/palette.png' })).toBeTruthy();
  });

  it('opens on the conflict a notification names', async () => {
    renderApp({ listConflicts: () => [conflict({ path: 'a.png', copyPath: 'a (copy).png' }), conflict()], mediaPreview: () => never() }, { view: 'conflicts', path: 'Brand/palette.png' });
    const target = await screen.findByRole('listitem', { name: 'Brand/palette.png' });
    await waitFor(() => expect(document.activeElement).toBe(target));
  });
});
