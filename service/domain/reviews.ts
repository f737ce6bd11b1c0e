/**
 * Reviews (change requests) and review requests of an asset. A review answers the reviewer's
 * open request on the asset; a new current version opens requests again (review-requests.ts).
 * Every decision and request lands in the review history.
 */
import type { Db } from '../db/db.js';
import type { WorkspaceCaller } from '../context.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import { newId, now } from '../http/ids.js';
import { recordReviewHistory } from '../store/history.js';
import type { ReviewRequestRow, ReviewRow } from '../store/collab-serialize.js';
import { getAsset } from './assets.js';
import { addAttachments, checkMentions, type AttachmentInput } from './attachments.js';
import { requireActiveAsset } from './collections.js';
import { holdsWorkspaceRole, isWorkspaceMember } from './roles.js';

type Actor = Pick<WorkspaceCaller, 'userId' | 'workspaceId'>;

export interface ReviewInput {
  status: 'approved' | 'rejected';
  content: string;
  asset_version_id?: string | undefined;
  assigned_user_id?: string | null | undefined;
  mentions?: string[] | undefined;
  viewer_metadata?: Record<string, unknown> | null | undefined;
  attachments?: AttachmentInput[] | undefined;
}

/** A live (not deleted) version of the asset. */
function liveVersion(db: Db, assetId: string, versionId: string): string {
  const row = db.prepare('SELECT id FROM asset_versions WHERE id = ? AND asset_id = ? AND deleted = 0').get(versionId, assetId);
  if (!row) throw notFound('version');
  return versionId;
}

function checkMember(db: Db, workspaceId: string, userId: string | null | undefined): void {
  if (userId && !isWorkspaceMember(db, workspaceId, userId)) throw notFound('workspace member');
}

export function getReview(db: Db, workspaceId: string, assetId: string, reviewId: string): ReviewRow {
  getAsset(db, workspaceId, assetId);
  const row = db.prepare('SELECT * FROM reviews WHERE id = ? AND asset_id = ?').get(reviewId, assetId) as ReviewRow | undefined;
  if (!row) throw notFound('review');
  return row;
}

export function createReview(db: Db, actor: Actor, assetId: string, input: ReviewInput): ReviewRow {
  return db.transaction(() => {
    const asset = requireActiveAsset(db, actor.workspaceId, assetId);
    const versionId = liveVersion(db, assetId, input.asset_version_id ?? asset.current_version_id ?? '');
    checkMember(db, actor.workspaceId, input.assigned_user_id);
    const mentions = checkMentions(db, actor.workspaceId, input.mentions ?? []);
    const id = newId();
    const at = now();
    db.prepare(
      `INSERT INTO reviews (id, asset_id, workspace_id, asset_version_id, user_id, assigned_user_id, status, content, mentions, viewer_metadata, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, assetId, actor.workspaceId, versionId, actor.userId, input.assigned_user_id ?? null, input.status, input.content, JSON.stringify(mentions),
      input.viewer_metadata ? JSON.stringify(input.viewer_metadata) : null, at, at);
    addAttachments(db, actor, assetId, { reviewId: id }, input.attachments ?? []);
    db.prepare('UPDATE review_requests SET review_id = ?, updated_at = ? WHERE asset_id = ? AND user_id = ? AND review_id IS NULL').run(id, at, assetId, actor.userId);
    recordReviewHistory(db, { assetId, userId: actor.userId, action: 'reviewed', reviewId: id, status: input.status, versionId });
    return getReview(db, actor.workspaceId, assetId, id);
  })();
}

function ownReview(db: Db, actor: Actor, assetId: string, reviewId: string): ReviewRow {
  const row = getReview(db, actor.workspaceId, assetId, reviewId);
  if (row.user_id !== actor.userId) throw forbidden('Only the author may change or delete a review.');
  return row;
}

export function updateReview(
  db: Db, actor: Actor, assetId: string, reviewId: string,
  input: { status?: 'approved' | 'rejected' | undefined; content?: string | undefined; assigned_user_id?: string | null | undefined },
): ReviewRow {
  return db.transaction(() => {
    const before = ownReview(db, actor, assetId, reviewId);
    checkMember(db, actor.workspaceId, input.assigned_user_id);
    const status = input.status ?? before.status;
    db.prepare('UPDATE reviews SET status = ?, content = ?, assigned_user_id = ?, updated_at = ? WHERE id = ?').run(
      status, input.content ?? before.content, input.assigned_user_id === undefined ? before.assigned_user_id : input.assigned_user_id, now(), reviewId);
    recordReviewHistory(db, { assetId, userId: actor.userId, action: 'review_updated', reviewId, status, versionId: before.asset_version_id });
    return getReview(db, actor.workspaceId, assetId, reviewId);
  })();
}

/** Deleting a review opens again the requests it had answered. */
export function deleteReview(db: Db, actor: Actor, assetId: string, reviewId: string): void {
  db.transaction(() => {
    const row = ownReview(db, actor, assetId, reviewId);
    db.prepare('UPDATE review_requests SET review_id = NULL, updated_at = ? WHERE review_id = ?').run(now(), reviewId);
    db.prepare('DELETE FROM attachments WHERE review_id = ?').run(reviewId);
    db.prepare('DELETE FROM reviews WHERE id = ?').run(reviewId);
    recordReviewHistory(db, { assetId, userId: actor.userId, action: 'review_deleted', reviewId, status: row.status, versionId: row.asset_version_id });
  })();
}

export function getReviewRequest(db: Db, workspaceId: string, assetId: string, userId: string): ReviewRequestRow {
  getAsset(db, workspaceId, assetId);
  const row = db.prepare('SELECT * FROM review_requests WHERE asset_id = ? AND user_id = ?').get(assetId, userId) as ReviewRequestRow | undefined;
  if (!row) throw notFound('review request');
  return row;
}

/**
 * Asks a workspace member who may review (a commenter or above) to review the current version;
 * asking again refreshes the request (open again, current version).
 */
export function requestReview(db: Db, actor: Actor, assetId: string, userId: string, input: { message?: string | null | undefined }): ReviewRequestRow {
  return db.transaction(() => {
    const asset = requireActiveAsset(db, actor.workspaceId, assetId);
    if (!isWorkspaceMember(db, actor.workspaceId, userId)) throw notFound('workspace member');
    if (!holdsWorkspaceRole(db, actor.workspaceId, userId, 'commenter')) {
      throw badRequest('That member cannot review: reviewing needs the commenter role or above.', { user_id: userId });
    }
    const at = now();
    db.prepare(
      `INSERT INTO review_requests (id, workspace_id, asset_id, asset_version_id, requestor_id, user_id, review_id, message, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)
       ON CONFLICT (asset_id, user_id) DO UPDATE SET asset_version_id = excluded.asset_version_id, requestor_id = excluded.requestor_id,
         review_id = NULL, message = excluded.message, updated_at = excluded.updated_at`,
    ).run(newId(), actor.workspaceId, assetId, asset.current_version_id, actor.userId, userId, input.message ?? null, at, at);
    recordReviewHistory(db, { assetId, userId: actor.userId, action: 'requested', versionId: asset.current_version_id });
    return getReviewRequest(db, actor.workspaceId, assetId, userId);
  })();
}

/** The requestor and the requested user may change or withdraw a request. */
function ownRequest(db: Db, actor: Actor, assetId: string, userId: string): ReviewRequestRow {
  const row = getReviewRequest(db, actor.workspaceId, assetId, userId);
  if (actor.userId !== row.requestor_id && actor.userId !== row.user_id) throw forbidden('Only the requestor or the requested user may change this request.');
  return row;
}

/** A request moved to another version is open again. */
export function updateReviewRequest(
  db: Db, actor: Actor, assetId: string, userId: string, input: { message?: string | null | undefined; asset_version_id?: string | undefined },
): ReviewRequestRow {
  return db.transaction(() => {
    const before = ownRequest(db, actor, assetId, userId);
    const versionId = input.asset_version_id === undefined ? before.asset_version_id : liveVersion(db, assetId, input.asset_version_id);
    const reviewId = versionId === before.asset_version_id ? before.review_id : null;
    db.prepare('UPDATE review_requests SET message = ?, asset_version_id = ?, review_id = ?, updated_at = ? WHERE id = ?').run(
      input.message === undefined ? before.message : input.message, versionId, reviewId, now(), before.id);
    return getReviewRequest(db, actor.workspaceId, assetId, userId);
  })();
}

export function deleteReviewRequest(db: Db, actor: Actor, assetId: string, userId: string): void {
  db.transaction(() => {
    const row = ownRequest(db, actor, assetId, userId);
    db.prepare('DELETE FROM review_requests WHERE id = ?').run(row.id);
    recordReviewHistory(db, { assetId, userId: actor.userId, action: 'request_deleted', versionId: row.asset_version_id });
  })();
}
