// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Responses } from '../../shared/ipc.js';
import { startBrowserNotifications } from '../../renderer/src/store/browser-notifications.js';
import { never } from './memory-bridge.js';
import { renderApp } from './render-app.js';
import { MEMBERS, comment, decided, preview, review, thumbnailRef, version, WS } from './fixtures.js';

const REVIEWS = { view: 'reviews' } as const;
type Lists = Responses['listReviews'];
const section = (name: RegExp) => screen.getByRole('heading', { name }).parentElement as HTMLElement;
const card = (name: string) => screen.getByRole('listitem', { name });
const oneRequest = (): Lists => ({ reviewRequests: [review({ read: false })], changeRequests: [] });

describe('Reviews screen', () => {
  it('says it is loading until the reviews arrive', async () => {
    renderApp({ listReviews: () => never() }, REVIEWS);
    expect(await screen.findByText('Loading your reviews…')).toBeTruthy();
  });

  it('shows why the reviews could not be loaded', async () => {
    renderApp({ listReviews: () => Promise.reject(new Error("Error invoking remote method 'listReviews': Error: You are offline.")) }, REVIEWS);
    expect((await screen.findByRole('alert')).textContent).toContain('Could not load your reviews: You are offline.');
  });

  it('says when nobody is waiting on the user, and that decisions will be listed', async () => {
    renderApp({}, REVIEWS);
    expect(await screen.findByText('Nobody is waiting for your review.')).toBeTruthy();
    expect(screen.getByText('No change is requested from you.')).toBeTruthy();
    expect(await screen.findByText('Your approvals and rejections will be listed here.')).toBeTruthy();
  });

  it('lists review and change requests, unread first, and counts the unread in the navigation', async () => {
    const lists: Lists = {
      reviewRequests: [
        review({ remoteKey: 'a', assetName: 'poster-a2.indd', at: '2025-03-14T09:00:00.000Z', read: true }),
        review({ remoteKey: 'b', assetName: 'flyer.ai', at: '2025-03-13T09:00:00.000Z', read: false }),
      ],
      changeRequests: [review({ kind: 'change_request', remoteKey: 'c', assetName: 'logo-mark.png', message: 'Please increase the contrast.', read: false })],
    };
    renderApp({ listReviews: () => lists }, REVIEWS);
    await screen.findByRole('heading', { name: 'Review requests (2, 1 new)' });
    const names = within(section(/^Review requests/)).getAllByRole('listitem').map((li) => li.querySelector('strong')?.textContent);
    expect(names).toEqual(['flyer.ai', 'poster-a2.indd']);
    expect(within(card('flyer.ai')).getByText('new')).toBeTruthy();
    const change = within(section(/^Change requests/)).getByRole('listitem', { name: 'logo-mark.png' });
    expect(within(change).getByText('Please increase the contrast.')).toBeTruthy();
    expect(within(change).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.getByRole('button', { name: /^Reviews\s*, 2 new$/ }).getAttribute('aria-current')).toBe('page');
  });

  it("shows the request in context: the version's picture, its folder and number, who asked and when", async () => {
    const { bridge } = renderApp({ listReviews: oneRequest, mediaThumbnails: () => [thumbnailRef()] }, REVIEWS);
    const hero = await screen.findByRole('listitem', { name: 'hero.psd' });
    const picture = (await within(hero).findByRole('img', { name: 'hero.psd, version 3' })) as HTMLImageElement;
    expect(picture.getAttribute('src')).toBe('/media/thumb.webp');
    expect(within(hero).getByText(/^Campaigns\/Spring\/Social ·/)).toBeTruthy();
    expect(within(hero).getByText('Version 3')).toBeTruthy();
    expect(within(hero).getByText(/^Rafael Reviewer asks for your review ·/)).toBeTruthy();
    expect(within(hero).getByText('Could you review this before Friday?')).toBeTruthy();
    expect(bridge.requestsTo('mediaThumbnails')).toEqual([{ workspaceId: WS, items: [{ assetId: 'asset-hero', versionId: 'v3' }], size: 'grid' }]);
  });

  it('shows the type of a version that has no picture', async () => {
    renderApp({ listReviews: oneRequest, mediaThumbnails: () => [thumbnailRef({ show: 'icon', url: null, reason: 'unsupported', type: { category: 'document', format: 'docx', mime: null, fromBytes: true } })] }, REVIEWS);
    const hero = await screen.findByRole('listitem', { name: 'hero.psd' });
    const icon = await within(hero).findByRole('img', { name: 'hero.psd, version 3' });
    expect(icon.getAttribute('title')).toContain('(DOCX)');
    expect(icon.querySelector('img')).toBeNull();
  });

  it("opens that version's preview in a dialog, and closes it back to the card", async () => {
    const { bridge } = renderApp({ listReviews: oneRequest, mediaPreview: () => preview({ name: 'hero.psd', url: '/media/hero-v3.webp' }) }, REVIEWS);
    const open = await screen.findByRole('button', { name: 'Open version 3 of hero.psd' });
    open.focus();
    fireEvent.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'hero.psd, version 3' });
    expect(((await within(dialog).findByRole('img', { name: 'hero.psd, version 3' })) as HTMLImageElement).getAttribute('src')).toBe('/media/hero-v3.webp');
    expect(within(dialog).getByText('1600 × 1000 px')).toBeTruthy();
    expect(bridge.requestsTo('mediaPreview')).toEqual([{ workspaceId: WS, item: { assetId: 'asset-hero', versionId: 'v3' }, page: 1 }]);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open version 3 of hero.psd' }));
  });

  it('turns the pages of a PDF in the preview', async () => {
    const { bridge } = renderApp(
      { listReviews: oneRequest, mediaPreview: (r) => preview({ view: 'pdf', page: r.page ?? 1, pages: 3, url: `/media/page-${r.page ?? 1}.webp` }) },
      REVIEWS,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Open version 3 of hero.psd' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Page 1 of 3')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next page' }));
    expect(await within(dialog).findByText('Page 2 of 3')).toBeTruthy();
    expect(bridge.requestsTo('mediaPreview').map((r) => r.page)).toEqual([1, 2]);
  });

  it('says why a preview could not be made', async () => {
    renderApp({ listReviews: oneRequest, mediaPreview: () => Promise.reject(new Error('The service cannot be reached. Check the connection.')) }, REVIEWS);
    fireEvent.click(await screen.findByRole('button', { name: 'Open version 3 of hero.psd' }));
    const dialog = await screen.findByRole('dialog');
    // An alert region may be in place before the refusal comes back and fills it.
    await waitFor(() => {
      const alerts = within(dialog).getAllByRole('alert');
      expect(alerts.map((a) => a.textContent).join('\n')).toContain('Could not load the preview of hero.psd: The service cannot be reached.');
    });
  });

  it('asks for a reason before rejecting, in the field, and sends nothing without one', async () => {
    const { bridge } = renderApp({ listReviews: oneRequest }, REVIEWS);
    await screen.findByRole('listitem', { name: 'hero.psd' });
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    const field = screen.getByLabelText('Comment for Rafael Reviewer');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const error = document.getElementById(field.getAttribute('aria-describedby') ?? '');
    expect(error?.textContent).toBe('Say why you reject it: the reason goes to the colleague who asked.');
    expect(document.activeElement).toBe(field);
    expect(bridge.requestsTo('decideReview')).toEqual([]);
    fireEvent.change(field, { target: { value: 'Too dark.' } });
    expect(field.getAttribute('aria-invalid')).toBe('false');
  });

  it('rejects with a reason; the card says what was decided, and Undo opens the request again', async () => {
    let lists = oneRequest();
    const { bridge } = renderApp(
      {
        listReviews: () => lists,
        decideReview: (r) => {
          lists = { reviewRequests: [], changeRequests: [] };
          return { reviewId: 'review-1', decision: decided({ status: r.status, content: r.content }) };
        },
        undoDecision: () => {
          lists = oneRequest();
          return { ok: true };
        },
      },
      REVIEWS,
    );
    await screen.findByRole('listitem', { name: 'hero.psd' });
    fireEvent.change(screen.getByLabelText('Comment for Rafael Reviewer'), { target: { value: 'The sky is too dark.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('You rejected version 3 of hero.psd: “The sky is too dark.”')).toBeTruthy();
    expect(bridge.requestsTo('decideReview')).toEqual([{ workspaceId: WS, assetId: 'asset-hero', versionId: 'v3', status: 'rejected', content: 'The sky is too dark.' }]);
    expect(screen.getByRole('heading', { name: 'Review requests (0)' })).toBeTruthy();
    const undo = screen.getByRole('button', { name: 'Undo' });
    expect(document.activeElement).toBe(undo);

    fireEvent.click(undo);
    expect(await screen.findByRole('heading', { name: 'Review requests (1, 1 new)' })).toBeTruthy();
    expect(await screen.findByLabelText('Comment for Rafael Reviewer')).toBeTruthy();
    expect(bridge.requestsTo('undoDecision')).toEqual([{ workspaceId: WS, assetId: 'asset-hero', reviewId: 'review-1' }]);
  });

  it('shows why a decision failed and keeps the comment', async () => {
    renderApp({ listReviews: () => ({ reviewRequests: [review()], changeRequests: [] }), decideReview: () => Promise.reject(new Error('The review request was withdrawn.')) }, REVIEWS);
    await screen.findByRole('listitem', { name: 'hero.psd' });
    fireEvent.change(screen.getByLabelText('Comment for Rafael Reviewer'), { target: { value: 'Too dark.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('The review request was withdrawn.')).toBeTruthy();
    expect((screen.getByLabelText('Comment for Rafael Reviewer') as HTMLTextAreaElement).value).toBe('Too dark.');
  });

  it('lists past decisions, and changes or withdraws one', async () => {
    let list = [decided(), decided({ reviewId: 'review-2', assetName: 'story-01.png', status: 'approved', content: '', versionNumber: 2 })];
    const { bridge } = renderApp(
      {
        listDecided: () => list,
        changeDecision: (r) => {
          list = list.map((d) => (d.reviewId === r.reviewId ? { ...d, status: r.status } : d));
          return decided({ status: r.status });
        },
        undoDecision: (r) => {
          list = list.filter((d) => d.reviewId !== r.reviewId);
          return { ok: true };
        },
      },
      REVIEWS,
    );
    const table = (await screen.findByRole('table', { name: 'Your decisions, newest first' })) as HTMLElement;
    const hero = within(table).getByRole('row', { name: /hero\.psd/ });
    expect(within(hero).getByText('Rejected')).toBeTruthy();
    expect(within(hero).getByText('“The sky is too dark.”')).toBeTruthy();
    // Without a reason, an approval cannot become a rejection.
    const story = within(table).getByRole('row', { name: /story-01\.png/ });
    expect(within(story).queryByRole('button', { name: /to rejected/ })).toBeNull();

    fireEvent.click(within(hero).getByRole('button', { name: 'Change hero.psd to approved' }));
    expect(await screen.findByText('hero.psd is approved now.')).toBeTruthy();
    expect(bridge.requestsTo('changeDecision')).toEqual([{ workspaceId: WS, assetId: 'asset-hero', reviewId: 'review-1', status: 'approved', content: 'The sky is too dark.' }]);
    fireEvent.click(within(table).getByRole('button', { name: 'Withdraw the decision on story-01.png' }));
    await waitFor(() => expect(within(screen.getByRole('table')).queryByRole('row', { name: /story-01\.png/ })).toBeNull());
  });

  it("reads the asset's comments, and adds one that mentions a colleague and carries a file", async () => {
    const thread = [comment()];
    const { bridge } = renderApp(
      {
        listReviews: oneRequest,
        listComments: () => [...thread],
        listMembers: () => MEMBERS,
        addComment: (r) => {
          const added = comment({ id: 'c2', author: 'Dana Designer', content: r.content, yours: true, mentions: [{ userId: 'u-mina', name: 'Mina Motion' }], attachments: [{ id: null, name: 'notes.txt' }] });
          thread.push(added);
          return added;
        },
      },
      REVIEWS,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Comments on hero.psd' }));
    const comments = await screen.findByRole('region', { name: 'Comments on hero.psd' });
    expect(await within(comments).findByText('The horizon is tilted.')).toBeTruthy();
    expect(within(comments).getByText('Mentions Dana Designer')).toBeTruthy();
    expect(within(comments).getByText('horizon-markup.png')).toBeTruthy();

    fireEvent.change(within(comments).getByLabelText('Add a comment on hero.psd'), { target: { value: 'Mina, can you check the motion version?' } });
    fireEvent.click(await within(comments).findByRole('checkbox', { name: 'Mina Motion' }));
    expect(within(comments).queryByRole('checkbox', { name: 'Dana Designer' })).toBeNull();
    const file = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    fireEvent.change(within(comments).getByLabelText(/^Attach files/), { target: { files: [file] } });
    await waitFor(() => expect((within(comments).getByRole('button', { name: 'Comment' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(within(comments).getByRole('button', { name: 'Comment' }));
    expect(await within(comments).findByText('Mina, can you check the motion version?')).toBeTruthy();
    expect(bridge.requestsTo('addComment')).toEqual([
      { workspaceId: WS, assetId: 'asset-hero', content: 'Mina, can you check the motion version?', mentions: ['u-mina'], attachments: [{ name: 'notes.txt', dataBase64: btoa('hello') }] },
    ]);
  });

  it('says the comments are loading, and why they could not be loaded, then loads them on a retry', async () => {
    let answer: () => Promise<Responses['listComments']> = () => never();
    renderApp({ listReviews: oneRequest, listComments: () => answer(), listMembers: () => MEMBERS }, REVIEWS);
    fireEvent.click(await screen.findByRole('button', { name: 'Comments on hero.psd' }));
    const comments = await screen.findByRole('region', { name: 'Comments on hero.psd' });
    expect(await within(comments).findByText('Loading the comments…')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Comments on hero.psd' }));
    answer = () => Promise.reject(new Error('The service cannot be reached. Check the connection.'));
    fireEvent.click(screen.getByRole('button', { name: 'Comments on hero.psd' }));
    const again = await screen.findByRole('region', { name: 'Comments on hero.psd' });
    expect(await within(again).findByText(/^Could not load the comments: The service cannot be reached/)).toBeTruthy();
    answer = async () => [comment()];
    fireEvent.click(within(again).getByRole('button', { name: /^Try again/ }));
    expect(await within(again).findByText('The horizon is tilted.')).toBeTruthy();
  });

  it('says why the Decided list could not be loaded', async () => {
    renderApp({ listDecided: () => Promise.reject(new Error('The index could not be read.')) }, REVIEWS);
    expect(await screen.findByText(/^Could not load your decisions: The index could not be read/)).toBeTruthy();
  });

  it('refuses attachments larger than a comment can carry, saying so at the field', async () => {
    renderApp({ listReviews: oneRequest, listComments: () => [], listMembers: () => MEMBERS }, REVIEWS);
    fireEvent.click(await screen.findByRole('button', { name: 'Comments on hero.psd' }));
    const comments = await screen.findByRole('region', { name: 'Comments on hero.psd' });
    expect(await within(comments).findByText('No comments yet.')).toBeTruthy();
    const big = new File([new Uint8Array(600 * 1024)], 'scan.tiff');
    const input = within(comments).getByLabelText(/^Attach files/);
    fireEvent.change(input, { target: { files: [big] } });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Attachments can hold 512 KB together; these hold 600 KB.');
  });

  it('lists a review request as it arrives', async () => {
    let lists: Lists = { reviewRequests: [], changeRequests: [] };
    const { bridge } = renderApp({ listReviews: () => lists }, REVIEWS);
    await screen.findByText('Nobody is waiting for your review.');
    const arrived = review({ remoteKey: 'new-1', assetName: 'story-01.png', read: false });
    lists = { reviewRequests: [arrived], changeRequests: [] };
    bridge.emit('review', arrived);
    expect(await screen.findByRole('listitem', { name: 'story-01.png' })).toBeTruthy();
  });

  it('opens on the request a notification names', async () => {
    renderApp({ listReviews: () => ({ reviewRequests: [review({ remoteKey: 'a', assetName: 'a.png' }), review({ remoteKey: 'b', assetName: 'b.png' })], changeRequests: [] }) }, { view: 'reviews', focus: 'b' });
    const target = await screen.findByRole('listitem', { name: 'b.png' });
    await waitFor(() => expect(document.activeElement).toBe(target));
  });

  it('shows all versions of the asset, the version in question marked', async () => {
    const { bridge } = renderApp(
      { listReviews: () => ({ reviewRequests: [review()], changeRequests: [] }), openAsset: () => ({ path: 'Campaigns/hero.psd', opened: true }), listVersions: () => [version(2), version(3, { current: true })] },
      REVIEWS,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'All versions of hero.psd' }));
    expect(await screen.findByRole('heading', { name: 'Versions of hero.psd' })).toBeTruthy();
    const inReview = (await screen.findByText('in review')).closest('li') as HTMLElement;
    expect(within(inReview).getByRole('heading').textContent).toMatch(/^Version 3/);
    expect(bridge.requestsTo('openAsset')).toEqual([{ workspaceId: WS, assetId: 'asset-hero', runConfirmed: false }]);
  });

  it('says when the asset in question is not synced here', async () => {
    renderApp({ listReviews: () => ({ reviewRequests: [review()], changeRequests: [] }), openAsset: () => ({ path: null, opened: false }) }, REVIEWS);
    fireEvent.click(await screen.findByRole('button', { name: 'All versions of hero.psd' }));
    expect(await screen.findByText('hero.psd is not in your synced folders yet.')).toBeTruthy();
  });
});

describe('browser notifications (web UI)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('asks for permission only from the button, and then notifies of a new request; a click opens it', async () => {
    const shown: Array<{ title: string; options: NotificationOptions; onclick: (() => void) | null; close(): void }> = [];
    const requestPermission = vi.fn(async () => {
      permission = 'granted';
      return 'granted' as const;
    });
    let permission: NotificationPermission = 'default';
    class FakeNotification {
      static get permission() {
        return permission;
      }
      static requestPermission = requestPermission;
      onclick: (() => void) | null = null;
      constructor(
        readonly title: string,
        readonly options: NotificationOptions,
      ) {
        shown.push(this);
      }
      close() {}
    }
    vi.stubGlobal('Notification', FakeNotification);
    const { bridge, store } = renderApp({}, REVIEWS);
    const stop = startBrowserNotifications(bridge, store);
    try {
      bridge.emit('review', review({ remoteKey: 'early' }));
      expect(shown).toEqual([]);
      expect(requestPermission).not.toHaveBeenCalled();
      fireEvent.click(await screen.findByRole('button', { name: 'Allow notifications' }));
      await waitFor(() => expect(screen.queryByRole('button', { name: 'Allow notifications' })).toBeNull());

      store.navigate({ view: 'status' });
      bridge.emit('review', review({ remoteKey: 'rr-9', assetName: 'story-02.webp', message: 'Motion pass ready' }));
      expect(shown.map((n) => [n.title, n.options.body])).toEqual([['Rafael Reviewer asks you to review story-02.webp', 'Motion pass ready']]);
      shown[0]?.onclick?.();
      expect(store.getState().route).toEqual({ view: 'reviews', focus: 'rr-9' });
    } finally {
      stop();
    }
  });
});
