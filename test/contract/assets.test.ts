/**
 * Contract: asset state transitions (reference part 3; docs/protocol.md "Assets"): create from an
 * uploaded key, name conflicts, rename/move/lock, soft delete and restore, permanent and
 * conditional deletes, each seen the way a sync client sees it (listing and changes feed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, ChangesPage, Hierarchy } from '../../shared/api/index.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { createAsset, postAsset, postVersion, sha256, statusAndCode, upload } from '../helpers/uploads.js';

describe('assets', () => {
  let t: TestService;
  let folderId = '';
  let otherFolderId = '';
  beforeAll(async () => {
    t = await startTestService({ demo: { assets: 2 } });
    folderId = (await t.api<{ id: string }>('POST', '/workspaces/folders', { body: { name: 'Assets contract' } })).json.id;
    otherFolderId = (await t.api<{ id: string }>('POST', '/workspaces/folders', { body: { name: 'Elsewhere' } })).json.id;
  });
  afterAll(() => t?.stop());

  const listing = async () => Hierarchy.parse((await t.api('GET', '/workspaces/folders/hierarchy')).json);
  const changesSince = async (since: number) => ChangesPage.parse((await t.api('GET', `/workspaces/changes?since=${since}`)).json);

  it('creates an asset from an uploaded key in a folder (201), with version 1 as its current version', async () => {
    const bytes = 'poster, first draft';
    const up = await upload(t.api, bytes, 'poster.pdf');
    const res = await t.api('POST', '/workspaces/assets', { body: { key: up.key, file_name: 'poster.pdf', folder_id: folderId, checksum: up.checksum, size: up.size } });
    expect(res.status).toBe(201);
    const asset = Asset.parse(res.json);
    expect(asset).toMatchObject({ file_name: 'poster.pdf', folder_id: folderId, file_location: 'Assets contract', isActive: true, locked_by_user_id: null });
    expect(asset.currentVersion).toMatchObject({ id: asset.current_version_id, version_number: 1, checksum: sha256(bytes), size: Buffer.byteLength(bytes) });
    expect(asset.currentVersion?.commit_parent_id ?? null).toBeNull();
    const entry = (await listing()).assets.find((a) => a.id === asset.id);
    expect(entry).toMatchObject({ folder_id: folderId, current_version_id: asset.current_version_id, checksum: sha256(bytes) });
  });

  it('answers 409 name_conflict with the existing asset\'s id, current version and checksum (names compared case-insensitively)', async () => {
    const bytes = 'original logo';
    const first = await createAsset(t.api, { fileName: 'Logo.svg', folderId, bytes });
    const again = await postAsset(t.api, { fileName: 'logo.SVG', folderId, bytes: 'a second logo' });
    expect(statusAndCode(again)).toEqual({ status: 409, code: 'name_conflict' });
    expect((again.json as unknown as { error: { details: unknown } }).error.details).toEqual({
      id: first.id,
      current_version_id: first.current_version_id,
      checksum: sha256(bytes),
    });
    // The same name in another folder is fine.
    expect((await postAsset(t.api, { fileName: 'Logo.svg', folderId: otherFolderId })).status).toBe(201);
  });

  it('renames (POST with id, and PUT) and moves an asset; the listing follows', async () => {
    const asset = await createAsset(t.api, { fileName: 'draft.txt', folderId });
    const renamed = await t.api('POST', '/workspaces/assets', { body: { id: asset.id, file_name: 'final.txt' } });
    expect(renamed.status).toBe(200);
    expect(Asset.parse(renamed.json)).toMatchObject({ file_name: 'final.txt', name: 'final.txt', folder_id: folderId });
    const moved = await t.api('PUT', `/workspaces/assets/${asset.id}`, { body: { folder_id: otherFolderId } });
    expect(Asset.parse(moved.json)).toMatchObject({ file_name: 'final.txt', folder_id: otherFolderId, file_location: 'Elsewhere' });
    const toTop = await t.api('PUT', `/workspaces/assets/${asset.id}`, { body: { folder_id: null, file_name: 'final-top.txt' } });
    expect(Asset.parse(toTop.json)).toMatchObject({ folder_id: null, file_name: 'final-top.txt', file_location: '' });
    const entry = (await listing()).assets.find((a) => a.id === asset.id);
    expect(entry).toMatchObject({ folder_id: null, file_name: 'final-top.txt', current_version_id: asset.current_version_id });
  });

  it('refuses a rename onto a taken name (409) and a move into an unknown folder (404)', async () => {
    const a = await createAsset(t.api, { fileName: 'one.txt', folderId });
    await createAsset(t.api, { fileName: 'two.txt', folderId });
    expect(statusAndCode(await t.api('PUT', `/workspaces/assets/${a.id}`, { body: { file_name: 'TWO.txt' } }))).toEqual({ status: 409, code: 'name_conflict' });
    expect((await t.api('PUT', `/workspaces/assets/${a.id}`, { body: { folder_id: '00000000-0000-4000-8000-000000000000' } })).status).toBe(404);
    expect((await t.api('PUT', `/workspaces/assets/${a.id}`, { body: { file_name: 'a/b.txt' } })).status).toBe(400);
  });

  it('locks an asset: another user can neither add a version, unlock, rename, move nor delete it (403 asset_locked)', async () => {
    const asset = await createAsset(t.api, { fileName: 'locked.psd', folderId });
    const locked = await t.api('PUT', `/workspaces/assets/${asset.id}`, { body: { locked: true } });
    expect(Asset.parse(locked.json).locked_by_user_id).toBe(t.user.userId);

    const theirs = await postVersion(t.colleague.api, asset.id, { parentId: asset.current_version_id });
    expect(statusAndCode(theirs)).toEqual({ status: 403, code: 'asset_locked' });
    expect(statusAndCode(await t.colleague.api('PUT', `/workspaces/assets/${asset.id}`, { body: { locked: false } }))).toEqual({ status: 403, code: 'asset_locked' });
    expect(statusAndCode(await t.colleague.api('DELETE', '/workspaces/assets', { body: { asset_ids: [asset.id] } }))).toEqual({ status: 403, code: 'asset_locked' });
    // Not even as an admin, who may delete for good.
    expect((await t.api('POST', `/workspaces/members/${t.colleague.userId}`, { body: { roles: ['admin'] } })).status).toBe(200);
    expect(statusAndCode(await t.colleague.api('DELETE', '/workspaces/assets', { body: { asset_ids: [asset.id], permanent: true } }))).toEqual({ status: 403, code: 'asset_locked' });
    expect((await t.api('POST', `/workspaces/members/${t.colleague.userId}`, { body: { roles: ['editor'] } })).status).toBe(200);
    // Nor rename or move it.
    expect(statusAndCode(await t.colleague.api('PUT', `/workspaces/assets/${asset.id}`, { body: { file_name: 'theirs.psd' } }))).toEqual({ status: 403, code: 'asset_locked' });
    expect(statusAndCode(await t.colleague.api('PUT', `/workspaces/assets/${asset.id}`, { body: { folder_id: otherFolderId } }))).toEqual({ status: 403, code: 'asset_locked' });
    expect((await t.api('GET', `/workspaces/assets/${asset.id}`)).json).toMatchObject({ current_version_id: asset.current_version_id, isActive: true });

    // The holder still commits, then unlocks, and the colleague can commit again.
    const mine = await postVersion(t.api, asset.id, { parentId: asset.current_version_id });
    expect(mine.status).toBe(201);
    expect(Asset.parse((await t.api('PUT', `/workspaces/assets/${asset.id}`, { body: { locked: false } })).json).locked_by_user_id).toBeNull();
    expect((await postVersion(t.colleague.api, asset.id, { parentId: mine.json.id })).status).toBe(201);
  });

  it('soft-deletes: the listing drops it, the feed gives a tombstone, GET still shows it, restore brings it back', async () => {
    const asset = await createAsset(t.api, { fileName: 'soft.png', folderId });
    const before = (await listing()).sequence;
    const del = await t.api('DELETE', '/workspaces/assets', { body: { asset_ids: [asset.id] } });
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ success: true, deleted: [asset.id] });
    expect((await listing()).assets.map((a) => a.id)).not.toContain(asset.id);

    const feed = await changesSince(before);
    expect(feed.changes).toEqual([expect.objectContaining({ type: 'asset', id: asset.id, deleted: true })]);
    const tombstone = feed.changes[0];
    expect(tombstone?.type === 'asset' && tombstone.asset?.isActive).toBe(false);

    expect(Asset.parse((await t.api('GET', `/workspaces/assets/${asset.id}`)).json).isActive).toBe(false);
    const deletedListing = Hierarchy.parse((await t.api('GET', '/workspaces/folders/hierarchy?include_deleted=true')).json);
    expect(deletedListing.assets.find((a) => a.id === asset.id)?.isActive).toBe(false);

    const restored = await t.api('PATCH', `/workspaces/assets/${asset.id}/restore`);
    expect(restored.status).toBe(200);
    expect(Asset.parse(restored.json)).toMatchObject({ isActive: true, folder_id: folderId, current_version_id: asset.current_version_id });
    expect((await listing()).assets.map((a) => a.id)).toContain(asset.id);
    expect(statusAndCode(await t.api('PATCH', `/workspaces/assets/${asset.id}/restore`))).toEqual({ status: 409, code: 'not_deleted' });
  });

  it('refuses to restore onto a name that was taken meanwhile (409 name_conflict)', async () => {
    const asset = await createAsset(t.api, { fileName: 'taken.txt', folderId });
    await t.api('DELETE', '/workspaces/assets', { body: { asset_ids: [asset.id] } });
    await createAsset(t.api, { fileName: 'taken.txt', folderId });
    expect(statusAndCode(await t.api('PATCH', `/workspaces/assets/${asset.id}/restore`))).toEqual({ status: 409, code: 'name_conflict' });
  });

  it('deletes permanently: 404 afterwards, a purged tombstone in the feed, the bytes are gone', async () => {
    const asset = await createAsset(t.api, { fileName: 'purge-me.bin', folderId });
    const signedGet = (await t.api('GET', `/workspaces/assets/${asset.id}/download`)).headers.get('location') ?? '';
    const before = (await listing()).sequence;
    const del = await t.api('DELETE', '/workspaces/assets', { body: { asset_ids: [asset.id], permanent: true } });
    expect(del.json).toEqual({ success: true, deleted: [asset.id] });

    expect(statusAndCode(await t.api('GET', `/workspaces/assets/${asset.id}`))).toEqual({ status: 404, code: 'not_found' });
    expect((await t.api('PATCH', `/workspaces/assets/${asset.id}/restore`)).status).toBe(404);
    const feed = await changesSince(before);
    expect(feed.changes).toEqual([{ type: 'asset', id: asset.id, sequence: expect.any(Number), deleted: true, purged: true, asset: null }]);
    const blob = await fetch(signedGet);
    expect(blob.status).toBe(404);
    await blob.arrayBuffer();
    // Its key went with the bytes: it cannot make a new asset that would have none.
    const key = asset.currentVersion?.key ?? '';
    const reuse = await t.api('POST', '/workspaces/assets', { body: { key, file_name: 'ghost.bin', checksum: asset.currentVersion?.checksum } });
    expect(reuse.status).toBe(400);
  });

  it('deletes an asset named twice in one request once', async () => {
    const asset = await createAsset(t.api, { fileName: 'twice-named.txt', folderId });
    const before = (await listing()).sequence;
    const del = await t.api('DELETE', '/workspaces/assets', { body: { asset_ids: [asset.id, asset.id] } });
    expect(del.json).toEqual({ success: true, deleted: [asset.id] });
    expect((await changesSince(before)).changes).toHaveLength(1);
  });

  it('purges a soft-deleted asset with ?permanent=true', async () => {
    const asset = await createAsset(t.api, { fileName: 'twice.bin', folderId });
    await t.api('DELETE', '/workspaces/assets', { body: { asset_ids: [asset.id] } });
    expect((await t.api('DELETE', '/workspaces/assets?permanent=true', { body: { asset_ids: [asset.id] } })).status).toBe(200);
    expect((await t.api('GET', `/workspaces/assets/${asset.id}`)).status).toBe(404);
  });

  it('deletes conditionally: one stale expected version → 409 version_conflict and nothing is deleted', async () => {
    const a = await createAsset(t.api, { fileName: 'cond-a.txt', folderId });
    const b = await createAsset(t.api, { fileName: 'cond-b.txt', folderId });
    const newer = await postVersion(t.api, b.id, { parentId: b.current_version_id });
    expect(newer.status).toBe(201);

    const stale = await t.api('DELETE', '/workspaces/assets', {
      body: { asset_ids: [a.id, b.id], if_current_version_ids: { [a.id]: a.current_version_id, [b.id]: b.current_version_id } },
    });
    expect(statusAndCode(stale)).toEqual({ status: 409, code: 'version_conflict' });
    expect((stale.json as unknown as { error: { details: unknown } }).error.details).toMatchObject({ id: b.id, current_version_id: newer.json.id });
    const ids = (await listing()).assets.map((x) => x.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));

    const fresh = await t.api('DELETE', '/workspaces/assets', {
      body: { asset_ids: [a.id, b.id], if_current_version_ids: { [a.id]: a.current_version_id, [b.id]: newer.json.id } },
    });
    expect(fresh.json).toEqual({ success: true, deleted: [a.id, b.id] });
  });

  it('takes only a status of the workspace itself, on create and on update (404 otherwise)', async () => {
    const foreignStatus = '00000000-0000-4000-8000-0000000000aa';
    const up = await upload(t.api, 'with a status');
    const created = await t.api('POST', '/workspaces/assets', { body: { key: up.key, file_name: 'status.txt', checksum: up.checksum, status_id: foreignStatus } });
    expect(statusAndCode(created)).toEqual({ status: 404, code: 'not_found' });
    const mine = await createAsset(t.api, { fileName: 'status-ok.txt', folderId });
    expect((await t.api('PUT', `/workspaces/assets/${mine.id}`, { body: { status_id: foreignStatus } })).status).toBe(404);
  });

  it('answers 404 for an unknown asset id, and for an id of another workspace', async () => {
    expect(statusAndCode(await t.api('GET', '/workspaces/assets/00000000-0000-4000-8000-000000000000'))).toEqual({ status: 404, code: 'not_found' });
    const other = await t.tenant('Elsewhere Inc');
    const theirs = await createAsset(other.api, { fileName: 'private.txt' });
    expect((await t.api('GET', `/workspaces/assets/${theirs.id}`)).status).toBe(404);
    expect((await t.api('DELETE', '/workspaces/assets', { body: { asset_ids: [theirs.id] } })).status).toBe(404);
    expect((await other.api('GET', `/workspaces/assets/${theirs.id}`)).status).toBe(200);
  });
});
