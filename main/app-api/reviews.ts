/**
 * Review requests (someone asks this user to review) and change requests (reviews assigned to
 * this user), with whether the user has looked at each, and the user's decision on one.
 */
import type { ReviewNotification } from '../../shared/engine.js';
import type { ParsedRequestOf, ReviewItem, Responses } from '../../shared/ipc.js';
import { fromChangeRequest, fromReviewRequest } from '../engine/review-poller.js';
import type { SyncIndex } from '../index/sync-index.js';
import type { ServiceClient } from '../service-client/index.js';

export async function listReviews(client: ServiceClient, index: SyncIndex): Promise<Responses['listReviews']> {
  const [requests, changes] = await Promise.all([client.listReviewRequests(), client.listChangeRequests()]);
  const isRead = index.notifications.readState();
  const withRead = (item: ReviewNotification): ReviewItem => ({ ...item, read: isRead(item) });
  return { reviewRequests: requests.map(fromReviewRequest).map(withRead), changeRequests: changes.map(fromChangeRequest).map(withRead) };
}

export interface Decision {
  workspaceId: string;
  assetId: string;
  versionId: string | null;
  status: 'approved' | 'rejected';
  content: string;
}

/** Records the decision; the requests it answers are marked read (they need nothing more). */
export async function decideReview(client: ServiceClient, index: SyncIndex, decision: Decision): Promise<{ reviewId: string }> {
  // Read before deciding: once answered, a request leaves the open list.
  const answered = (await client.listReviewRequests()).filter((r) => r.asset_id === decision.assetId).map(fromReviewRequest);
  const review = await client.createReview(decision.workspaceId, decision.assetId, {
    status: decision.status,
    content: decision.content,
    ...(decision.versionId === null ? {} : { asset_version_id: decision.versionId }),
  });
  index.notifications.markItemsRead(answered);
  return { reviewId: review.id };
}

/**
 * Marks requests read ("Mark as read", "Mark all as read"). Read state is kept on this computer:
 * the service's review and change requests carry no read flag.
 */
export function markReviewsRead(index: SyncIndex, items: ParsedRequestOf<'markReviewsRead'>['items']): Responses['markReviewsRead'] {
  index.notifications.markItemsRead(items);
  return { ok: true };
}
