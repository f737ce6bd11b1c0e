/**
 * Contract: versions (docs/protocol.md "Versions"): conditional commits on commit_parent_id,
 * idempotent retries of one key, deleting and restoring versions, and the history of it all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, AssetVersion, HistoryEntry, Hierarchy } from '../helpers/served.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { createAsset, postVersion, requestUpload, sha256, statusAndCode, upload } from '../helpers/uploads.js';

describe('versions', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ demo: { assets: 1 } });
  });
  afterAll(() => t?.stop());

  const getAsset = async (id: string) => Asset.parse((await t.api('GET', `/workspaces/assets/${id}`)).json);
  const versions = async (id: string) => AssetVersion.array().parse((await t.api('GET', `/workspaces/assets/${id}/versions`)).json);
  const entry = async (id: string) => Hierarchy.parse((await t.api('GET', '/workspaces/folders/hierarchy')).json).assets.find((a) => a.id === id);

  it('commits on top of the current version (201) and the current version moves to it', async () => {
    const asset = await createAsset(t.api, { fileName: 'cover.png', bytes: 'v1' });
    const up = await upload(t.api, 'v2');
    const res = await t.api('POST', `/workspaces/assets/${asset.id}/versions`, {
      body: { key: up.key, checksum: up.checksum, size: up.size, commit_parent_id: asset.current_version_id, description: 'brighter' },
    });
    expect(res.status).toBe(201);
    const v2 = AssetVersion.parse(res.json);
    expect(v2).toMatchObject({ asset_id: asset.id, version_number: 2, commit_parent_id: asset.current_version_id, checksum: sha256('v2'), size: 2, description: 'brighter' });
    expect((await getAsset(asset.id)).current_version_id).toBe(v2.id);
    expect(await entry(asset.id)).toMatchObject({ current_version_id: v2.id, version_number: 2, checksum: sha256('v2') });
    expect((await versions(asset.id)).map((v) => v.version_number)).toEqual([2, 1]);
  });

  it('refuses a commit on a stale parent (409 version_conflict with the current version) and keeps the upload for a retry', async () => {
    const asset = await createAsset(t.api, { fileName: 'contested.psd', bytes: 'base' });
    const theirs = await postVersion(t.colleague.api, asset.id, { parentId: asset.current_version_id, bytes: 'their edit' });
    expect(theirs.status).toBe(201);

    const mine = await upload(t.api, 'my edit');
    const stale = await t.api('POST', `/workspaces/assets/${asset.id}/versions`, { body: { key: mine.key, checksum: mine.checksum, commit_parent_id: asset.current_version_id } });
    expect(statusAndCode(stale)).toEqual({ status: 409, code: 'version_conflict' });
    expect((stale.json as { error: { details: unknown } }).error.details).toEqual({ current_version_id: theirs.json.id, checksum: sha256('their edit') });
    expect((await getAsset(asset.id)).current_version_id).toBe(theirs.json.id);

    // After merging, the same key commits on top of their version.
    const merged = await t.api('POST', `/workspaces/assets/${asset.id}/versions`, { body: { key: mine.key, checksum: mine.checksum, commit_parent_id: theirs.json.id } });
    expect(merged.status).toBe(201);
    expect(AssetVersion.parse(merged.json)).toMatchObject({ version_number: 3, commit_parent_id: theirs.json.id });
  });

  it('answers a repeated commit of the same key with 200 and the same version, never a duplicate', async () => {
    const asset = await createAsset(t.api, { fileName: 'retry.txt', bytes: 'one' });
    const up = await upload(t.api, 'two');
    const body = { key: up.key, checksum: up.checksum, commit_parent_id: asset.current_version_id };
    const first = await t.api('POST', `/workspaces/assets/${asset.id}/versions`, { body });
    expect(first.status).toBe(201);
    // The retry's parent is now stale, yet it is recognised as the same commit rather than a conflict.
    const again = await t.api('POST', `/workspaces/assets/${asset.id}/versions`, { body });
    expect(again.status).toBe(200);
    expect(AssetVersion.parse(again.json).id).toBe(AssetVersion.parse(first.json).id);
    expect((await versions(asset.id)).map((v) => v.version_number)).toEqual([2, 1]);
  });

  it('commits without commit_parent_id unconditionally', async () => {
    const asset = await createAsset(t.api, { fileName: 'blind.txt' });
    await postVersion(t.api, asset.id, { parentId: asset.current_version_id });
    const blind = await postVersion(t.api, asset.id, {});
    expect(blind.status).toBe(201);
    expect(blind.json.version_number).toBe(3);
  });

  it('refuses a key that was never PUT (upload_missing), a wrong checksum, and a key of another workspace (400)', async () => {
    const asset = await createAsset(t.api, { fileName: 'strict.txt' });
    const ticket = await requestUpload(t.api, 'never sent');
    expect(statusAndCode(await t.api('POST', `/workspaces/assets/${asset.id}/versions`, { body: { key: ticket.key, checksum: ticket.checksum } })))
      .toEqual({ status: 400, code: 'upload_missing' });

    const up = await upload(t.api, 'sent');
    expect(statusAndCode(await t.api('POST', `/workspaces/assets/${asset.id}/versions`, { body: { key: up.key, checksum: sha256('not sent') } })))
      .toEqual({ status: 400, code: 'checksum_mismatch' });

    const other = await t.tenant('Foreign Uploads');
    const foreign = await upload(other.api, 'foreign bytes');
    expect((await t.api('POST', `/workspaces/assets/${asset.id}/versions`, { body: { key: foreign.key, checksum: foreign.checksum } })).status).toBe(400);
    expect((await t.api('POST', `/workspaces/assets/${asset.id}/versions`, { body: { key: 'up_unknown', checksum: up.checksum } })).status).toBe(400);
    expect((await getAsset(asset.id)).currentVersion?.version_number).toBe(1);
  });

  it('refuses to reuse a committed key for another asset, so purging one asset cannot take the other one\'s bytes', async () => {
    const first = await createAsset(t.api, { fileName: 'shared-a.bin', bytes: 'shared bytes' });
    const key = first.currentVersion?.key ?? '';
    const checksum = sha256('shared bytes');
    const second = await t.api('POST', '/workspaces/assets', { body: { key, file_name: 'shared-b.bin', checksum } });
    expect(statusAndCode(second)).toEqual({ status: 409, code: 'invalid_state' });
    const other = await createAsset(t.api, { fileName: 'shared-c.bin' });
    expect(statusAndCode(await t.api('POST', `/workspaces/assets/${other.id}/versions`, { body: { key, checksum } }))).toEqual({ status: 409, code: 'invalid_state' });

    await t.api('DELETE', '/workspaces/assets', { body: { asset_ids: [other.id], permanent: true } });
    const download = await t.api('GET', `/workspaces/assets/${first.id}/download`);
    const bytes = await (await fetch(download.headers.get('location') ?? '')).text();
    expect(bytes).toBe('shared bytes');
  });

  it('deletes a version: deleting the current one moves current back; the last remaining one cannot go (409)', async () => {
    const asset = await createAsset(t.api, { fileName: 'layers.psd', bytes: 'v1' });
    const v2 = await postVersion(t.api, asset.id, { parentId: asset.current_version_id, bytes: 'v2' });
    const del = await t.api('DELETE', `/workspaces/assets/${asset.id}/versions/${v2.json.id}`);
    expect(del.json).toEqual({ success: true });
    expect((await getAsset(asset.id)).current_version_id).toBe(asset.current_version_id);
    expect(await entry(asset.id)).toMatchObject({ current_version_id: asset.current_version_id, checksum: sha256('v1'), version_number: 1 });
    expect((await versions(asset.id)).map((v) => [v.version_number, v.deleted])).toEqual([[2, true], [1, false]]);

    const last = await t.api('DELETE', `/workspaces/assets/${asset.id}/versions/${asset.current_version_id}`);
    expect(last.status).toBe(409);
    expect((await versions(asset.id)).find((v) => v.id === asset.current_version_id)?.deleted).toBe(false);
  });

  it('restores a deleted version without making it current; restoring one that is not deleted is 409 not_deleted', async () => {
    const asset = await createAsset(t.api, { fileName: 'restore.ai', bytes: 'v1' });
    const v2 = await postVersion(t.api, asset.id, { parentId: asset.current_version_id, bytes: 'v2' });
    await t.api('DELETE', `/workspaces/assets/${asset.id}/versions/${asset.current_version_id}`);
    const restored = await t.api('PATCH', `/workspaces/assets/${asset.id}/versions/${asset.current_version_id}/restore`);
    expect(restored.status).toBe(200);
    expect(AssetVersion.parse(restored.json)).toMatchObject({ id: asset.current_version_id, deleted: false });
    expect((await getAsset(asset.id)).current_version_id).toBe(v2.json.id);
    expect(statusAndCode(await t.api('PATCH', `/workspaces/assets/${asset.id}/versions/${v2.json.id}/restore`))).toEqual({ status: 409, code: 'not_deleted' });
  });

  it('gets and renames one version; unknown versions are 404', async () => {
    const asset = await createAsset(t.api, { fileName: 'named.txt' });
    const patched = await t.api('PATCH', `/workspaces/assets/${asset.id}/versions/${asset.current_version_id}`, { body: { name: 'First cut', description: 'rough' } });
    expect(AssetVersion.parse(patched.json)).toMatchObject({ name: 'First cut', description: 'rough' });
    expect(AssetVersion.parse((await t.api('GET', `/workspaces/assets/${asset.id}/versions/${asset.current_version_id}`)).json).name).toBe('First cut');
    expect((await t.api('GET', `/workspaces/assets/${asset.id}/versions/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await t.api('DELETE', `/workspaces/assets/${asset.id}/versions/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it('records every change in the asset history, in order', async () => {
    const asset = await createAsset(t.api, { fileName: 'story.md', bytes: 'v1' });
    const v2 = await postVersion(t.api, asset.id, { parentId: asset.current_version_id, bytes: 'v2' });
    await t.api('PUT', `/workspaces/assets/${asset.id}`, { body: { file_name: 'story-final.md' } });
    await t.api('PUT', `/workspaces/assets/${asset.id}`, { body: { locked: true } });
    await t.api('PUT', `/workspaces/assets/${asset.id}`, { body: { locked: false } });
    await t.api('DELETE', `/workspaces/assets/${asset.id}/versions/${v2.json.id}`);
    await t.api('PATCH', `/workspaces/assets/${asset.id}/versions/${v2.json.id}/restore`);
    await t.api('DELETE', '/workspaces/assets', { body: { asset_ids: [asset.id] } });
    await t.api('PATCH', `/workspaces/assets/${asset.id}/restore`);

    const res = await t.api('GET', `/workspaces/assets/${asset.id}/history`);
    expect(res.status).toBe(200);
    const history = HistoryEntry.array().parse(res.json);
    expect(history.map((h) => h.action)).toEqual([
      'created', 'version_created', 'renamed', 'locked', 'unlocked', 'version_deleted', 'version_restored', 'deleted', 'restored',
    ]);
    const sequences = history.map((h) => h.sequence ?? 0);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(new Set(sequences).size).toBe(sequences.length);
    expect(history.every((h) => h.user_id === t.user.userId)).toBe(true);
  });
});
