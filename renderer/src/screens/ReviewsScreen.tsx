import { useEffect, useState } from 'react';
import type { DecidedReview, ReviewItem } from '../../../shared/ipc.js';
import { ActionStatus, useAction } from '../components/ActionStatus.js';
import { ActionsHeader, DataTable } from '../components/DataTable.js';
import { LoadableView } from '../components/Loadable.js';
import { ScreenHeading } from '../components/ScreenHeading.js';
import { Thumbnail } from '../components/Thumbnail.js';
import { formatDate, plural } from '../format.js';
import { browserNotifications } from '../store/browser-notifications.js';
import { useServices, useUiState } from '../store/context.js';
import { useQuery } from '../store/use-query.js';
import { ReviewCard, UNDO_SECONDS } from './ReviewCard.js';

/** Unread first, then newest first. */
function byUnreadThenNewest(a: ReviewItem, b: ReviewItem): number {
  return Number(a.read) - Number(b.read) || (b.at ?? '').localeCompare(a.at ?? '');
}

/** A decision just made: its card stays, saying so, while it can be undone there. */
interface JustDecided {
  item: ReviewItem;
  decision: DecidedReview;
}

export function ReviewsScreen({ focus }: { focus?: string | undefined }) {
  const { reviews } = useUiState();
  const { store } = useServices();
  const [recent, setRecent] = useState<JustDecided[]>([]);
  const [decidedGeneration, setDecidedGeneration] = useState(0);

  // Each decision leaves its card after the undo time; it is in the Decided list by then.
  useEffect(() => {
    if (recent.length === 0) return;
    const timer = setTimeout(() => setRecent((now) => now.slice(1)), UNDO_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [recent]);

  const decided = (item: ReviewItem, decision: DecidedReview) => {
    setRecent((now) => [...now.filter((r) => r.item.remoteKey !== item.remoteKey), { item, decision }]);
    setDecidedGeneration((g) => g + 1);
  };
  const undone = (item: ReviewItem) => {
    setRecent((now) => now.filter((r) => r.item.remoteKey !== item.remoteKey));
    setDecidedGeneration((g) => g + 1);
  };

  return (
    <section aria-labelledby="reviews-heading">
      <ScreenHeading id="reviews-heading">Reviews</ScreenHeading>
      <NotificationsOptIn />
      <LoadableView value={reviews} what="your reviews" onRetry={() => void store.reloadReviews()}>
        {(lists) => (
          <>
            <MarkAllRead items={[...lists.reviewRequests, ...lists.changeRequests]} />
            <ReviewSection
              id="review-requests"
              title="Review requests"
              empty="Nobody is waiting for your review."
              items={lists.reviewRequests}
              recent={recent}
              decidable
              focus={focus}
              onDecided={decided}
              onUndone={undone}
            />
            <ReviewSection
              id="change-requests"
              title="Change requests"
              empty="No change is requested from you."
              items={lists.changeRequests}
              recent={[]}
              decidable={false}
              focus={focus}
              onDecided={decided}
              onUndone={undone}
            />
          </>
        )}
      </LoadableView>
      <DecidedList generation={decidedGeneration} hidden={new Set(recent.map((r) => r.decision.reviewId))} onUndone={() => setDecidedGeneration((g) => g + 1)} />
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
        <button
          type="button"
          disabled={outcome.kind === 'busy'}
          onClick={() =>
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

function ReviewSection(props: {
  id: string;
  title: string;
  empty: string;
  items: ReviewItem[];
  recent: JustDecided[];
  decidable: boolean;
  focus: string | undefined;
  onDecided: (item: ReviewItem, decision: DecidedReview) => void;
  onUndone: (item: ReviewItem) => void;
}) {
  const { id, title, empty, items, recent, decidable, focus } = props;
  const unread = items.filter((i) => !i.read).length;
  const open = new Set(items.map((i) => i.remoteKey));
  // A decided request leaves the open list at once; its card stays while the decision can be undone.
  const shown = [...[...items].sort(byUnreadThenNewest).map((item) => ({ item, decision: recent.find((r) => r.item.remoteKey === item.remoteKey)?.decision ?? null })), ...recent.filter((r) => !open.has(r.item.remoteKey))];
  return (
    <section aria-labelledby={`${id}-heading`} className="panel">
      <h3 id={`${id}-heading`}>
        {title} ({items.length}
        {unread > 0 && `, ${unread} new`})
      </h3>
      {shown.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="review-list">
          {shown.map(({ item, decision }) => (
            <ReviewCard
              key={item.remoteKey}
              item={item}
              decidable={decidable}
              decided={decision}
              focused={focus === item.remoteKey}
              onDecided={(d) => props.onDecided(item, d)}
              onUndone={() => props.onUndone(item)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

/** The user's past decisions (kept on this computer), each still open to change or withdraw. */
function DecidedList({ generation, hidden, onUndone }: { generation: number; hidden: ReadonlySet<string>; onUndone: () => void }) {
  const { result, reload } = useQuery('listDecided', {}, String(generation));
  return (
    <section aria-labelledby="decided-heading" className="panel">
      <h3 id="decided-heading">Decided</h3>
      <LoadableView value={result} what="your decisions" onRetry={reload}>
        {(all) => {
          const decisions = all.filter((d) => !hidden.has(d.reviewId));
          if (decisions.length === 0) return <p className="muted">Your approvals and rejections will be listed here.</p>;
          return (
            <DataTable className="decided-table" caption="Your decisions, newest first">
              <thead>
                <tr>
                  <th scope="col">Asset</th>
                  <th scope="col">Decision</th>
                  <ActionsHeader />
                </tr>
              </thead>
              <tbody>
                {decisions.map((d) => (
                  <DecidedRow key={d.reviewId} decision={d} onChanged={reload} onUndone={onUndone} />
                ))}
              </tbody>
            </DataTable>
          );
        }}
      </LoadableView>
    </section>
  );
}

function DecidedRow({ decision: d, onChanged, onUndone }: { decision: DecidedReview; onChanged: () => void; onUndone: () => void }) {
  const { bridge, store } = useServices();
  const { outcome, run } = useAction();
  const version = d.versionNumber ? `version ${d.versionNumber}` : 'a version';
  const other = d.status === 'approved' ? 'rejected' : 'approved';
  return (
    <tr>
      <th scope="row">
        <span className="name-cell">
          <Thumbnail workspaceId={d.workspaceId} item={{ assetId: d.assetId, versionId: d.versionId }} size={40} alt={`${d.assetName}, ${version}`} />
          <span className="decided-asset">
            <span className="file-name">{d.assetName}</span>
            <span className="muted small">
              {version[0]?.toUpperCase()}
              {version.slice(1)}
              {d.folder ? ` · ${d.folder}` : ''}
            </span>
          </span>
        </span>
      </th>
      <td>
        <span className={`decision decision-${d.status}`}>{d.status === 'approved' ? 'Approved' : 'Rejected'}</span>
        <span className="muted small"> · {formatDate(d.decidedAt)}</span>
        {d.requestedBy && <span className="muted small"> · asked by {d.requestedBy}</span>}
        {d.content && <span className="decided-comment">“{d.content}”</span>}
      </td>
      <td className="actions decided-actions">
        {/* A rejection needs a reason: only a decision that has one can become a rejection here. */}
        {(other === 'approved' || d.content.trim() !== '') && (
          <button
            type="button"
            disabled={outcome.kind === 'busy'}
            aria-label={`Change ${d.assetName} to ${other}`}
            onClick={() =>
              void run(async () => {
                await bridge.invoke('changeDecision', { workspaceId: d.workspaceId, assetId: d.assetId, reviewId: d.reviewId, status: other, content: d.content });
                onChanged();
                return `${d.assetName} is ${other} now.`;
              })
            }
          >
            Make it {other}
          </button>
        )}
        <button
          type="button"
          disabled={outcome.kind === 'busy'}
          aria-label={`Withdraw the decision on ${d.assetName}`}
          onClick={() =>
            void run(async () => {
              await bridge.invoke('undoDecision', { workspaceId: d.workspaceId, assetId: d.assetId, reviewId: d.reviewId });
              await store.reloadReviews();
              onUndone();
              return `Withdrew the decision on ${d.assetName}: the request is open again.`;
            })
          }
        >
          Withdraw
        </button>
        <ActionStatus outcome={outcome} />
      </td>
    </tr>
  );
}

/**
 * In a browser, notifications need the user's yes, asked by a button of theirs (browsers ignore
 * a request no click made). The desktop app notifies by itself.
 */
function NotificationsOptIn() {
  const notifications = browserNotifications();
  const [permission, setPermission] = useState(notifications?.permission() ?? 'unsupported');
  if (notifications === null || permission === 'granted' || permission === 'unsupported') return null;
  if (permission === 'denied') return <p className="muted small">Notifications are blocked for this page in the browser's settings.</p>;
  return (
    <p className="notice">
      Be told of new review and change requests, and of files a colleague unlocks, while this page is open.{' '}
      <button type="button" onClick={() => void notifications.ask().then(setPermission)}>
        Allow notifications
      </button>
    </p>
  );
}
