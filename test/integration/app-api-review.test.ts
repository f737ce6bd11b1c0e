/**
 * The app API of reviews in context, comments, conflicts and locks, against the local service
 * over HTTP with the real engine: a review request names the version, folder and where it is
 * synced; a rejection needs a reason; a decision can be changed and withdrawn (the request opens
 * again) and stays in the "Decided" list; the comment thread is read and added to with a mention
 * and an attachment; a conflict is listed with both sides and resolved; a file is locked.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset, AssetReview } from '../../shared/api/index.js';
import type { EngineStatus } from '../../shared/engine.js';
import type { ReviewItem } from '../../shared/ipc.js';
import type { AppApi } from '../../main/app-api/index.js';
import { statusWhen } from '../helpers/app-status.js';
import type { TestService } from '../helpers/service.js';
import { signedInApp, type SignedInApp } from '../helpers/signed-in-app.js';

let app: SignedInApp;
let svc: TestService;
let dir: string;
let api: AppApi;
const HERO = 'Campaigns/Spring/Social/hero.psd';
const workspaceDir = (): string => join(dir, 'Asset Sync', 'Spring Campaign');

const settled = (done: (status: EngineStatus) => boolean): Promise<EngineStatus> => statusWhen(api, done);

beforeAll(async () => {
  app = await signedInApp('app-api-review', []);
  ({ svc, api, dir } = app);
}, 120_000);

afterAll(() => app?.close());

const heroRequest = async (): Promise<ReviewItem | undefined> => (await api.handle('listReviews', {})).reviewRequests.find((r) => r.assetName === 'hero.psd');

describe('reviews in context', () => {
  it('names the version in question, its folder and where it is synced here', async () => {
    expect(await heroRequest()).toMatchObject({ versionNumber: 3, folder: 'Campaigns/Spring/Social', path: HERO, from: 'Rafael Reviewer' });
  });

  it('names the folder of a change request from where its asset is synced (the request does not say)', async () => {
    const { assetId } = (await heroRequest()) as ReviewItem;
    const made = await svc.colleague.api<AssetReview>('POST', `/workspaces/assets/${assetId}/reviews`, {
      body: { status: 'rejected', content: 'Warmer light, please.', assigned_user_id: svc.user.userId },
    });
    expect(made.status).toBe(201);
    try {
      const { changeRequests } = await api.handle('listReviews', {});
      expect(changeRequests.find((c) => c.message === 'Warmer light, please.')).toMatchObject({ kind: 'change_request', folder: 'Campaigns/Spring/Social', path: HERO });
    } finally {
      await svc.colleague.api('DELETE', `/workspaces/assets/${assetId}/reviews/${made.json.id}`);
    }
  });

  it('refuses a rejection without a reason, and keeps the request open', async () => {
    const request = (await heroRequest()) as ReviewItem;
    const refused = api.handle('decideReview', { workspaceId: svc.demo.workspaceId, assetId: request.assetId, versionId: request.versionId, status: 'rejected', content: '  ' });
    await expect(refused).rejects.toMatchObject({ code: 'reason_required' });
    expect(await heroRequest()).toBeDefined();
  });

  it('rejects with a reason, changes the decision, keeps it in the Decided list, and withdraws it: the request is open again', async () => {
    const request = (await heroRequest()) as ReviewItem;
    const { reviewId, decision } = await api.handle('decideReview', {
      workspaceId: svc.demo.workspaceId,
      assetId: request.assetId,
      versionId: request.versionId,
      status: 'rejected',
      content: 'The sky is too dark.',
    });
    expect(decision).toMatchObject({ reviewId, status: 'rejected', versionNumber: 3, assetName: 'hero.psd', folder: 'Campaigns/Spring/Social', requestedBy: 'Rafael Reviewer' });
    expect(await heroRequest()).toBeUndefined();
    const onService = async () => (await svc.colleague.api<AssetReview[]>('GET', `/workspaces/assets/${request.assetId}/reviews`)).json;
    expect(await onService()).toContainEqual(expect.objectContaining({ id: reviewId, status: 'rejected', content: 'The sky is too dark.', asset_version_id: request.versionId }));
    expect((await api.handle('listDecided', {})).map((d) => d.reviewId)).toEqual([reviewId]);

    await expect(api.handle('changeDecision', { workspaceId: svc.demo.workspaceId, assetId: request.assetId, reviewId, status: 'rejected', content: '' })).rejects.toMatchObject({ code: 'reason_required' });
    const changed = await api.handle('changeDecision', { workspaceId: svc.demo.workspaceId, assetId: request.assetId, reviewId, status: 'approved', content: 'Fine after all.' });
    expect(changed).toMatchObject({ reviewId, status: 'approved', content: 'Fine after all.', versionNumber: 3 });
    expect(await onService()).toContainEqual(expect.objectContaining({ id: reviewId, status: 'approved' }));

    await api.handle('undoDecision', { workspaceId: svc.demo.workspaceId, assetId: request.assetId, reviewId });
    expect((await onService()).map((r) => r.id)).not.toContain(reviewId);
    expect(await heroRequest()).toMatchObject({ assetId: request.assetId, versionNumber: 3 });
    expect(await api.handle('listDecided', {})).toEqual([]);
    // A repeat (its first answer lost) withdraws nothing more and fails nothing.
    await api.handle('undoDecision', { workspaceId: svc.demo.workspaceId, assetId: request.assetId, reviewId });
  });
});

describe('the comment thread', () => {
  it('is read and added to, with a mention of a colleague and an attachment', async () => {
    const { assetId } = (await heroRequest()) as ReviewItem;
    const members = await api.handle('listMembers', { workspaceId: svc.demo.workspaceId });
    expect(members).toEqual([
      expect.objectContaining({ name: 'Dana Designer', you: true }),
      expect.objectContaining({ userId: svc.colleague.userId, name: 'Rafael Reviewer', you: false }),
    ]);
    const before = await api.handle('listComments', { workspaceId: svc.demo.workspaceId, assetId });

    const added = await api.handle('addComment', {
      workspaceId: svc.demo.workspaceId,
      assetId,
      content: '@Rafael Reviewer the sky, see the mark-up',
      mentions: [svc.colleague.userId],
      attachments: [{ name: 'sky markup.png', dataBase64: Buffer.from('a mark-up').toString('base64') }],
    });
    expect(added).toMatchObject({ author: 'Dana Designer', yours: true, mentions: [{ userId: svc.colleague.userId, name: 'Rafael Reviewer' }], attachments: [{ name: 'sky markup.png' }] });
    const thread = await api.handle('listComments', { workspaceId: svc.demo.workspaceId, assetId });
    expect(thread).toHaveLength(before.length + 1);
    expect(thread.at(-1)).toEqual(added);
    const seen = await svc.colleague.api<Array<{ content: string; mentions: string[]; attachments: Array<{ name: string }> }>>('GET', `/workspaces/assets/${assetId}/comments`);
    expect(seen.json.at(-1)).toMatchObject({ content: '@Rafael Reviewer the sky, see the mark-up', mentions: [svc.colleague.userId], attachments: [{ name: 'sky markup.png' }] });

    const tooLarge = Buffer.alloc(600 * 1024).toString('base64');
    await expect(api.handle('addComment', { workspaceId: svc.demo.workspaceId, assetId, content: 'big', attachments: [{ name: 'big.bin', dataBase64: tooLarge }] })).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });
});

describe('a conflict through the app', () => {
  it('is listed with both sides, and "keep mine" makes the copy the current version', async () => {
    const path = 'Docs/asset-naming.md';
    const entry = (await api.handle('listFiles', { workspaceId: svc.demo.workspaceId, folder: 'Docs' })).find((e) => e.path === path);
    const assetId = entry?.assetId ?? '';
    await api.handle('pause', {});
    await writeFile(join(workspaceDir(), path), 'mine, from the app\n');
    const theirs = Buffer.from('theirs, from the desk\n');
    const ticket = await svc.colleague.api<{ key: string; signed_url: string }>('POST', `/workspaces/upload?file_name=x&content_type=text/plain&checksum=${sha(theirs)}&size=${theirs.length}`);
    await fetch(ticket.json.signed_url, { method: 'PUT', body: theirs });
    const asset = (await svc.colleague.api<Asset>('GET', `/workspaces/assets/${assetId}`)).json;
    const made = await svc.colleague.api<{ id: string; version_number: number }>('POST', `/workspaces/assets/${assetId}/versions`, {
      body: { key: ticket.json.key, checksum: sha(theirs), commit_parent_id: asset.current_version_id },
    });
    await api.handle('resume', {});
    const waiting = await settled((s) => s.workspaces[0]?.problems.some((p) => p.kind === 'conflict') === true && s.state === 'attention');
    expect(waiting.state).toBe('attention');

    const [conflict] = await api.handle('listConflicts', {});
    expect(conflict).toMatchObject({ path, assetId, theirs: { versionId: made.json.id, versionNumber: made.json.version_number, author: 'Rafael Reviewer' }, mine: { size: 19 } });
    expect(conflict?.copyPath).toMatch(/^Docs\/asset-naming \(conflicted copy .+\)\.md$/);

    const resolved = await api.handle('resolveConflict', { workspaceId: svc.demo.workspaceId, copyPath: conflict?.copyPath ?? '', keep: 'mine', theirsVersionId: made.json.id });
    expect(resolved).toMatchObject({ keep: 'mine', path, versionNumber: made.json.version_number + 1 });
    const current = (await svc.colleague.api<Asset>('GET', `/workspaces/assets/${assetId}`)).json;
    expect(current.currentVersion?.checksum).toBe(sha(Buffer.from('mine, from the app\n')));
    expect(await api.handle('listConflicts', {})).toEqual([]);
    await settled((s) => s.state === 'up-to-date');
  });
});

describe('locks from the app', () => {
  it('locks a synced file for the user, and refuses a lock someone else holds, naming them', async () => {
    const readme = (await api.handle('listFiles', { workspaceId: svc.demo.workspaceId, folder: '' })).find((e) => e.name === 'README.txt');
    expect(await api.handle('setLock', { workspaceId: svc.demo.workspaceId, path: 'README.txt', locked: true })).toEqual({ locked: true, lockedBy: null, byYou: true });
    expect((await svc.colleague.api<Asset>('GET', `/workspaces/assets/${readme?.assetId}`)).json.locked_by_user_id).toBe(svc.user.userId);
    expect(await api.handle('setLock', { workspaceId: svc.demo.workspaceId, path: 'README.txt', locked: false })).toEqual({ locked: false, lockedBy: null, byYou: false });

    expect((await svc.colleague.api('PUT', `/workspaces/assets/${readme?.assetId}`, { body: { locked: true } })).status).toBe(200);
    await expect(api.handle('setLock', { workspaceId: svc.demo.workspaceId, path: 'README.txt', locked: false })).rejects.toMatchObject({
      code: 'locked',
      message: 'README.txt is locked by Rafael Reviewer: only they can unlock it. Ask them, or wait until they do.',
    });
    await svc.colleague.api('PUT', `/workspaces/assets/${readme?.assetId}`, { body: { locked: false } });
    await expect(api.handle('setLock', { workspaceId: svc.demo.workspaceId, path: 'not-synced.txt', locked: true })).rejects.toMatchObject({ code: 'not_synced' });
  });
});

function sha(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
