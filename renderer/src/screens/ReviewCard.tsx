import { useEffect, useId, useRef, useState } from 'react';
import type { DecidedReview, ReviewItem } from '../../../shared/ipc.js';
import { ActionStatus, useAction } from '../components/ActionStatus.js';
import { CommentThread } from '../components/CommentThread.js';
import { Thumbnail } from '../components/Thumbnail.js';
import { formatDate } from '../format.js';
import { useServices } from '../store/context.js';
import { openAssetAndShowVersions } from '../store/open-asset.js';
import { useOpenPreview } from '../store/open-preview.js';

/** How long a decision can be taken back from its card, before it moves to the Decided list. */
export const UNDO_SECONDS = 10;

const REASON_NEEDED = 'Say why you reject it: the reason goes to the colleague who asked.';

export const versionWords = (item: Pick<ReviewItem, 'versionNumber'>): string => (item.versionNumber ? `version ${item.versionNumber}` : 'the current version');

/**
 * One review or change request, in context: a picture of the version in question, where the
 * asset is, who asked and when, and why. "Open" shows that version; a review request is approved
 * or rejected from here (a rejection needs a reason), and the card then says what was decided,
 * with a short undo.
 */
export function ReviewCard({
  item,
  decidable,
  decided,
  focused,
  onDecided,
  onUndone,
}: {
  item: ReviewItem;
  decidable: boolean;
  /** The user's decision on it, while it can still be undone here. */
  decided: DecidedReview | null;
  focused: boolean;
  onDecided: (decision: DecidedReview) => void;
  onUndone: () => void;
}) {
  const { bridge, store } = useServices();
  const { outcome, run } = useAction();
  const openPreview = useOpenPreview();
  const [showComments, setShowComments] = useState(false);
  const nameId = useId();
  const card = useRef<HTMLLIElement>(null);
  const workspaceId = item.workspaceId;
  const what = item.kind === 'review_request' ? 'asks for your review' : 'requests changes';

  useEffect(() => {
    if (!focused) return;
    card.current?.scrollIntoView?.({ block: 'center' });
    card.current?.focus({ preventScroll: true });
  }, [focused]);

  return (
    <li ref={card} tabIndex={-1} className={`review-card${item.read || decided ? '' : ' unread'}`} aria-labelledby={nameId}>
      <div className="review-context">
        {workspaceId ? (
          <Thumbnail workspaceId={workspaceId} item={{ assetId: item.assetId, versionId: item.versionId }} size={72} alt={`${item.assetName}, ${versionWords(item)}`} />
        ) : (
          <span className="thumb" style={{ width: 72, height: 72 }} aria-hidden="true" />
        )}
        <div className="review-facts">
          <div className="row-main">
            <strong className="file-name" id={nameId}>
              {item.assetName}
            </strong>
            {!item.read && !decided && <span className="badge">new</span>}
          </div>
          <p className="muted small">
            {item.folder ? `${item.folder} · ` : ''}
            <span className="version-tag">{versionWords(item).replace(/^v/, 'V')}</span>
          </p>
          <p className="muted small">
            {item.from} {what} · {formatDate(item.at)}
          </p>
        </div>
      </div>
      {item.message && <p className="review-message">{item.message}</p>}
      <div className="actions">
        <button
          type="button"
          disabled={!workspaceId}
          onClick={() => workspaceId && openPreview({ workspaceId, path: null, assetId: item.assetId, versionId: item.versionId, name: item.assetName })}
          aria-label={`Open ${versionWords(item)} of ${item.assetName}`}
        >
          Open {versionWords(item)}
        </button>
        <button
          type="button"
          disabled={!workspaceId}
          onClick={() =>
            void run(async () =>
              workspaceId ? openAssetAndShowVersions(bridge, store, { workspaceId, assetId: item.assetId, versionId: item.versionId, name: item.assetName }) : null,
            )
          }
          aria-label={`All versions of ${item.assetName}`}
        >
          All versions
        </button>
        <button type="button" aria-expanded={showComments} disabled={!workspaceId} onClick={() => setShowComments((on) => !on)} aria-label={`Comments on ${item.assetName}`}>
          Comments
        </button>
        {!item.read && !decided && (
          <button
            type="button"
            disabled={outcome.kind === 'busy'}
            onClick={() =>
              void run(async () => {
                await store.markReviewsRead([item]);
                card.current?.focus();
                return `Marked ${item.assetName} as read.`;
              })
            }
          >
            Mark as read
          </button>
        )}
      </div>
      {decided ? (
        <DecidedNotice decision={decided} item={item} onUndone={onUndone} />
      ) : (
        decidable && workspaceId && <DecideForm item={item} workspaceId={workspaceId} onDecided={onDecided} />
      )}
      {showComments && workspaceId && <CommentThread workspaceId={workspaceId} assetId={item.assetId} assetName={item.assetName} />}
      <ActionStatus outcome={outcome} />
    </li>
  );
}

function DecideForm({ item, workspaceId, onDecided }: { item: ReviewItem; workspaceId: string; onDecided: (decision: DecidedReview) => void }) {
  const { bridge, store } = useServices();
  const { outcome, run } = useAction();
  const [comment, setComment] = useState('');
  const [reasonMissing, setReasonMissing] = useState(false);
  const commentId = useId();
  const errorId = useId();
  const field = useRef<HTMLTextAreaElement>(null);

  const decide = (status: 'approved' | 'rejected') => {
    if (status === 'rejected' && comment.trim() === '') {
      setReasonMissing(true);
      field.current?.focus();
      return;
    }
    void run(async () => {
      const { decision } = await bridge.invoke('decideReview', { workspaceId, assetId: item.assetId, versionId: item.versionId, status, content: comment });
      setComment('');
      onDecided(decision);
      void store.reloadReviews();
      return null;
    });
  };

  return (
    <form
      className="decide"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        decide('approved');
      }}
    >
      <label htmlFor={commentId}>Comment for {item.from}</label>
      <textarea
        ref={field}
        id={commentId}
        value={comment}
        onChange={(e) => {
          setComment(e.target.value);
          if (e.target.value.trim() !== '') setReasonMissing(false);
        }}
        rows={2}
        maxLength={10_000}
        aria-invalid={reasonMissing}
        aria-describedby={reasonMissing ? errorId : undefined}
      />
      {reasonMissing && (
        <p id={errorId} className="field-error" role="alert">
          {REASON_NEEDED}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={outcome.kind === 'busy'}>
          Approve
        </button>
        <button type="button" disabled={outcome.kind === 'busy'} onClick={() => decide('rejected')}>
          Reject
        </button>
      </div>
      <ActionStatus outcome={outcome} />
    </form>
  );
}

/** What was decided, said on the card, with the way back for a moment. */
function DecidedNotice({ decision, item, onUndone }: { decision: DecidedReview; item: ReviewItem; onUndone: () => void }) {
  const { bridge, store } = useServices();
  const { outcome, run } = useAction();
  const undoButton = useRef<HTMLButtonElement>(null);
  useEffect(() => undoButton.current?.focus(), []);
  return (
    <div className={`decided-notice decided-${decision.status}`}>
      <p role="status">
        You {decision.status} {versionWords(item)} of {item.assetName}
        {decision.content ? `: “${decision.content}”` : '.'}
      </p>
      <button
        ref={undoButton}
        type="button"
        disabled={outcome.kind === 'busy'}
        onClick={() =>
          void run(async () => {
            await bridge.invoke('undoDecision', { workspaceId: decision.workspaceId, assetId: decision.assetId, reviewId: decision.reviewId });
            await store.reloadReviews();
            onUndone();
            return null;
          })
        }
      >
        Undo
      </button>
      <ActionStatus outcome={outcome} />
    </div>
  );
}
