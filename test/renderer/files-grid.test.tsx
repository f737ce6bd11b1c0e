// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FileEntry, ThumbnailRef } from '../../shared/ipc.js';
import { never } from './memory-bridge.js';
import { renderApp } from './render-app.js';
import { file, folder, status, thumbnailRef, transfer, workspace, WS } from './fixtures.js';

const FILES = { view: 'files', workspaceId: WS, folder: 'Social' } as const;

const ENTRIES: FileEntry[] = [
  folder('Drafts', 'Social/Drafts'),
  file({ name: 'story-01.png', path: 'Social/story-01.png', assetId: 'asset-story' }),
  file({ name: 'teaser.webm', path: 'Social/teaser.webm', assetId: 'asset-teaser' }),
  file({ name: 'poster.indd', path: 'Social/poster.indd', assetId: 'asset-poster' }),
  file({ name: 'new-sketch.psd', path: 'Social/new-sketch.psd', assetId: null, state: 'local-only' }),
];

/** What main answers for each item: a picture, a video, an icon of the file's kind. */
function refFor(item: { assetId?: string; path?: string }): ThumbnailRef {
  switch (item.assetId) {
    case 'asset-story':
      return thumbnailRef({ assetId: 'asset-story', url: '/media/story.webp' });
    case 'asset-teaser':
      return thumbnailRef({ assetId: 'asset-teaser', show: 'video', url: '/media/teaser.webm', type: { category: 'video', format: 'webm', mime: 'video/webm', fromBytes: true } });
    default:
      return thumbnailRef({ assetId: item.assetId ?? '', show: 'icon', url: null, reason: 'unsupported', type: { category: 'document', format: item.path ? 'psd' : 'indd', mime: null, fromBytes: false } });
  }
}

const grid = () => screen.getByRole('list', { name: 'Contents of Social' });
const card = (name: string) => within(grid()).getByRole('listitem', { name });

describe('Files as a grid of pictures', () => {
  it('switches between list and grid, and remembers the choice', async () => {
    renderApp({ listFiles: () => ENTRIES, mediaThumbnails: ({ items }) => items.map(refFor) }, FILES);
    await screen.findByRole('rowheader', { name: /story-01\.png/ });
    const list = screen.getByRole('button', { name: 'List' });
    expect(list.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Grid' }));
    expect(screen.getByRole('button', { name: 'Grid' }).getAttribute('aria-pressed')).toBe('true');
    expect(card('story-01.png')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();

    // Another start of the app shows the grid again.
    cleanup();
    localStorage.setItem('asset-sync.files-layout', 'grid');
    renderApp({ listFiles: () => ENTRIES, mediaThumbnails: ({ items }) => items.map(refFor) }, FILES);
    expect(await screen.findByRole('list', { name: 'Contents of Social' })).toBeTruthy();
  });

  it('shows each file’s picture: a thumbnail, a video’s first frame, or the icon of its kind', async () => {
    localStorage.setItem('asset-sync.files-layout', 'grid');
    const { bridge } = renderApp({ listFiles: () => ENTRIES, mediaThumbnails: ({ items }) => items.map(refFor) }, FILES);
    await screen.findByRole('list', { name: 'Contents of Social' });
    await waitFor(() => expect(card('story-01.png').querySelector('img')?.getAttribute('src')).toBe('/media/story.webp'));
    const video = card('teaser.webm').querySelector('video') as HTMLVideoElement;
    expect(video.getAttribute('src')).toBe('/media/teaser.webm#t=0.5');
    expect(video.getAttribute('preload')).toBe('metadata');
    expect(video.muted).toBe(true);
    expect(card('poster.indd').querySelector('.type-icon.category-document')).toBeTruthy();
    expect(within(card('Drafts')).getByRole('button', { name: 'Folder Drafts' })).toBeTruthy();
    // One call for all of them; a file not on the service yet is asked for by its path.
    expect(bridge.requestsTo('mediaThumbnails')).toEqual([
      { workspaceId: WS, size: 'grid', items: [{ path: 'Social/new-sketch.psd' }, { assetId: 'asset-poster' }, { assetId: 'asset-story' }, { assetId: 'asset-teaser' }] },
    ]);
  });

  it('shows the icon, never an error, when pictures cannot be had', async () => {
    localStorage.setItem('asset-sync.files-layout', 'grid');
    renderApp({ listFiles: () => ENTRIES, mediaThumbnails: () => Promise.reject(new Error('Pictures of files are not made in this window.')) }, FILES);
    await screen.findByRole('list', { name: 'Contents of Social' });
    await waitFor(() => expect(card('story-01.png').querySelector('.type-icon')).toBeTruthy());
    expect(screen.queryByText(/not made in this window/)).toBeNull();
  });

  it('asks again once for a picture that does not load (its address expired), then shows the icon', async () => {
    localStorage.setItem('asset-sync.files-layout', 'grid');
    const { bridge } = renderApp({ listFiles: () => ENTRIES.slice(1, 2), mediaThumbnails: ({ items }) => items.map(refFor) }, FILES);
    await screen.findByRole('list', { name: 'Contents of Social' });
    const image = async () => {
      await waitFor(() => expect(card('story-01.png').querySelector('img')).toBeTruthy());
      return card('story-01.png').querySelector('img') as HTMLImageElement;
    };
    fireEvent.error(await image());
    await waitFor(() => expect(bridge.requestsTo('mediaThumbnails')).toHaveLength(2));
    fireEvent.error(await image());
    await waitFor(() => expect(card('story-01.png').querySelector('.type-icon')).toBeTruthy());
    expect(bridge.requestsTo('mediaThumbnails')).toHaveLength(2);
  });

  it('opens a file’s preview from its picture and its versions from its name', async () => {
    localStorage.setItem('asset-sync.files-layout', 'grid');
    renderApp({ listFiles: () => ENTRIES, mediaThumbnails: ({ items }) => items.map(refFor), mediaPreview: () => never(), listVersions: () => never() }, FILES);
    fireEvent.click(await screen.findByRole('button', { name: 'Preview story-01.png' }));
    expect(await screen.findByRole('dialog', { name: 'story-01.png' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.click(await screen.findByRole('button', { name: 'story-01.png: versions' }));
    expect(await screen.findByRole('heading', { name: 'Versions of story-01.png' })).toBeTruthy();
  });
});

describe('Files while syncing', () => {
  it('shows how far an upload got on its row, and a file still being written', async () => {
    const uploading = transfer({ path: 'Social/story-01.png', direction: 'upload', bytesDone: 420, bytesTotal: 1000 });
    renderApp(
      {
        getStatus: () => status({ state: 'syncing', transfers: [uploading], workspaces: [workspace({ state: 'syncing', writing: ['Social/teaser.webm'] })] }),
        listFiles: () => ENTRIES,
        mediaThumbnails: ({ items }) => items.map(refFor),
      },
      FILES,
    );
    const row = (name: RegExp) => screen.getByRole('rowheader', { name }).closest('tr') as HTMLElement;
    await screen.findByRole('rowheader', { name: /story-01\.png/ });
    expect(within(row(/story-01\.png/)).getByText('Uploading 42%')).toBeTruthy();
    const bar = within(row(/story-01\.png/)).getByRole('progressbar') as HTMLProgressElement;
    expect(bar.value).toBeCloseTo(0.42);
    expect(within(row(/teaser\.webm/)).getByText('Being written')).toBeTruthy();
    expect(within(row(/poster\.indd/)).getByText('Synced')).toBeTruthy();
  });

  it('follows an upload’s progress as the engine reports it', async () => {
    const { bridge } = renderApp({ getStatus: () => status({ state: 'syncing' }), listFiles: () => ENTRIES, mediaThumbnails: ({ items }) => items.map(refFor) }, FILES);
    await screen.findByRole('rowheader', { name: /story-01\.png/ });
    bridge.emit('transfer', transfer({ path: 'Social/story-01.png', direction: 'upload', bytesDone: 100, bytesTotal: 1000 }));
    expect(await screen.findByText('Uploading 10%')).toBeTruthy();
    bridge.emit('transfer', transfer({ path: 'Social/story-01.png', direction: 'upload', bytesDone: 1000, bytesTotal: 1000, state: 'done' }));
    await waitFor(() => expect(screen.queryByText(/Uploading/)).toBeNull());
  });
});

describe('A folder of 10,000 files', () => {
  const many = Array.from({ length: 10_000 }, (_, i) => file({ name: `frame-${String(i).padStart(5, '0')}.png`, path: `Social/frame-${String(i).padStart(5, '0')}.png`, assetId: `asset-${i}` }));

  it('renders the rows in view, not all of them, and asks for their pictures only', async () => {
    const { bridge } = renderApp({ listFiles: () => many, mediaThumbnails: ({ items }) => items.map(() => thumbnailRef()) }, FILES);
    await screen.findByRole('rowheader', { name: /frame-00000\.png/ });
    const table = screen.getByRole('table');
    expect(table.getAttribute('aria-rowcount')).toBe('10001');
    const rows = within(table).getAllByRole('rowheader');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(100);
    expect(screen.getByText('10000 items')).toBeTruthy();
    await waitFor(() => expect(bridge.requestsTo('mediaThumbnails')).toHaveLength(1));
    expect(bridge.requestsTo('mediaThumbnails')[0]?.items).toHaveLength(rows.length);
  });

  it('shows the first page in the list and the grid before the rest is listed, and asks for the rest only then', async () => {
    const rest: Array<(entries: FileEntry[]) => void> = [];
    const { bridge } = renderApp(
      {
        listFilesFirst: ({ limit }) => ({ entries: many.slice(0, limit), total: many.length }),
        listFiles: () => new Promise<FileEntry[]>((resolve) => rest.push(resolve)),
        mediaThumbnails: ({ items }) => items.map(() => thumbnailRef()),
      },
      FILES,
    );
    await screen.findByRole('rowheader', { name: /frame-00000\.png/ });
    expect(screen.getByRole('table').getAttribute('aria-rowcount')).toBe('10001');
    expect(screen.getByText('10000 items')).toBeTruthy();
    const [first] = bridge.requestsTo('listFilesFirst');
    expect(first?.limit).toBeLessThan(200);
    expect(bridge.calls.map((c) => c.channel).filter((c) => c.startsWith('listFiles'))).toEqual(['listFilesFirst', 'listFiles']);
    expect(screen.queryByRole('rowheader', { name: /frame-09999\.png/ })).toBeNull();
    // The scroll bar tells the whole folder's length already: the rows not listed yet take their room.
    const room = [...document.querySelectorAll<HTMLElement>('tr[aria-hidden="true"] td')].reduce((sum, td) => sum + Number.parseFloat(td.style.height), 0);
    expect(room + screen.getAllByRole('rowheader').length * 53).toBe(10_000 * 53);

    fireEvent.click(screen.getByRole('button', { name: 'Grid' }));
    const cards = within(await screen.findByRole('list', { name: 'Contents of Social' })).getAllByRole('listitem');
    expect(cards[0]?.getAttribute('aria-label')).toBe('frame-00000.png');
    expect(cards[0]?.getAttribute('aria-setsize')).toBe('10000');

    rest[0]?.(many);
    fireEvent.click(screen.getByRole('button', { name: 'List' }));
    await screen.findByRole('rowheader', { name: /frame-00000\.png/ });
    expect(screen.getByRole('table').getAttribute('aria-rowcount')).toBe('10001');
    expect(bridge.requestsTo('listFiles')).toHaveLength(1);
  });

  it('renders a window of the grid too', async () => {
    localStorage.setItem('asset-sync.files-layout', 'grid');
    renderApp({ listFiles: () => many, mediaThumbnails: ({ items }) => items.map(() => thumbnailRef()) }, FILES);
    const list = await screen.findByRole('list', { name: 'Contents of Social' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards.length).toBeLessThan(50);
    expect(cards[0]?.getAttribute('aria-setsize')).toBe('10000');
  });
});
