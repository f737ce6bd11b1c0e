// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MediaPreview } from '../../shared/ipc.js';
import type { Route } from '../../renderer/src/store/route.js';
import { never } from './memory-bridge.js';
import { renderApp } from './render-app.js';
import { file, preview, thumbnailRef, version, WS } from './fixtures.js';

const FOLDER = { view: 'files', workspaceId: WS, folder: 'Campaigns' } as const;
const previewOf = (name: string, versionId: string | null = null): Route => ({
  view: 'preview',
  workspaceId: WS,
  path: `Campaigns/${name}`,
  assetId: `asset-${name}`,
  versionId,
  name,
  under: FOLDER,
});
const BASE = {
  listFiles: () => [file({ name: 'hero.png', path: 'Campaigns/hero.png', assetId: 'asset-hero.png' })],
  listVersions: () => [version(2), version(3, { current: true })],
  mediaThumbnails: ({ items }: { items: unknown[] }) => items.map(() => thumbnailRef()),
};
const zoom = () => screen.getByTestId('zoom-level').textContent;

describe('Preview', () => {
  it('says it is loading, then shows the picture fit to the window, with who made the version and when', async () => {
    let answer: (p: MediaPreview) => void = () => undefined;
    renderApp({ ...BASE, mediaPreview: () => new Promise<MediaPreview>((resolve) => (answer = resolve)) }, previewOf('hero.png'));
    const dialog = await screen.findByRole('dialog', { name: 'hero.png, version 3' });
    expect(within(dialog).getByText('Loading the preview of hero.png…')).toBeTruthy();
    answer(preview());
    const picture = await within(dialog).findByRole('img', { name: 'hero.png, version 3' });
    expect(picture.getAttribute('src')).toBe('/media/hero-v3.png');
    expect(zoom()).toMatch(/^Fit/);
    expect(within(dialog).getByText('1600 × 1000 px')).toBeTruthy();
    expect(within(dialog).getByText('Dana Designer')).toBeTruthy();
    expect(within(dialog).getByText('Revision 3')).toBeTruthy();
  });

  it('shows why a preview could not be made, with a way to try again', async () => {
    let fail = true;
    renderApp({ ...BASE, mediaPreview: () => (fail ? Promise.reject(new Error('The version cannot be fetched.')) : preview()) }, previewOf('hero.png'));
    const alert = (await screen.findByText('Could not load the preview of hero.png: The version cannot be fetched.')).closest('[role="alert"]') as HTMLElement;
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('img', { name: 'hero.png, version 3' })).toBeTruthy();
  });

  it('zooms with the buttons and with + − 0 on the keyboard, and moves the picture with the arrow keys', async () => {
    renderApp({ ...BASE, mediaPreview: () => preview() }, previewOf('hero.png'));
    await screen.findByRole('img', { name: 'hero.png, version 3' });
    const stage = screen.getByRole('group', { name: 'hero.png, version 3' });
    const picture = within(stage).getByRole('img');
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(zoom()).toMatch(/^125% of fit/);
    fireEvent.keyDown(stage, { key: '+' });
    expect(zoom()).toMatch(/^156% of fit/);
    fireEvent.keyDown(stage, { key: 'ArrowLeft' });
    expect(picture.style.transform).toBe('translate(48px, 0px) scale(1.5625)');
    fireEvent.keyDown(stage, { key: '-' });
    expect(zoom()).toMatch(/^125% of fit/);
    fireEvent.keyDown(stage, { key: '0' });
    expect(zoom()).toMatch(/^Fit/);
    expect(picture.style.transform).toBe('translate(0px, 0px) scale(1)');
    fireEvent.wheel(stage, { deltaY: -100 });
    expect(zoom()).toMatch(/^125% of fit/);
  });

  it('turns the pages of a PDF: previous, next, page n of N', async () => {
    const { bridge } = renderApp(
      { ...BASE, mediaPreview: ({ page }) => preview({ view: 'pdf', page: page ?? 1, pages: 3, url: `/media/page-${page ?? 1}.webp`, type: { category: 'pdf', format: 'pdf', mime: 'application/pdf', fromBytes: true } }) },
      previewOf('guide.pdf'),
    );
    expect((await screen.findByTestId('page-of')).textContent).toBe('Page 1 of 3');
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(screen.getByTestId('page-of').textContent).toBe('Page 2 of 3'));
    expect(screen.getByRole('img', { name: 'hero.png, version 3, page 2 of 3' }).getAttribute('src')).toBe('/media/page-2.webp');
    expect(bridge.requestsTo('mediaPreview').map((r) => r.page)).toEqual([1, 2]);
  });

  it('plays video and audio in the browser’s own players', async () => {
    renderApp({ ...BASE, mediaPreview: () => preview({ view: 'video', url: '/media/teaser.webm', type: { category: 'video', format: 'webm', mime: 'video/webm', fromBytes: true }, durationSeconds: 7 }) }, previewOf('teaser.webm'));
    const video = (await screen.findByLabelText('hero.png, version 3')) as HTMLVideoElement;
    expect(video.tagName).toBe('VIDEO');
    expect(video.controls).toBe(true);
    expect(screen.getByText('0:07')).toBeTruthy();
  });

  it('shows a file with nothing to draw as its kind and metadata, and opens it', async () => {
    const { bridge } = renderApp(
      {
        ...BASE,
        openFile: () => ({ opened: true }),
        mediaPreview: () => preview({ view: 'none', url: null, reason: 'unsupported', width: null, height: null, type: { category: 'document', format: 'indd', mime: null, fromBytes: true } }),
      },
      previewOf('poster.indd'),
    );
    expect(await screen.findByText('There is no preview for this kind of file.')).toBeTruthy();
    expect(screen.getByText('Document (INDD)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(bridge.requestsTo('openFile')).toEqual([{ workspaceId: WS, path: 'Campaigns/poster.indd', runConfirmed: false }]));
  });

  it('opens from a file’s picture in Files, closes with Escape, and gives the focus back to that picture', async () => {
    renderApp({ ...BASE, mediaPreview: () => never() }, FOLDER);
    const opener = await screen.findByRole('button', { name: 'Preview hero.png' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = await screen.findByRole('dialog', { name: /^hero\.png/ });
    expect(document.activeElement).toBe(within(dialog).getByRole('heading'));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Preview hero.png' }));
    expect(document.title).toBe('Files: Campaigns – Asset Sync');
  });

  it('keeps the Tab key inside the dialog', async () => {
    renderApp({ ...BASE, mediaPreview: () => preview() }, previewOf('hero.png'));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('img', { name: 'hero.png, version 3' });
    const close = within(dialog).getByRole('button', { name: 'Close' });
    const buttons = within(dialog).getAllByRole('button');
    const last = buttons[buttons.length - 1] as HTMLElement;
    last.focus();
    fireEvent.keyDown(last, { key: 'Tab' });
    expect(document.activeElement).toBe(within(dialog).getAllByRole('button')[0]);
    expect(close).toBeTruthy();
  });
});
