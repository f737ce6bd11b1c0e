import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Asset, AssetReview, AssetVersion, Comment, HistoryEntry, ReviewRequest, Success, Tag, Task } from '../helpers/served.js';
import { errorCode, startTestService, type Session, type TestService } from '../helpers/service.js';
import { postVersion, upload } from '../helpers/uploads.js';

const ReviewHistoryEntry = z.looseObject({
  id: z.string(), asset_id: z.string(), review_id: z.string().optional(), user_id: z.string(), status: z.string().optional(),
  asset_version_id: z.string().optional(), created_at: z.string(), action: z.string(),
});

let t: TestService;
let other: Session;
let assetId: string;
let tagId: string;
beforeAll(async () => {
  t = await startTestService({ demo: { assets: 12 } });
  other = await t.tenant('Globex');
  // An asset the seed left without comments, reviews or requests.
  assetId = t.demo.assetIds[10] ?? '';
  const tags = z.array(Tag).parse((await t.api('GET', '/workspaces/tags')).json);
  tagId = tags.find((tag) => tag.name === 'final')?.id ?? '';
});
afterAll(async () => t?.stop());

const path = (rest = '') => `/workspaces/assets/${assetId}${rest}`;

describe('tags of an asset', () => {
  it('adds tags in bulk and one by one, reads and removes them', async () => {
    const before = z.array(Tag).parse((await t.api('GET', path('/tags'))).json).map((tag) => tag.name);
    expect(before).toEqual(['hero']);
    const added = await t.api('POST', path('/tags'), { body: { tag_ids: [tagId] } });
    expect(added.status).toBe(200);
    expect(z.array(Tag).parse(added.json).map((tag) => tag.name)).toEqual(['final', 'hero']);
    expect(Tag.parse((await t.api('GET', path(`/tags/${tagId}`))).json).name).toBe('final');

    expect(Success.parse((await t.api('DELETE', path(`/tags/${tagId}`))).json)).toEqual({ success: true });
    expect((await t.api('GET', path(`/tags/${tagId}`))).status).toBe(404);
    expect((await t.api('DELETE', path(`/tags/${tagId}`))).status).toBe(404);

    expect(Tag.parse((await t.api('POST', path(`/tags/${tagId}`))).json).id).toBe(tagId);
    const asset = Asset.parse((await t.api('GET', path())).json);
    expect(asset.tags?.map((tag) => tag.name)).toEqual(['final', 'hero']);
  });

  it('answers 400 for a bad body and 404 for unknown or foreign tags and assets, adding nothing', async () => {
    expect((await t.api('POST', path('/tags'), { body: { tag_ids: 'hero' } })).status).toBe(400);
    expect((await t.api('POST', path('/tags'), { body: { tag_ids: [] } })).status).toBe(400);
    const foreignTag = (await other.api<{ id: string }>('POST', '/workspaces/tags', { body: { name: 'theirs' } })).json.id;
    const mixed = await t.api('POST', path('/tags'), { body: { tag_ids: [tagId, foreignTag] } });
    expect(mixed.status).toBe(404);
    expect((await t.api('POST', path(`/tags/${foreignTag}`))).status).toBe(404);
    expect((await other.api('GET', path('/tags'))).status).toBe(404);
    expect((await other.api('POST', path(`/tags/${foreignTag}`))).status).toBe(404);
    expect(z.array(Tag).parse((await t.api('GET', path('/tags'))).json)).toHaveLength(2);
  });
});

describe('tasks of an asset', () => {
  it('lists the tasks that name the asset', async () => {
    const task = Task.parse((await t.api('POST', '/workspaces/tasks', { body: { title: 'Crop for social', asset_id: assetId } })).json);
    await t.api('POST', '/workspaces/tasks', { body: { title: 'Unrelated' } });
    const tasks = z.array(Task).parse((await t.api('GET', path('/tasks'))).json);
    expect(tasks.map((x) => x.id)).toEqual([task.id]);
    expect((await other.api('GET', path('/tasks'))).status).toBe(404);
  });
});

describe('comments', () => {
  let comment: Comment;

  it('adds a comment with mentions and an uploaded attachment (201)', async () => {
    const file = await upload(t.api, 'annotated screenshot', 'notes.png');
    const res = await t.api('POST', path('/comments'), {
      body: { content: 'See the annotated screenshot', mentions: [t.demo.colleague.userId], attachments: [{ key: file.key, name: 'notes.png' }] },
    });
    expect(res.status).toBe(201);
    comment = Comment.parse(res.json);
    expect(comment).toMatchObject({ asset_id: assetId, user_id: t.demo.user.userId, content: 'See the annotated screenshot', mentions: [t.demo.colleague.userId] });
    expect(comment.attachments).toHaveLength(1);
    expect(comment.attachments[0]).toMatchObject({ file_id: file.key, name: 'notes.png', comment_id: comment.id, created_by_user_id: t.demo.user.userId });
    expect((res.json as { user: { id: string } }).user.id).toBe(t.demo.user.userId);

    const list = z.array(Comment).parse((await t.colleague.api('GET', path('/comments'))).json);
    expect(list.map((c) => c.id)).toEqual([comment.id]);
    expect(Comment.parse((await t.colleague.api('GET', path(`/comments/${comment.id}`))).json).content).toBe(comment.content);
  });

  it('lets only the author change or delete it (403 for others)', async () => {
    expect((await t.colleague.api('PUT', path(`/comments/${comment.id}`), { body: { content: 'hijacked' } })).status).toBe(403);
    const refused = await t.colleague.api('DELETE', path(`/comments/${comment.id}`));
    expect(refused.status).toBe(403);
    expect(errorCode(refused)).toBe('forbidden');

    const res = await t.api('PUT', path(`/comments/${comment.id}`), { body: { content: 'See the screenshot', mentions: [] } });
    expect(res.status).toBe(200);
    expect(Comment.parse(res.json)).toMatchObject({ content: 'See the screenshot', mentions: [] });

    expect(Success.parse((await t.api('DELETE', path(`/comments/${comment.id}`))).json)).toEqual({ success: true });
    expect((await t.api('GET', path(`/comments/${comment.id}`))).status).toBe(404);
  });

  it('answers 400 for bad input and 404 for unknown mentions, comments and foreign assets', async () => {
    for (const body of [{}, { content: '' }, { content: 5 }, { content: 'x', mentions: 'all' }, { content: 'x', attachments: [{ name: 'a' }] }]) {
      expect((await t.api('POST', path('/comments'), { body })).status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.api('POST', path('/comments'), { body: { content: 'x', attachments: [{ key: 'up_unknown', name: 'a' }] } })).status).toBe(400);
    expect((await t.api('POST', path('/comments'), { body: { content: 'x', mentions: [other.userId] } })).status).toBe(404);
    expect((await t.api('GET', path('/comments/00000000-0000-4000-8000-000000000000'))).status).toBe(404);
    expect((await other.api('POST', path('/comments'), { body: { content: 'hello' } })).status).toBe(404);
    expect((await other.api('GET', path('/comments'))).status).toBe(404);
    expect(z.array(Comment).parse((await t.api('GET', path('/comments'))).json)).toEqual([]);
  });
});

describe('review requests, reviews and the notifications they make', () => {
  let request: ReviewRequest;
  let review: AssetReview;
  const colleagueOpenRequests = async () =>
    z.array(ReviewRequest).parse((await t.colleague.api('GET', '/reviewRequests', { headers: { 'x-workspace-id': null } })).json);

  it('asks a member for a review of the current version (201) and shows it in their notifications', async () => {
    const asset = Asset.parse((await t.api('GET', path())).json);
    const res = await t.api('POST', path(`/reviewRequests/${t.demo.colleague.userId}`), { body: { message: 'Ready for you' } });
    expect(res.status).toBe(201);
    request = ReviewRequest.parse(res.json);
    expect(request).toMatchObject({
      workspace_id: t.demo.workspaceId, asset_id: assetId, asset_version_id: asset.current_version_id, requestor_id: t.demo.user.userId,
      user_id: t.demo.colleague.userId, message: 'Ready for you',
    });
    expect(request.review_id, 'no review yet: left out, never null').toBeUndefined();
    expect(request.user?.id).toBe(t.demo.colleague.userId);
    expect(request.requestor?.id).toBe(t.demo.user.userId);

    const open = await colleagueOpenRequests();
    expect(open.map((r) => r.id)).toEqual([request.id]);
    expect(open[0]?.asset?.id).toBe(assetId);
    expect(open[0]?.version?.id).toBe(asset.current_version_id);
    expect(z.array(ReviewRequest).parse((await t.api('GET', path('/reviewRequests'))).json).map((r) => r.id)).toEqual([request.id]);
  });

  it('is answered by the requested user’s review, which leaves their notifications', async () => {
    const res = await t.colleague.api('POST', path('/reviews'), {
      body: { status: 'rejected', content: 'Logo too small', assigned_user_id: t.demo.user.userId, viewer_metadata: { x: 10, y: 20 } },
    });
    expect(res.status).toBe(201);
    review = AssetReview.parse(res.json);
    expect(review).toMatchObject({
      asset_id: assetId, asset_version_id: request.asset_version_id, user_id: t.demo.colleague.userId, assigned_user_id: t.demo.user.userId,
      status: 'rejected', content: 'Logo too small', workspace_id: t.demo.workspaceId, viewer_metadata: { x: 10, y: 20 },
    });
    expect(review.assignee?.id).toBe(t.demo.user.userId);
    expect(review.version?.id).toBe(request.asset_version_id);

    const answered = z.array(ReviewRequest).parse((await t.api('GET', path('/reviewRequests'))).json);
    expect(answered[0]?.review_id).toBe(review.id);
    expect(await colleagueOpenRequests()).toEqual([]);

    const changes = z.array(AssetReview).parse((await t.api('GET', '/changeRequests', { headers: { 'x-workspace-id': null } })).json);
    expect(changes.map((c) => c.id)).toContain(review.id);
    expect(changes.every((c) => c.assigned_user_id === t.demo.user.userId && c.user !== undefined)).toBe(true);
  });

  it('opens again, on the new version, when the asset gets a new current version', async () => {
    const asset = Asset.parse((await t.api('GET', path())).json);
    const committed = await postVersion(t.api, assetId, { parentId: asset.current_version_id, bytes: 'a bigger logo' });
    expect(committed.status).toBe(201);
    const version = AssetVersion.parse(committed.json);

    const [refreshed] = z.array(ReviewRequest).parse((await t.api('GET', path('/reviewRequests'))).json);
    expect(refreshed).toMatchObject({ id: request.id, asset_version_id: version.id });
    expect(refreshed?.review_id).toBeUndefined();
    const open = await colleagueOpenRequests();
    expect(open.map((r) => [r.id, r.version?.id])).toEqual([[request.id, version.id]]);

    const approval = AssetReview.parse((await t.colleague.api('POST', path('/reviews'), { body: { status: 'approved', content: 'Better' } })).json);
    expect(approval.asset_version_id).toBe(version.id);
    expect(await colleagueOpenRequests()).toEqual([]);
  });

  it('lets the reviewer alone change or delete a review; deleting reopens the request', async () => {
    expect((await t.api('PUT', path(`/reviews/${review.id}`), { body: { status: 'approved' } })).status).toBe(403);
    expect((await t.api('DELETE', path(`/reviews/${review.id}`))).status).toBe(403);
    const updated = await t.colleague.api('PUT', path(`/reviews/${review.id}`), { body: { status: 'approved', assigned_user_id: null } });
    expect(updated.status).toBe(200);
    expect(AssetReview.parse(updated.json)).toMatchObject({ status: 'approved', assigned_user_id: null, content: 'Logo too small' });
    const changes = z.array(AssetReview).parse((await t.api('GET', '/changeRequests', { headers: { 'x-workspace-id': null } })).json);
    expect(changes.map((c) => c.id)).not.toContain(review.id);

    const reviews = z.array(AssetReview).parse((await t.api('GET', path('/reviews'))).json);
    const latest = reviews.at(-1);
    expect(reviews).toHaveLength(2);
    expect(Success.parse((await t.colleague.api('DELETE', path(`/reviews/${latest?.id}`))).json)).toEqual({ success: true });
    expect((await t.api('GET', path(`/reviews/${latest?.id}`))).status).toBe(404);
    expect((await colleagueOpenRequests()).map((r) => r.id)).toEqual([request.id]);
  });

  it('records requests and decisions in the review history, and versions in the asset history', async () => {
    const reviewHistory = z.array(ReviewHistoryEntry).parse((await t.api('GET', path('/history/review'))).json);
    expect(reviewHistory.map((h) => [h.action, h.status])).toEqual([
      ['requested', undefined], ['reviewed', 'rejected'], ['reviewed', 'approved'], ['review_updated', 'approved'], ['review_deleted', 'approved'],
    ]);
    expect(reviewHistory[1]).toMatchObject({ review_id: review.id, user_id: t.demo.colleague.userId, asset_version_id: request.asset_version_id });

    const history = z.array(HistoryEntry).parse((await t.api('GET', path('/history'))).json);
    expect(history[0]?.action).toBe('created');
    expect(history.at(-1)).toMatchObject({ action: 'version_created', user_id: t.demo.user.userId });
    expect((await other.api('GET', path('/history'))).status).toBe(404);
    expect((await other.api('GET', path('/history/review'))).status).toBe(404);
  });

  it('changes and withdraws a request; refuses non-members (404) and bad input (400)', async () => {
    const asset = Asset.parse((await t.api('GET', path())).json);
    const older = asset.versions?.find((v) => v.id !== asset.current_version_id);
    const moved = await t.api('PUT', path(`/reviewRequests/${t.demo.colleague.userId}`), { body: { message: 'Compare with v1', asset_version_id: older?.id } });
    expect(moved.status).toBe(200);
    expect(ReviewRequest.parse(moved.json)).toMatchObject({ message: 'Compare with v1', asset_version_id: older?.id });
    expect(ReviewRequest.parse(moved.json).review_id).toBeUndefined();

    expect((await t.api('PUT', path(`/reviewRequests/${t.demo.colleague.userId}`), { body: { asset_version_id: 'nope' } })).status).toBe(404);
    expect((await t.api('PUT', path(`/reviewRequests/${t.demo.colleague.userId}`), { body: { message: 42 } })).status).toBe(400);
    expect((await t.api('POST', path(`/reviewRequests/${other.userId}`))).status).toBe(404);
    expect((await t.api('POST', path('/reviewRequests/00000000-0000-4000-8000-000000000000'))).status).toBe(404);
    expect((await other.api('POST', path(`/reviewRequests/${other.userId}`))).status).toBe(404);

    expect(Success.parse((await t.api('DELETE', path(`/reviewRequests/${t.demo.colleague.userId}`))).json)).toEqual({ success: true });
    expect((await t.api('DELETE', path(`/reviewRequests/${t.demo.colleague.userId}`))).status).toBe(404);
    expect(z.array(ReviewRequest).parse((await t.api('GET', path('/reviewRequests'))).json)).toEqual([]);
    const actions = z.array(ReviewHistoryEntry).parse((await t.api('GET', path('/history/review'))).json).map((h) => h.action);
    expect(actions.at(-1)).toBe('request_deleted');
  });

  it('answers 400 for a bad review and 404 for an unknown version or assignee', async () => {
    for (const body of [{}, { status: 'maybe', content: 'x' }, { status: 'approved' }, { status: 'approved', content: 'x', viewer_metadata: 'zoom' }]) {
      expect((await t.api('POST', path('/reviews'), { body })).status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.api('POST', path('/reviews'), { body: { status: 'approved', content: 'x', asset_version_id: 'nope' } })).status).toBe(404);
    expect((await t.api('POST', path('/reviews'), { body: { status: 'approved', content: 'x', assigned_user_id: other.userId } })).status).toBe(404);
    expect((await other.api('GET', path('/reviews'))).status).toBe(404);
  });
});

describe('notifications across the account', () => {
  it('shows the demo user the seeded open review requests and change requests', async () => {
    const headers = { 'x-workspace-id': null };
    const requests = z.array(ReviewRequest).parse((await t.api('GET', '/reviewRequests', { headers })).json);
    expect(requests).toHaveLength(3);
    for (const r of requests) {
      expect(r).toMatchObject({ user_id: t.demo.user.userId, requestor_id: t.demo.colleague.userId });
      expect(r.review_id).toBeUndefined();
      expect(r.asset?.id).toBe(r.asset_id);
      expect(r.requestor?.firstName).toBe('Rafael');
    }
    const changes = z.array(AssetReview).parse((await t.api('GET', '/changeRequests', { headers })).json);
    expect(changes).toHaveLength(2);
    expect(changes.every((c) => c.assignee?.id === t.demo.user.userId && c.version !== null)).toBe(true);
  });

  it('keeps each account to itself and needs the account header', async () => {
    expect(z.array(ReviewRequest).parse((await other.api('GET', '/reviewRequests')).json)).toEqual([]);
    expect(z.array(AssetReview).parse((await other.api('GET', '/changeRequests')).json)).toEqual([]);
    expect((await t.api('GET', '/changeRequests', { headers: { 'x-account-id': null } })).status).toBe(400);
    expect((await t.api('GET', '/reviewRequests', { headers: { 'x-account-id': other.accountId } })).status).toBe(403);
    expect((await t.api('GET', '/reviewRequests', { headers: { authorization: null } })).status).toBe(401);
  });
});

describe('a deleted asset', () => {
  it('keeps its history readable but takes no new comments, tags or requests (409)', async () => {
    const victim = t.demo.assetIds[11] ?? '';
    expect((await t.api('DELETE', '/workspaces/assets', { body: { asset_ids: [victim] } })).status).toBe(200);
    const at = (rest: string) => `/workspaces/assets/${victim}${rest}`;
    expect((await t.api('GET', at('/history'))).status).toBe(200);
    for (const [method, p, body] of [
      ['POST', at('/comments'), { content: 'late' }],
      ['POST', at(`/tags/${tagId}`), undefined],
      ['POST', at(`/reviewRequests/${t.demo.colleague.userId}`), {}],
      ['POST', at('/reviews'), { status: 'approved', content: 'late' }],
    ] as const) {
      const res = await t.api(method, p, { body });
      expect(res.status, p).toBe(409);
      expect(errorCode(res)).toBe('invalid_state');
    }
  });
});
