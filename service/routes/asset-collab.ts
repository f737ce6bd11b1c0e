import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parse, workspaceActor, workspaceCaller, type ServiceContext } from '../context.js';
import { getAsset } from '../domain/assets.js';
import { getTag, tagAsset, tagsOfAsset, untagAsset } from '../domain/collections.js';
import { createComment, deleteComment, getComment, updateComment } from '../domain/comments.js';
import { ItemName } from '../domain/names.js';
import {
  createReview, deleteReview, deleteReviewRequest, getReview, requestReview, updateReview, updateReviewRequest,
} from '../domain/reviews.js';
import { notFound } from '../http/errors.js';
import {
  assetHistoryJson, commentJson, reviewHistoryJson, reviewJson, reviewRequestJson, tagJson, taskJson,
  type AssetHistoryRow, type CommentRow, type ReviewHistoryRow, type ReviewRequestRow, type ReviewRow, type TaskRow,
} from '../store/collab-serialize.js';

const id = z.string().min(1).max(200);
const userIds = z.array(id).max(100);
const content = z.string().trim().min(1).max(50_000);
const Attachment = z.object({ key: z.string().min(1).max(200), name: ItemName, description: z.string().max(10_000).nullish() });
const TagIds = z.object({ tag_ids: z.array(id).min(1).max(100) });
const NewComment = z.object({ content, mentions: userIds.optional(), attachments: z.array(Attachment).max(20).optional() });
const CommentChanges = z.object({ content: content.optional(), mentions: userIds.optional() });
const status = z.enum(['approved', 'rejected']);
const NewReview = z.object({
  status,
  content: z.string().max(50_000),
  asset_version_id: id.optional(),
  assigned_user_id: id.nullish(),
  mentions: userIds.optional(),
  viewer_metadata: z.record(z.string(), z.unknown()).nullish(),
  attachments: z.array(Attachment).max(20).optional(),
});
const ReviewChanges = z.object({ status: status.optional(), content: z.string().max(50_000).optional(), assigned_user_id: id.nullish() });
const RequestInput = z.object({ message: z.string().max(10_000).nullish() });
const RequestChanges = RequestInput.extend({ asset_version_id: id.optional() });

type AssetParams = { Params: { asset_id: string } };
type TagParams = { Params: { asset_id: string; tag_id: string } };
type CommentParams = { Params: { asset_id: string; comment_id: string } };
type ReviewParams = { Params: { asset_id: string; review_id: string } };
type UserParams = { Params: { asset_id: string; user_id: string } };

/** Tags, tasks, comments, reviews, review requests and history of one asset [ours payloads, ref paths]. */
export function assetCollabRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { db } = ctx;
  /** The asset of the path, 404 unless it is in the caller's workspace. */
  const assetOf = (request: Parameters<typeof workspaceCaller>[0] & { params: { asset_id: string } }) =>
    getAsset(db, workspaceCaller(request).workspaceId, request.params.asset_id);
  const base = '/workspaces/assets/:asset_id';

  app.get<AssetParams>(`${base}/tags`, async (request) => tagsOfAsset(db, assetOf(request).id).map(tagJson));
  app.post<AssetParams>(`${base}/tags`, async (request) => {
    tagAsset(db, workspaceActor(request), request.params.asset_id, parse(TagIds, request.body).tag_ids);
    return tagsOfAsset(db, request.params.asset_id).map(tagJson);
  });
  app.get<TagParams>(`${base}/tags/:tag_id`, async (request) => {
    const tag = tagsOfAsset(db, assetOf(request).id).find((t) => t.id === request.params.tag_id);
    if (!tag) throw notFound('tag of this asset');
    return tagJson(tag);
  });
  app.post<TagParams>(`${base}/tags/:tag_id`, async (request) => {
    const actor = workspaceActor(request);
    tagAsset(db, actor, request.params.asset_id, [request.params.tag_id]);
    return tagJson(getTag(db, actor.workspaceId, request.params.tag_id));
  });
  app.delete<TagParams>(`${base}/tags/:tag_id`, async (request) => {
    untagAsset(db, workspaceActor(request), request.params.asset_id, request.params.tag_id);
    return { success: true };
  });

  app.get<AssetParams>(`${base}/tasks`, async (request) =>
    (db.prepare('SELECT * FROM tasks WHERE asset_id = ? ORDER BY created_at, id').all(assetOf(request).id) as TaskRow[]).map(taskJson),
  );

  app.post<AssetParams>(`${base}/comments`, async (request, reply) =>
    reply.code(201).send(commentJson(db, createComment(db, workspaceActor(request), request.params.asset_id, parse(NewComment, request.body)))),
  );
  app.get<AssetParams>(`${base}/comments`, async (request) =>
    (db.prepare('SELECT * FROM comments WHERE asset_id = ? ORDER BY created_at, rowid').all(assetOf(request).id) as CommentRow[]).map((c) => commentJson(db, c)),
  );
  app.get<CommentParams>(`${base}/comments/:comment_id`, async (request) =>
    commentJson(db, getComment(db, workspaceCaller(request).workspaceId, request.params.asset_id, request.params.comment_id)),
  );
  app.put<CommentParams>(`${base}/comments/:comment_id`, async (request) =>
    commentJson(db, updateComment(db, workspaceActor(request), request.params.asset_id, request.params.comment_id, parse(CommentChanges, request.body))),
  );
  app.delete<CommentParams>(`${base}/comments/:comment_id`, async (request) => {
    deleteComment(db, workspaceActor(request), request.params.asset_id, request.params.comment_id);
    return { success: true };
  });

  app.post<AssetParams>(`${base}/reviews`, async (request, reply) =>
    reply.code(201).send(reviewJson(db, createReview(db, workspaceActor(request), request.params.asset_id, parse(NewReview, request.body)))),
  );
  app.get<AssetParams>(`${base}/reviews`, async (request) =>
    (db.prepare('SELECT * FROM reviews WHERE asset_id = ? ORDER BY created_at, rowid').all(assetOf(request).id) as ReviewRow[]).map((r) => reviewJson(db, r)),
  );
  app.get<ReviewParams>(`${base}/reviews/:review_id`, async (request) =>
    reviewJson(db, getReview(db, workspaceCaller(request).workspaceId, request.params.asset_id, request.params.review_id)),
  );
  app.put<ReviewParams>(`${base}/reviews/:review_id`, async (request) =>
    reviewJson(db, updateReview(db, workspaceActor(request), request.params.asset_id, request.params.review_id, parse(ReviewChanges, request.body))),
  );
  app.delete<ReviewParams>(`${base}/reviews/:review_id`, async (request) => {
    deleteReview(db, workspaceActor(request), request.params.asset_id, request.params.review_id);
    return { success: true };
  });

  app.get<AssetParams>(`${base}/reviewRequests`, async (request) =>
    (db.prepare('SELECT * FROM review_requests WHERE asset_id = ? ORDER BY created_at, rowid').all(assetOf(request).id) as ReviewRequestRow[]).map((r) =>
      reviewRequestJson(db, r),
    ),
  );
  app.post<UserParams>(`${base}/reviewRequests/:user_id`, async (request, reply) =>
    reply.code(201).send(reviewRequestJson(db, requestReview(db, workspaceActor(request), request.params.asset_id, request.params.user_id,
      parse(RequestInput, request.body ?? {})))),
  );
  app.put<UserParams>(`${base}/reviewRequests/:user_id`, async (request) =>
    reviewRequestJson(db, updateReviewRequest(db, workspaceActor(request), request.params.asset_id, request.params.user_id, parse(RequestChanges, request.body))),
  );
  app.delete<UserParams>(`${base}/reviewRequests/:user_id`, async (request) => {
    deleteReviewRequest(db, workspaceActor(request), request.params.asset_id, request.params.user_id);
    return { success: true };
  });

  app.get<AssetParams>(`${base}/history`, async (request) =>
    (db.prepare('SELECT * FROM asset_history WHERE asset_id = ? ORDER BY created_at, rowid').all(assetOf(request).id) as AssetHistoryRow[]).map(assetHistoryJson),
  );
  app.get<AssetParams>(`${base}/history/review`, async (request) =>
    (db.prepare('SELECT * FROM review_history WHERE asset_id = ? ORDER BY created_at, rowid').all(assetOf(request).id) as ReviewHistoryRow[]).map(
      reviewHistoryJson,
    ),
  );
}
