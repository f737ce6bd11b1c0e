/**
 * Review requests (someone asks this user to review) and change requests (reviews assigned to
 * this user), with whether the user has looked at each and where the asset is synced here; the
 * user's decision on one, which can be changed or withdrawn; and the decisions made so far.
 *
 * The service has no list of a user's own reviews across assets, so the decisions made from this
 * computer are kept in the index (setting `decidedReviews`, the newest 200): the "Decided" list.
 */
import type { ReviewNotification } from '../../shared/engine.js';
import type { DecidedReview, ParsedRequestOf, ReviewItem, Responses } from '../../shared/ipc.js';
import { fromChangeRequest, fromReviewRequest } from '../engine/review-poller.js';
import type { SyncIndex } from '../index/sync-index.js';
import { isServiceError, type ServiceClient } from '../service-client/index.js';
import { AppError } from './bridge-errors.js';

const DECIDED_SETTING = 'decidedReviews';
const DECIDED_KEPT = 200;

export async function listReviews(client: ServiceClient, index: SyncIndex): Promise<Responses['listReviews']> {
  const [requests, changes] = await Promise.all([client.listReviewRequests(), client.listChangeRequests()]);
  const isRead = index.notifications.readState();
  const withRead = (item: ReviewNotification): ReviewItem => {
    const path = item.workspaceId === null ? null : (index.remote.getFile(item.workspaceId, item.assetId)?.path ?? null);
    // A change request does not say where its asset is; the synced file does.
    const folder = item.folder ?? (path === null ? null : path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
    return { ...item, read: isRead(item), path, folder };
  };
  return { reviewRequests: requests.map(fromReviewRequest).map(withRead), changeRequests: changes.map(fromChangeRequest).map(withRead) };
}

export type Decision = ParsedRequestOf<'decideReview'>;

/**
 * Records the decision; the requests it answers are marked read (they need nothing more). A
 * rejection says why: the colleague has to know what to change.
 */
export async function decideReview(client: ServiceClient, index: SyncIndex, decision: Decision): Promise<Responses['decideReview']> {
  if (decision.status === 'rejected' && decision.content.trim() === '') throw new AppError('reason_required', 'Say why you reject it: the reason goes to the colleague who asked.');
  // Read before deciding: once answered, a request leaves the open list.
  const answered = (await client.listReviewRequests()).filter((r) => r.asset_id === decision.assetId).map(fromReviewRequest);
  const review = await client.createReview(decision.workspaceId, decision.assetId, {
    status: decision.status,
    content: decision.content,
    ...(decision.versionId === null ? {} : { asset_version_id: decision.versionId }),
  });
  index.notifications.markItemsRead(answered);
  const request = answered.find((r) => r.versionId === review.asset_version_id) ?? answered[0];
  const kept: DecidedReview = {
    reviewId: review.id,
    workspaceId: decision.workspaceId,
    assetId: decision.assetId,
    versionId: review.asset_version_id ?? decision.versionId,
    versionNumber: review.version?.version_number ?? request?.versionNumber ?? null,
    assetName: request?.assetName ?? review.version?.name ?? 'an asset',
    folder: request?.folder ?? null,
    requestedBy: request?.from ?? null,
    status: review.status ?? decision.status,
    content: review.content ?? decision.content,
    decidedAt: new Date().toISOString(),
  };
  keepDecided(index, [kept, ...decidedOf(index)]);
  return { reviewId: review.id, decision: kept };
}

/** Changes a decision of the user's; the kept record follows. */
export async function changeDecision(client: ServiceClient, index: SyncIndex, change: ParsedRequestOf<'changeDecision'>): Promise<DecidedReview> {
  if (change.status === 'rejected' && change.content.trim() === '') throw new AppError('reason_required', 'Say why you reject it: the reason goes to the colleague who asked.');
  const review = await client.updateReview(change.workspaceId, change.assetId, change.reviewId, { status: change.status, content: change.content });
  const decided = decidedOf(index);
  const before = decided.find((d) => d.reviewId === change.reviewId);
  const updated: DecidedReview = {
    ...(before ?? { reviewId: review.id, workspaceId: change.workspaceId, assetId: change.assetId, versionId: review.asset_version_id ?? null, versionNumber: review.version?.version_number ?? null, assetName: review.version?.name ?? 'an asset', folder: null, requestedBy: null }),
    status: review.status ?? change.status,
    content: review.content ?? change.content,
    decidedAt: new Date().toISOString(),
  };
  keepDecided(index, [updated, ...decided.filter((d) => d.reviewId !== change.reviewId)]);
  return updated;
}

/**
 * Withdraws a decision: the service deletes the review and opens the request it answered again.
 * A review already gone (withdrawn from elsewhere, or a repeat whose first answer was lost) is
 * withdrawn all the same.
 */
export async function undoDecision(client: ServiceClient, index: SyncIndex, undo: ParsedRequestOf<'undoDecision'>): Promise<Responses['undoDecision']> {
  try {
    await client.deleteReview(undo.workspaceId, undo.assetId, undo.reviewId);
  } catch (error) {
    if (!(isServiceError(error) && error.kind === 'not_found')) throw error;
  }
  keepDecided(index, decidedOf(index).filter((d) => d.reviewId !== undo.reviewId));
  return { ok: true };
}

export function decidedOf(index: SyncIndex): DecidedReview[] {
  return index.settings.get<DecidedReview[]>(DECIDED_SETTING) ?? [];
}

function keepDecided(index: SyncIndex, decided: DecidedReview[]): void {
  index.settings.set(DECIDED_SETTING, decided.length === 0 ? undefined : decided.slice(0, DECIDED_KEPT));
}

/**
 * Marks requests read ("Mark as read", "Mark all as read"). Read state is kept on this computer:
 * the service's review and change requests carry no read flag.
 */
export function markReviewsRead(index: SyncIndex, items: ParsedRequestOf<'markReviewsRead'>['items']): Responses['markReviewsRead'] {
  index.notifications.markItemsRead(items);
  return { ok: true };
}
