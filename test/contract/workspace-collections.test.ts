import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Asset, Library, Success, Tag, Task, Workspace } from '../helpers/served.js';
import { errorCode, startTestService, type Session, type TestService } from '../helpers/service.js';

let t: TestService;
let other: Session;
beforeAll(async () => {
  t = await startTestService({ demo: { assets: 3 } });
  other = await t.tenant('Globex');
});
afterAll(async () => t?.stop());

const workspaceSequence = async () => Number(Workspace.parse((await t.api('GET', '/workspaces')).json).sequence);

describe('tags', () => {
  it('lists the workspace’s tags', async () => {
    const tags = z.array(Tag).parse((await t.api('GET', '/workspaces/tags')).json);
    expect(tags.map((tag) => tag.name)).toEqual(['draft', 'final', 'hero', 'needs-review']);
    expect(z.array(Tag).parse((await other.api('GET', '/workspaces/tags')).json)).toEqual([]);
  });

  it('creates a tag with the next workspace sequence; a duplicate name (any case) is 409 name_conflict', async () => {
    const before = await workspaceSequence();
    const res = await t.api('POST', '/workspaces/tags', { body: { name: 'approved', color: '#22c55e' } });
    expect(res.status).toBe(201);
    const tag = Tag.parse(res.json);
    expect(tag).toMatchObject({ workspace_id: t.demo.workspaceId, name: 'approved', color: '#22c55e', created_by_user_id: t.demo.user.userId });
    expect(tag.sequence).toBeGreaterThan(before);
    expect(await workspaceSequence()).toBeGreaterThanOrEqual(tag.sequence);

    const duplicate = await t.api('POST', '/workspaces/tags', { body: { name: 'Approved' } });
    expect(duplicate.status).toBe(409);
    expect(errorCode(duplicate)).toBe('name_conflict');
    // Another workspace may use the same name.
    expect((await other.api('POST', '/workspaces/tags', { body: { name: 'approved' } })).status).toBe(201);
  });

  it('answers 400 for a bad name or color', async () => {
    for (const body of [{}, { name: '' }, { name: 7 }, { name: 'x', color: 'green' }]) {
      expect((await t.api('POST', '/workspaces/tags', { body })).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('deletes a tag; another workspace’s tag is 404', async () => {
    const tag = Tag.parse((await t.api('POST', '/workspaces/tags', { body: { name: 'temporary' } })).json);
    expect((await other.api('DELETE', `/workspaces/tags/${tag.id}`)).status).toBe(404);
    expect(Success.parse((await t.api('DELETE', `/workspaces/tags/${tag.id}`)).json)).toEqual({ success: true });
    expect((await t.api('DELETE', `/workspaces/tags/${tag.id}`)).status).toBe(404);
    const names = z.array(Tag).parse((await t.api('GET', '/workspaces/tags')).json).map((x) => x.name);
    expect(names).not.toContain('temporary');
  });
});

describe('libraries', () => {
  let library: Library;

  it('creates a library (201) carrying a workspace sequence', async () => {
    const before = await workspaceSequence();
    const res = await t.api('POST', '/workspaces/libraries', { body: { name: 'Brand kit', description: 'Logos and colors' } });
    expect(res.status).toBe(201);
    library = Library.parse(res.json);
    expect(library).toMatchObject({ workspace_id: t.demo.workspaceId, name: 'Brand kit', description: 'Logos and colors', defaultAvatar: 1 });
    expect(library.sequence).toBeGreaterThan(before);
    expect(z.array(Library).parse((await t.api('GET', '/workspaces/libraries')).json).map((l) => l.id)).toEqual([library.id]);
    expect((await t.api('POST', '/workspaces/libraries', { body: { name: 'brand KIT' } })).status).toBe(409);
  });

  it('takes assets through POST /workspaces/assets with library_ids', async () => {
    const assetId = t.demo.assetIds[0];
    const res = await t.api('POST', '/workspaces/assets', { body: { id: assetId, library_ids: [library.id] } });
    expect(res.status).toBe(200);
    expect(Asset.parse(res.json).libraries?.map((l) => l.id)).toEqual([library.id]);
  });

  it('updates a library with a new sequence', async () => {
    const res = await t.api('PUT', `/workspaces/libraries/${library.id}`, { body: { name: 'Brand kit 2', defaultAvatar: 5, description: null } });
    expect(res.status).toBe(200);
    const updated = Library.parse(res.json);
    expect(updated).toMatchObject({ id: library.id, name: 'Brand kit 2', defaultAvatar: 5 });
    expect(updated.description, 'cleared: left out, never null').toBeUndefined();
    expect(updated.sequence).toBeGreaterThan(library.sequence);
  });

  it('answers 400 for bad input and 404 for unknown or foreign ids', async () => {
    expect((await t.api('POST', '/workspaces/libraries', { body: { name: 5 } })).status).toBe(400);
    expect((await t.api('PUT', `/workspaces/libraries/${library.id}`, { body: { defaultAvatar: 99 } })).status).toBe(400);
    expect((await t.api('PUT', '/workspaces/libraries/nope', { body: { name: 'x' } })).status).toBe(404);
    expect((await other.api('PUT', `/workspaces/libraries/${library.id}`, { body: { name: 'x' } })).status).toBe(404);
    expect((await other.api('DELETE', `/workspaces/libraries/${library.id}`)).status).toBe(404);
  });

  it('deletes a library and takes it off its assets', async () => {
    expect(Success.parse((await t.api('DELETE', `/workspaces/libraries/${library.id}`)).json)).toEqual({ success: true });
    expect((await t.api('DELETE', `/workspaces/libraries/${library.id}`)).status).toBe(404);
    const asset = Asset.parse((await t.api('GET', `/workspaces/assets/${t.demo.assetIds[0]}`)).json);
    expect(asset.libraries).toEqual([]);
  });
});

describe('tasks', () => {
  let task: Task;

  it('creates a task on an asset, assigned to a member (201, with a sequence)', async () => {
    const res = await t.api('POST', '/workspaces/tasks', {
      body: { title: 'Fix the margins', description: 'Top margin 24px', asset_id: t.demo.assetIds[1], assigned_user_id: t.demo.colleague.userId, due_date: '2030-06-30' },
    });
    expect(res.status).toBe(201);
    task = Task.parse(res.json);
    expect(task).toMatchObject({
      workspace_id: t.demo.workspaceId, asset_id: t.demo.assetIds[1], title: 'Fix the margins', status: 'open',
      assigned_user_id: t.demo.colleague.userId, created_by_user_id: t.demo.user.userId, due_date: '2030-06-30',
    });
    expect(task.sequence).toBeGreaterThan(0);
    expect(Task.parse((await t.colleague.api('GET', `/workspaces/tasks/${task.id}`)).json)).toEqual(task);
  });

  it('updates a task: status, assignee, due date', async () => {
    const res = await t.api('PUT', `/workspaces/tasks/${task.id}`, { body: { status: 'done', assigned_user_id: null, due_date: '2030-07-01T12:00:00Z' } });
    expect(res.status).toBe(200);
    const updated = Task.parse(res.json);
    expect(updated).toMatchObject({ status: 'done', due_date: '2030-07-01T12:00:00Z', title: 'Fix the margins' });
    expect(updated.assigned_user_id, 'unassigned: left out, never null').toBeUndefined();
    expect(Number(updated.sequence)).toBeGreaterThan(Number(task.sequence ?? 0));
  });

  it('answers 400 for bad input, 404 for unknown or foreign assets, assignees and tasks', async () => {
    for (const body of [{}, { title: '' }, { title: 'x', status: 'maybe' }, { title: 'x', due_date: 'tomorrow' }, { title: 'x', asset_id: 3 }]) {
      expect((await t.api('POST', '/workspaces/tasks', { body })).status, JSON.stringify(body)).toBe(400);
    }
    const foreignAsset = await other.api('POST', '/workspaces/tasks', { body: { title: 'x', asset_id: t.demo.assetIds[0] } });
    expect(foreignAsset.status).toBe(404);
    expect(errorCode(foreignAsset)).toBe('not_found');
    expect((await t.api('POST', '/workspaces/tasks', { body: { title: 'x', assigned_user_id: other.userId } })).status).toBe(404);
    expect((await other.api('GET', `/workspaces/tasks/${task.id}`)).status).toBe(404);
    expect((await other.api('PUT', `/workspaces/tasks/${task.id}`, { body: { title: 'mine' } })).status).toBe(404);
    expect((await t.api('GET', '/workspaces/tasks/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('deletes a task', async () => {
    expect((await other.api('DELETE', `/workspaces/tasks/${task.id}`)).status).toBe(404);
    expect(Success.parse((await t.api('DELETE', `/workspaces/tasks/${task.id}`)).json)).toEqual({ success: true });
    expect((await t.api('GET', `/workspaces/tasks/${task.id}`)).status).toBe(404);
  });
});
