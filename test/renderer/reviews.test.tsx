// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Responses } from '../../shared/ipc.js';
import { never } from './memory-bridge.js';
import { renderApp } from './render-app.js';
import { review, version, WS } from './fixtures.js';

const REVIEWS = { view: 'reviews' } as const;
type Lists = Responses['listReviews'];
const section = (name: RegExp) => screen.getByRole('heading', { name }).parentElement as HTMLElement;
const card = (name: string) => screen.getByRole('listitem', { name });

describe('Reviews screen', () => {
  it('says it is loading until the reviews arrive', async () => {
    renderApp({ listReviews: () => never() }, REVIEWS);
    expect(await screen.findByText('Loading your reviews…')).toBeTruthy();
  });

  it('shows why the reviews could not be loaded', async () => {
    renderApp({ listReviews: () => Promise.reject(new Error("Error invoking remote method 'listReviews': Error: You are offline.")) }, REVIEWS);
    expect((await screen.findByRole('alert')).textContent).toContain('Could not load your reviews: You are offline.');
  });

  it('says when nobody is waiting on the user', async () => {
    renderApp({}, REVIEWS);
    expect(await screen.findByText('Nobody is waiting for your review.')).toBeTruthy();
    expect(screen.getByText('No change is requested from you.')).toBeTruthy();
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

  it('approves with a comment, then shows the refreshed list', async () => {
    let lists: Lists = { reviewRequests: [review({ read: false })], changeRequests: [] };
    const { bridge } = renderApp(
      {
        listReviews: () => lists,
        decideReview: () => {
          lists = { reviewRequests: [], changeRequests: [] };
          return { reviewId: 'review-1' };
        },
      },
      REVIEWS,
    );
    await screen.findByRole('listitem', { name: 'hero.psd' });
    fireEvent.change(screen.getByLabelText('Comment for Rafael Reviewer'), { target: { value: 'Looks good, ship it.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Nobody is waiting for your review.')).toBeTruthy();
    expect(bridge.requestsTo('decideReview')).toEqual([
      { workspaceId: WS, assetId: 'asset-hero', versionId: 'v3', status: 'approved', content: 'Looks good, ship it.' },
    ]);
  });

  it('shows why a decision failed and keeps the comment', async () => {
    renderApp({ listReviews: () => ({ reviewRequests: [review()], changeRequests: [] }), decideReview: () => Promise.reject(new Error('The review request was withdrawn.')) }, REVIEWS);
    await screen.findByRole('listitem', { name: 'hero.psd' });
    fireEvent.change(screen.getByLabelText('Comment for Rafael Reviewer'), { target: { value: 'Too dark.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('The review request was withdrawn.')).toBeTruthy();
    expect((screen.getByLabelText('Comment for Rafael Reviewer') as HTMLTextAreaElement).value).toBe('Too dark.');
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

  it('opens the asset and shows the version in question', async () => {
    const { bridge } = renderApp(
      { listReviews: () => ({ reviewRequests: [review()], changeRequests: [] }), openAsset: () => ({ path: 'Campaigns/hero.psd', opened: true }), listVersions: () => [version(2), version(3, { current: true })] },
      REVIEWS,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Open hero.psd' }));
    expect(await screen.findByRole('heading', { name: 'Versions of hero.psd' })).toBeTruthy();
    const inReview = (await screen.findByText('in review')).closest('tr') as HTMLElement;
    expect(within(inReview).getByRole('rowheader').textContent).toMatch(/^Version 3/);
    expect(bridge.requestsTo('openAsset')).toEqual([{ workspaceId: WS, assetId: 'asset-hero', runConfirmed: false }]);
  });

  it('says when the asset in question is not synced here', async () => {
    renderApp({ listReviews: () => ({ reviewRequests: [review()], changeRequests: [] }), openAsset: () => ({ path: null, opened: false }) }, REVIEWS);
    fireEvent.click(await screen.findByRole('button', { name: 'Open hero.psd' }));
    expect(await screen.findByText('hero.psd is not in your synced folders yet.')).toBeTruthy();
  });
});
