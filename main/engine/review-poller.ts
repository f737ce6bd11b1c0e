/**
 * Review requests and change requests, polled and remembered, so each one becomes exactly one
 * desktop notification, also across restarts. A request refreshed to a new version is news again.
 */
import { personName } from '../../shared/api/index.js';
import type { ReviewNotification } from '../../shared/engine.js';
import type { SyncIndex } from '../index/sync-index.js';
import type { AssetReview, ReviewRequest, ServiceClient } from '../service-client/index.js';

export function fromReviewRequest(r: ReviewRequest): ReviewNotification {
  return {
    kind: 'review_request',
    remoteKey: `${r.id ?? `${r.asset_id}:${r.user_id ?? ''}`}@${r.asset_version_id ?? ''}`,
    workspaceId: r.workspace_id,
    assetId: r.asset_id,
    versionId: r.asset_version_id ?? null,
    versionNumber: r.version?.version_number ?? null,
    folder: r.asset?.file_location ?? null,
    assetName: r.asset?.file_name ?? r.asset?.name ?? 'an asset',
    from: personName(r.requestor, 'a colleague'),
    message: typeof r.message === 'string' && r.message !== '' ? r.message : 'asks for your review',
    at: r.created_at ?? null,
  };
}

export function fromChangeRequest(r: AssetReview): ReviewNotification {
  return {
    kind: 'change_request',
    remoteKey: `${r.id}:${r.status}`,
    workspaceId: r.workspace_id ?? null,
    assetId: r.asset_id,
    versionId: r.asset_version_id ?? null,
    versionNumber: r.version?.version_number ?? null,
    folder: null,
    assetName: r.version?.name ?? 'an asset',
    from: personName(r.user, 'a colleague'),
    message: r.content ?? '',
    at: r.created_at ?? null,
  };
}

/** Notices no longer current are forgotten after this long (a month). */
const FORGET_AFTER_MS = 30 * 24 * 3600 * 1000;

/** One poll: returns only what was never seen before (and remembers it). */
export async function pollReviews(client: ServiceClient, index: SyncIndex, signal?: AbortSignal): Promise<ReviewNotification[]> {
  const opts = signal ? { signal } : {};
  const [requests, changes] = await Promise.all([client.listReviewRequests(opts), client.listChangeRequests(opts)]);
  const items = [...requests.map(fromReviewRequest), ...changes.map(fromChangeRequest)];
  const fresh = index.notifications.markSeen(items);
  index.notifications.prune(items, Date.now() - FORGET_AFTER_MS);
  return fresh;
}
