/**
 * Contract: folders (docs/protocol.md "Folders" [ours]): create, nest, rename and move, cycles,
 * deleting empty, non-empty and whole subtrees (each item gets a tombstone in the feed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, ChangesPage, Folder, FolderDetail, Hierarchy } from '../helpers/served.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { createAsset, statusAndCode } from '../helpers/uploads.js';

describe('folders', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ demo: { assets: 1 } });
  });
  afterAll(() => t?.stop());

  const mkdir = async (name: string, parentId: string | null = null) => {
    const res = await t.api('POST', '/workspaces/folders', { body: { name, parent_id: parentId } });
    if (res.status !== 201) throw new Error(`POST /workspaces/folders answered ${res.status}: ${res.text}`);
    return Folder.parse(res.json);
  };
  const listing = async () => Hierarchy.parse((await t.api('GET', '/workspaces/folders/hierarchy')).json);

  it('creates a top-level folder and nested ones (201); the detail call lists children and assets', async () => {
    const top = await mkdir('Projects');
    expect(top).toMatchObject({ name: 'Projects', parent_id: null, isActive: true, workspace_id: t.demo.workspaceId });
    const child = await mkdir('2025', top.id);
    const grandchild = await mkdir('Q1', child.id);
    expect(grandchild.parent_id).toBe(child.id);
    const asset = await createAsset(t.api, { fileName: 'plan.md', folderId: child.id });

    const detail = FolderDetail.parse((await t.api('GET', `/workspaces/folders/${child.id}`)).json);
    expect(detail).toMatchObject({ id: child.id, parent_id: top.id, name: '2025' });
    expect(detail.folders.map((f) => f.id)).toEqual([grandchild.id]);
    expect(detail.assets.map((a) => a.id)).toEqual([asset.id]);
    expect(Asset.parse((await t.api('GET', `/workspaces/assets/${asset.id}`)).json).file_location).toBe('Projects/2025');
  });

  it('refuses a name that an active folder or asset already has in the parent (409 name_conflict), after NFC and case folding', async () => {
    const parent = await mkdir('Names');
    const cafe = await mkdir('Cafe\u0301', parent.id);
    const clash = await t.api('POST', '/workspaces/folders', { body: { name: 'CAFÉ', parent_id: parent.id } });
    expect(statusAndCode(clash)).toEqual({ status: 409, code: 'name_conflict' });
    expect((clash.json as { error: { details: { id: string } } }).error.details.id).toBe(cafe.id);

    await createAsset(t.api, { fileName: 'notes', folderId: parent.id });
    expect(statusAndCode(await t.api('POST', '/workspaces/folders', { body: { name: 'Notes', parent_id: parent.id } }))).toEqual({ status: 409, code: 'name_conflict' });
    // The same name elsewhere is fine.
    expect((await t.api('POST', '/workspaces/folders', { body: { name: 'CAFÉ' } })).status).toBe(201);
  });

  it('refuses bad names (400) and unknown or deleted parents (404)', async () => {
    for (const name of ['', 'a/b', '.', '..', 'nul\0byte', 'x'.repeat(256)]) {
      expect({ name, status: (await t.api('POST', '/workspaces/folders', { body: { name } })).status }).toEqual({ name, status: 400 });
    }
    expect((await t.api('POST', '/workspaces/folders', { body: { name: 'orphan', parent_id: '00000000-0000-4000-8000-000000000000' } })).status).toBe(404);
    const gone = await mkdir('Gone');
    await t.api('DELETE', `/workspaces/folders/${gone.id}`);
    expect((await t.api('POST', '/workspaces/folders', { body: { name: 'inside', parent_id: gone.id } })).status).toBe(404);
  });

  it('renames and moves a folder; assets inside follow it', async () => {
    const a = await mkdir('Move A');
    const b = await mkdir('Move B');
    const inner = await mkdir('Inner', a.id);
    const asset = await createAsset(t.api, { fileName: 'inside.txt', folderId: inner.id });

    const renamed = await t.api('PUT', `/workspaces/folders/${inner.id}`, { body: { name: 'Renamed' } });
    expect(Folder.parse(renamed.json)).toMatchObject({ name: 'Renamed', parent_id: a.id });
    const moved = await t.api('PUT', `/workspaces/folders/${inner.id}`, { body: { parent_id: b.id } });
    expect(Folder.parse(moved.json)).toMatchObject({ name: 'Renamed', parent_id: b.id });
    expect(Asset.parse((await t.api('GET', `/workspaces/assets/${asset.id}`)).json).file_location).toBe('Move B/Renamed');
    const top = await t.api('PUT', `/workspaces/folders/${inner.id}`, { body: { parent_id: null, name: 'Top again' } });
    expect(Folder.parse(top.json)).toMatchObject({ name: 'Top again', parent_id: null });
    expect((await listing()).folders.find((f) => f.id === inner.id)).toMatchObject({ parent_id: null, name: 'Top again' });
  });

  it('refuses to move a folder into itself or below itself (409 cycle), and onto a taken name (409)', async () => {
    const root = await mkdir('Cycle');
    const child = await mkdir('Child', root.id);
    const grandchild = await mkdir('Grandchild', child.id);
    expect(statusAndCode(await t.api('PUT', `/workspaces/folders/${root.id}`, { body: { parent_id: grandchild.id } }))).toEqual({ status: 409, code: 'cycle' });
    expect(statusAndCode(await t.api('PUT', `/workspaces/folders/${root.id}`, { body: { parent_id: root.id } }))).toEqual({ status: 409, code: 'cycle' });
    expect((await listing()).folders.find((f) => f.id === root.id)?.parent_id).toBeNull();

    const sibling = await mkdir('Sibling', root.id);
    expect(statusAndCode(await t.api('PUT', `/workspaces/folders/${sibling.id}`, { body: { name: 'child' } }))).toEqual({ status: 409, code: 'name_conflict' });
    expect((await t.api('PUT', '/workspaces/folders/00000000-0000-4000-8000-000000000000', { body: { name: 'x' } })).status).toBe(404);
  });

  it('deletes an empty folder; refuses a non-empty one (409 folder_not_empty) and changes nothing', async () => {
    const empty = await mkdir('Empty');
    expect((await t.api('DELETE', `/workspaces/folders/${empty.id}`)).json).toEqual({ success: true });
    expect((await listing()).folders.map((f) => f.id)).not.toContain(empty.id);

    const withFolder = await mkdir('Has folder');
    await mkdir('sub', withFolder.id);
    const withAsset = await mkdir('Has asset');
    await createAsset(t.api, { fileName: 'keep.txt', folderId: withAsset.id });
    for (const folder of [withFolder, withAsset]) {
      expect(statusAndCode(await t.api('DELETE', `/workspaces/folders/${folder.id}`))).toEqual({ status: 409, code: 'folder_not_empty' });
    }
    expect((await listing()).folders.map((f) => f.id)).toEqual(expect.arrayContaining([withFolder.id, withAsset.id]));
  });

  it('deletes recursively: every folder and asset below gets a tombstone; an asset restored from it lands at the top', async () => {
    const root = await mkdir('Tree');
    const branch = await mkdir('Branch', root.id);
    const leaf = await mkdir('Leaf', branch.id);
    const a1 = await createAsset(t.api, { fileName: 'one.txt', folderId: root.id });
    const a2 = await createAsset(t.api, { fileName: 'two.txt', folderId: leaf.id });
    const before = (await listing()).sequence;

    expect((await t.api('DELETE', `/workspaces/folders/${root.id}?recursive=true`)).json).toEqual({ success: true });
    const after = await listing();
    for (const id of [root.id, branch.id, leaf.id]) expect(after.folders.map((f) => f.id)).not.toContain(id);
    for (const id of [a1.id, a2.id]) expect(after.assets.map((a) => a.id)).not.toContain(id);

    const feed = ChangesPage.parse((await t.api('GET', `/workspaces/changes?since=${before}`)).json);
    expect(feed.changes.map((c) => [c.type, c.id]).sort()).toEqual(
      [['folder', root.id], ['folder', branch.id], ['folder', leaf.id], ['asset', a1.id], ['asset', a2.id]].sort(),
    );
    expect(feed.changes.every((c) => c.deleted)).toBe(true);
    expect(FolderDetail.parse((await t.api('GET', `/workspaces/folders/${root.id}`)).json).isActive).toBe(false);
    expect(statusAndCode(await t.api('PUT', `/workspaces/folders/${root.id}`, { body: { name: 'Revived' } }))).toEqual({ status: 409, code: 'invalid_state' });

    const restored = Asset.parse((await t.api('PATCH', `/workspaces/assets/${a2.id}/restore`)).json);
    expect(restored).toMatchObject({ isActive: true, folder_id: null, file_location: '' });
  });
});
