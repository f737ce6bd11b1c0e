// @vitest-environment jsdom
/**
 * Every view that waits on an answer, in each of its states as the user meets them: loading (it
 * says so, as a status), empty (it says what would be there and how it gets there), an error (an
 * alert saying what could not be loaded and why, with "Try again", which loads it), and ready.
 * Each view's own tests go into what it shows when ready; this file holds them all to the same
 * four states.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ActivityItem } from '../../shared/engine.js';
import type { Channel } from '../../shared/ipc.js';
import type { Route } from '../../renderer/src/store/route.js';
import { never, type Handlers } from './memory-bridge.js';
import { renderApp } from './render-app.js';
import { conflict, decided, file, preview, review, settings, status, thumbnailRef, version, WS } from './fixtures.js';

const FAILURE = 'The service cannot be reached.';
const pictures: Handlers = {
  mediaThumbnails: ({ items }) => items.map(() => thumbnailRef()),
  mediaPreview: ({ item }) => preview({ versionId: item.versionId ?? 'v3', versionNumber: Number(item.versionId?.slice(1) ?? 3) }),
};
const REMOTE = [
  { id: WS, name: 'Spring Campaign', synced: true },
  { id: 'ws-archive', name: 'Archive', synced: false },
];
const signedIn: Handlers = { getSettings: () => settings(), listRemoteWorkspaces: () => REMOTE, listRemoteFolders: () => [{ id: 'f1', path: 'Brand' }] };
const DELETED: ActivityItem = { at: '2025-03-14T10:02:00.000Z', workspaceId: WS, kind: 'deleted', path: 'Old/draft.psd', message: 'Deleted Old/draft.psd on the service (restorable there)' };

interface ViewStates {
  view: string;
  route: Route;
  /** The call whose answer the view waits on. */
  channel: Channel;
  /** What else the view asks for, answered. */
  needs?: Handlers;
  /** Before the test: a choice stored on this computer. */
  arrange?: () => void;
  /** From the route to the view, as the user gets there. */
  open?: () => Promise<void>;
  /** What the view calls what it loads: "Loading {what}…", "Could not load {what}: …". */
  what: string;
  ready: unknown;
  /** Finds something only the ready view shows. */
  shows: () => Promise<unknown>;
  /** The answer with nothing in it, and what the view then says. */
  empty?: { answer: unknown; says: RegExp };
}

const FILES: Route = { view: 'files', workspaceId: WS, folder: 'Social' };
const VERSIONS: Route = { view: 'versions', workspaceId: WS, path: 'Campaigns/hero.psd', assetId: 'asset-hero' };
const COMPARE: Route = { view: 'compare', workspaceId: WS, path: 'Brand/logo-mark.png', a: null, b: null };
const STORY = [file({ name: 'story.png', path: 'Social/story.png', assetId: 'asset-story' })];

const VIEWS: ViewStates[] = [
  {
    view: 'Files as a list',
    route: FILES,
    channel: 'listFiles',
    needs: pictures,
    what: 'this folder',
    ready: STORY,
    shows: () => screen.findByRole('rowheader', { name: /story\.png/ }),
    empty: { answer: [], says: /^This folder is empty\. Files put in it, on this computer or on the service, are listed here/ },
  },
  {
    view: 'Files as a grid',
    route: FILES,
    channel: 'listFiles',
    needs: pictures,
    arrange: () => localStorage.setItem('asset-sync.files-layout', 'grid'),
    what: 'this folder',
    ready: STORY,
    shows: () => screen.findByRole('listitem', { name: 'story.png' }),
    empty: { answer: [], says: /^This folder is empty\./ },
  },
  {
    view: 'Preview',
    route: { view: 'preview', workspaceId: WS, path: 'Social/story.png', assetId: 'asset-story', versionId: null, name: 'story.png', under: FILES },
    channel: 'mediaPreview',
    needs: { listFiles: () => STORY, listVersions: () => [version(3, { current: true })], mediaThumbnails: pictures.mediaThumbnails },
    what: 'the preview of story.png',
    ready: preview({ name: 'story.png' }),
    shows: () => screen.findByRole('img', { name: 'story.png, version 3' }),
  },
  {
    view: 'Versions',
    route: VERSIONS,
    channel: 'listVersions',
    needs: pictures,
    what: 'the versions',
    ready: [version(1), version(2, { current: true })],
    shows: () => screen.findByRole('listitem', { name: /^Version 2/ }),
    empty: { answer: [], says: /^This file has no versions on the service yet: its first is made when it is uploaded\./ },
  },
  {
    view: 'Compare',
    route: COMPARE,
    channel: 'listVersions',
    needs: pictures,
    what: 'the versions',
    ready: [version(1), version(2, { current: true })],
    shows: () => screen.findByRole('combobox', { name: 'Left' }),
    empty: { answer: [version(1, { current: true })], says: /has only one version: there is nothing to compare yet/ },
  },
  {
    view: 'Compare, one version’s picture',
    route: COMPARE,
    channel: 'mediaPreview',
    needs: { listVersions: () => [version(1), version(2, { current: true })] },
    what: 'version 2',
    ready: preview({ versionId: 'v2', versionNumber: 2 }),
    shows: () => screen.findByRole('img', { name: 'Version 2' }),
  },
  {
    view: 'Reviews',
    route: { view: 'reviews' },
    channel: 'listReviews',
    needs: pictures,
    what: 'your reviews',
    ready: { reviewRequests: [review()], changeRequests: [] },
    shows: () => screen.findByText('Could you review this before Friday?'),
    empty: { answer: { reviewRequests: [], changeRequests: [] }, says: /^Nobody is waiting for your review\.$/ },
  },
  {
    view: 'Decided reviews',
    route: { view: 'reviews' },
    channel: 'listDecided',
    needs: pictures,
    what: 'your decisions',
    ready: [decided()],
    shows: () => screen.findByText(/The sky is too dark\./),
    empty: { answer: [], says: /^Your approvals and rejections will be listed here\.$/ },
  },
  {
    view: 'Conflicts',
    route: { view: 'conflicts' },
    channel: 'listConflicts',
    needs: pictures,
    what: 'the conflicts',
    ready: [conflict()],
    shows: () => screen.findByRole('listitem', { name: 'Brand/palette.png' }),
    empty: { answer: [], says: /^No conflicts\. When a file changes on this computer and on the service at the same time/ },
  },
  {
    view: 'Status',
    route: { view: 'status' },
    channel: 'getStatus',
    what: 'the sync status',
    ready: status(),
    shows: () => screen.findByTestId('overall-state'),
    empty: { answer: status({ workspaces: [] }), says: /^No workspace is synced yet\. Choose one in Settings\.$/ },
  },
  {
    view: 'Recent activity',
    route: { view: 'status' },
    channel: 'getActivity',
    what: 'recent activity',
    ready: [DELETED],
    shows: () => screen.findByText(/Deleted Old\/draft\.psd/),
    empty: { answer: [], says: /^Nothing has happened yet\. Files synced, versions made and reviews asked for are listed here/ },
  },
  {
    view: 'Settings',
    route: { view: 'settings' },
    channel: 'getSettings',
    needs: signedIn,
    what: 'your settings',
    ready: settings(),
    shows: () => screen.findByLabelText('Sync Archive'),
  },
  {
    view: 'Settings, the account’s workspaces',
    route: { view: 'settings' },
    channel: 'listRemoteWorkspaces',
    needs: signedIn,
    what: "the account's workspaces",
    ready: REMOTE,
    shows: () => screen.findByLabelText('Sync Archive'),
    empty: { answer: [], says: /^This account has no workspace yet\. Create one on the service, then open Settings again/ },
  },
  {
    view: 'Settings, the folders to sync',
    route: { view: 'settings' },
    channel: 'listRemoteFolders',
    needs: signedIn,
    open: async () => {
      fireEvent.click((await screen.findAllByRole('button', { name: 'Choose folders' }))[0] as HTMLElement);
    },
    what: 'the folders',
    ready: [{ id: 'f1', path: 'Brand' }],
    shows: () => screen.findByLabelText('Brand'),
    empty: { answer: [], says: /^This workspace has no folders: all of it is synced\.$/ },
  },
];

/** The app at the view's route with `answer` for its channel; the rest answered. */
async function show(v: ViewStates, answer: () => unknown) {
  v.arrange?.();
  const app = renderApp({ ...v.needs, [v.channel]: answer } as Handlers, v.route);
  await v.open?.();
  return app;
}

describe.each(VIEWS)('$view', (v) => {
  it('says it is loading, as a status', async () => {
    await show(v, () => never());
    const loading = await screen.findByText(`Loading ${v.what}…`);
    expect(loading.getAttribute('role')).toBe('status');
  });

  it('says what could not be loaded and why, and loads it on "Try again"', async () => {
    let fail = true;
    const { bridge } = await show(v, () => (fail ? Promise.reject(new Error(FAILURE)) : v.ready));
    const said = `Could not load ${v.what}: ${FAILURE}`;
    const alert = await waitFor(() => {
      const found = screen.queryAllByRole('alert').find((a) => a.textContent?.includes(said));
      if (!found) throw new Error(`No alert says "${said}"; the alerts: ${screen.queryAllByRole('alert').map((a) => a.textContent).join(' | ')}`);
      return found;
    });
    // A folder is asked for by its first page (listFilesFirst), then whole.
    const asks = () => bridge.calls.filter((c) => c.channel.startsWith(v.channel)).length;
    const asked = asks();
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await v.shows()).toBeTruthy();
    expect(asks()).toBeGreaterThan(asked);
  });

  it('shows what it loaded', async () => {
    await show(v, () => v.ready);
    expect(await v.shows()).toBeTruthy();
    expect(screen.queryByText(`Loading ${v.what}…`)).toBeNull();
  });

  it.runIf(v.empty)('says when there is nothing, and what would be there', async () => {
    await show(v, () => v.empty?.answer);
    expect(await screen.findByText(v.empty?.says ?? /./)).toBeTruthy();
  });
});
