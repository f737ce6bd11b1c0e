import { useId, useRef, useState } from 'react';
import type { ReviewItem } from '../../../shared/ipc.js';
import { ActionStatus, useAction } from '../components/ActionStatus.js';
import { LoadableView } from '../components/Loadable.js';
import { ScreenHeading } from '../components/ScreenHeading.js';
import { formatDate, plural } from '../format.js';
import { useServices, useUiState } from '../store/context.js';
import { openAssetAndShowVersions } from '../store/open-asset.js';

/** Unread first, then newest first. */
function byUnreadThenNewest(a: ReviewItem, b: ReviewItem): number {
  return Number(a.read) - Number(b.read) || (b.at ?? '').localeCompare(a.at ?? '');
}

export function ReviewsScreen() {
  const { reviews } = useUiState();
  const { store } = useServices();
  return (
    <section aria-labelledby="reviews-heading">
      <ScreenHeading id="reviews-heading">Reviews</ScreenHeading>
      <LoadableView value={reviews} what="your reviews" onRetry={() => void store.reloadReviews()}>
        {(lists) => (
          <>
            <MarkAllRead items={[...lists.reviewRequests, ...lists.changeRequests]} />
            <ReviewSection
              id="review-requests"
              title="Review requests"
              empty="Nobody is waiting for your review."
              items={lists.reviewRequests}
              decidable
            />
            <ReviewSection id="change-requests" title="Change requests" empty="No change is requested from you." items={lists.changeRequests} decidable={false} />
          </>
        )}
      </LoadableView>
    </section>
  );
}

/** Read state is kept on this computer (the service's requests have none): it only clears the "new" marks and the badge. */
function MarkAllRead({ items }: { items: ReviewItem[] }) {
  const { store } = useServices();
  const { outcome, run } = useAction();
  const unread = items.filter((i) => !i.read);
  return (
    <div className="review-tools">
      {unread.length > 0 && (
        <button type="button" disabled={outcome.kind === 'busy'} onClick={() =>
            void run(async () => {
              await store.markReviewsRead(unread);
              // The button goes away: the keyboard focus goes back to the screen's heading.
              document.getElementById('reviews-heading')?.focus({ preventScroll: true });
              return `Marked ${plural(unread.length, 'request')} as read.`;
            })
          }
        >
          Mark all as read
        </button>
      )}
      <ActionStatus outcome={outcome} />
    </div>
  );
}

function ReviewSection({ id, title, empty, items, decidable }: { id: string; title: string; empty: string; items: ReviewItem[]; decidable: boolean }) {
  const unread = items.filter((i) => !i.read).length;
  return (
    <section aria-labelledby={`${id}-heading`} className="panel">
      <h3 id={`${id}-heading`}>
        {title} ({items.length}
        {unread > 0 && `, ${unread} new`})
      </h3>
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="review-list">
          {[...items].sort(byUnreadThenNewest).map((item) => (
            <ReviewCard key={item.remoteKey} item={item} decidable={decidable} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ReviewCard({ item, decidable }: { item: ReviewItem; decidable: boolean }) {
  const { bridge, store } = useServices();
  const { outcome, run } = useAction();
  const [comment, setComment] = useState('');
  const commentId = useId();
  const nameId = useId();
  const openButton = useRef<HTMLButtonElement>(null);
  const workspaceId = item.workspaceId;
  const what = item.kind === 'review_request' ? 'asks for your review' : 'requests changes';

  const decide = (status: 'approved' | 'rejected') =>
    void run(async () => {
      if (!workspaceId) throw new Error('This asset is not in a synced workspace.');
      await bridge.invoke('decideReview', { workspaceId, assetId: item.assetId, versionId: item.versionId, status, content: comment });
      setComment('');
      void store.reloadReviews();
      return `${status === 'approved' ? 'Approved' : 'Rejected'} ${item.assetName}.`;
    });

  return (
    <li className={`review-card${item.read ? '' : ' unread'}`} aria-labelledby={nameId}>
      <div className="row-main">
        <strong className="file-name" id={nameId}>
          {item.assetName}
        </strong>
        {!item.read && <span className="badge">new</span>}
      </div>
      <p className="muted small">
        {item.from} {what} · {formatDate(item.at)}
      </p>
      {item.message && <p className="review-message">{item.message}</p>}
      <div className="actions">
        <button
          ref={openButton}
          type="button"
          className="truncate"
          title={`Open ${item.assetName}`}
          disabled={!workspaceId}
          onClick={() =>
            void run(async () =>
              workspaceId ? openAssetAndShowVersions(bridge, store, { workspaceId, assetId: item.assetId, versionId: item.versionId, name: item.assetName }) : null,
            )
          }
        >
          Open {item.assetName}
        </button>
        {!item.read && (
          <button
            type="button"
            disabled={outcome.kind === 'busy'}
            onClick={() =>
              void run(async () => {
                await store.markReviewsRead([item]);
                // The button goes away: the keyboard focus stays on the card.
                openButton.current?.focus();
                return `Marked ${item.assetName} as read.`;
              })
            }
          >
            Mark as read
          </button>
        )}
      </div>
      {decidable && (
        <form
          className="decide"
          onSubmit={(e) => {
            e.preventDefault();
            decide('approved');
          }}
        >
          <label htmlFor={commentId}>Comment for {item.from}</label>
          <textarea id={commentId} value={comment} onChange={(e) => setComment(e.target.value)} rows={2} maxLength={10_000} />
          <div className="actions">
            <button type="submit" className="primary" disabled={outcome.kind === 'busy' || !workspaceId}>
              Approve
            </button>
            <button type="button" disabled={outcome.kind === 'busy' || !workspaceId} onClick={() => decide('rejected')}>
              Reject
            </button>
          </div>
        </form>
      )}
      <ActionStatus outcome={outcome} />
    </li>
  );
}
