import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Success, Workspace, WorkspaceMember } from '../helpers/served.js';
import { errorCode, startTestService, type Session, type TestService } from '../helpers/service.js';

let t: TestService;
let other: Session;
let created: Workspace;
beforeAll(async () => {
  t = await startTestService({ demo: { assets: 3 } });
  other = await t.tenant('Globex');
});
afterAll(async () => t?.stop());

/** Headers that point the demo user's requests at the workspace made in these tests. */
const inCreated = () => ({ headers: { 'x-workspace-id': created.id } });

describe('GET /workspaces', () => {
  it('answers the workspace named by x-workspace-id, with the caller’s roles and `sequence` as a string', async () => {
    const res = await t.api('GET', '/workspaces');
    expect(res.status).toBe(200);
    const workspace = Workspace.parse(res.json);
    expect(workspace).toMatchObject({ id: t.demo.workspaceId, account_id: t.demo.accountId, name: 'Spring Campaign' });
    expect(workspace.roles?.roles).toEqual(['owner']);
    expect(typeof (res.json as { sequence: unknown }).sequence).toBe('string');
  });

  it('answers 400 without x-workspace-id, 404 for an unknown workspace, 403 for another account’s', async () => {
    expect((await t.api('GET', '/workspaces', { headers: { 'x-workspace-id': null } })).status).toBe(400);
    const unknown = await t.api('GET', '/workspaces', { headers: { 'x-workspace-id': '00000000-0000-4000-8000-000000000000' } });
    expect(unknown.status).toBe(404);
    expect((await t.api('GET', '/workspaces', { headers: { 'x-workspace-id': other.workspaceId } })).status).toBe(403);
    expect((await other.api('GET', '/workspaces', { headers: { 'x-workspace-id': t.demo.workspaceId } })).status).toBe(403);
    expect((await t.api('GET', '/workspaces', { headers: { authorization: null } })).status).toBe(401);
  });

  it('answers `{ workspaces: [...] }` of all the caller’s workspaces with --workspaces-shape list', async () => {
    const listed = await startTestService({ service: { workspacesShape: 'list' }, demo: { assets: 1 } });
    try {
      const res = await listed.api('GET', '/workspaces', { headers: { 'x-workspace-id': null } });
      expect(res.status).toBe(200);
      const body = z.object({ workspaces: z.array(Workspace) }).parse(res.json);
      expect(body.workspaces.map((w) => w.id)).toEqual([listed.demo.workspaceId]);
    } finally {
      await listed.stop();
    }
  });
});

describe('POST /workspaces', () => {
  it('creates a workspace whose creator is its owner', async () => {
    const res = await t.api('POST', '/workspaces', { body: { name: 'Autumn Campaign', defaultAvatar: 4 }, headers: { 'x-workspace-id': null } });
    expect(res.status).toBe(201);
    created = Workspace.parse(res.json);
    expect(created).toMatchObject({ account_id: t.demo.accountId, name: 'Autumn Campaign', defaultAvatar: 4, created_by_user_id: t.demo.user.userId });
    expect(created.roles?.roles).toEqual(['owner']);
    const fetched = Workspace.parse((await t.api('GET', '/workspaces', inCreated())).json);
    expect(fetched.id).toBe(created.id);
    const listed = z.array(Workspace).parse((await t.api('GET', '/accounts/workspaces')).json);
    expect(listed.map((w) => w.id)).toContain(created.id);
  });

  it('answers 400 for a bad body and 403 for a plain account member', async () => {
    for (const body of [{}, { name: '' }, { name: 5 }, { name: 'x', defaultAvatar: 11 }]) {
      expect((await t.api('POST', '/workspaces', { body })).status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.api('POST', '/workspaces', { body: '{"name":', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    const member = await t.colleague.api('POST', '/workspaces', { body: { name: 'Mine' } });
    expect(member.status).toBe(403);
    expect(errorCode(member)).toBe('forbidden');
  });
});

describe('workspace members', () => {
  it('lists members with their user', async () => {
    const members = z.array(WorkspaceMember).parse((await t.api('GET', '/workspaces/members')).json);
    expect(Object.fromEntries(members.map((m) => [m.user_id, m.roles]))).toEqual({
      [t.demo.user.userId]: ['owner'],
      [t.demo.colleague.userId]: ['editor'],
    });
    expect(members.every((m) => m.workspace_id === t.demo.workspaceId && m.user?.id === m.user_id)).toBe(true);
  });

  it('adds an account member (201), changes their roles on a second POST (200) and removes them', async () => {
    const added = await t.api('POST', `/workspaces/members/${t.demo.colleague.userId}`, inCreated());
    expect(added.status).toBe(201);
    expect(WorkspaceMember.parse(added.json)).toMatchObject({ workspace_id: created.id, user_id: t.demo.colleague.userId, roles: ['editor'] });
    // The colleague now sees the new workspace.
    expect((await t.colleague.api('GET', '/workspaces', inCreated())).status).toBe(200);

    const changed = await t.api('POST', `/workspaces/members/${t.demo.colleague.userId}`, { ...inCreated(), body: { roles: ['viewer'] } });
    expect(changed.status).toBe(200);
    expect(WorkspaceMember.parse(changed.json).roles).toEqual(['viewer']);

    const removed = await t.api('DELETE', `/workspaces/members/${t.demo.colleague.userId}`, inCreated());
    expect(Success.parse(removed.json)).toEqual({ success: true });
    expect((await t.colleague.api('GET', '/workspaces', inCreated())).status).toBe(403);
    expect((await t.api('DELETE', `/workspaces/members/${t.demo.colleague.userId}`, inCreated())).status).toBe(404);
  });

  it('refuses unknown roles (400), users outside the account (404), non-managers (403) and removing the last owner (409)', async () => {
    expect((await t.api('POST', `/workspaces/members/${t.demo.colleague.userId}`, { body: { roles: ['god'] } })).status).toBe(400);
    expect((await t.api('POST', `/workspaces/members/${other.userId}`)).status).toBe(404);
    expect((await t.api('POST', '/workspaces/members/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await t.colleague.api('POST', `/workspaces/members/${t.demo.colleague.userId}`, { body: { roles: ['owner'] } })).status).toBe(403);
    expect((await t.colleague.api('DELETE', `/workspaces/members/${t.demo.user.userId}`)).status).toBe(403);
    const lastOwner = await t.api('DELETE', `/workspaces/members/${t.demo.user.userId}`);
    expect(lastOwner.status).toBe(409);
    expect(errorCode(lastOwner)).toBe('invalid_state');
  });
});

describe('workspace settings', () => {
  it('answers an object of settings and merges changes (null removes a key)', async () => {
    expect((await t.api('GET', '/workspaces/settings')).json).toEqual({ workspace_id: t.demo.workspaceId });
    const res = await t.api('PUT', '/workspaces/settings', { body: { theme: 'dark', review_required: true, max_versions: 20 } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ workspace_id: t.demo.workspaceId, theme: 'dark', review_required: true, max_versions: 20 });
    const merged = await t.api('PUT', '/workspaces/settings', { body: { theme: null, review_required: false } });
    expect(merged.json).toEqual({ workspace_id: t.demo.workspaceId, review_required: false, max_versions: 20 });
    expect((await t.api('GET', '/workspaces/settings')).json).toEqual(merged.json);
    expect((await t.api('GET', '/workspaces/settings', inCreated())).json).toEqual({ workspace_id: created.id });
  });

  it('answers 400 for nested values or workspace_id, 403 for a non-manager', async () => {
    expect((await t.api('PUT', '/workspaces/settings', { body: { theme: { dark: true } } })).status).toBe(400);
    expect((await t.api('PUT', '/workspaces/settings', { body: ['theme'] })).status).toBe(400);
    expect((await t.api('PUT', '/workspaces/settings', { body: { workspace_id: 'x' } })).status).toBe(400);
    expect((await t.colleague.api('PUT', '/workspaces/settings', { body: { theme: 'light' } })).status).toBe(403);
  });
});

describe('PUT and DELETE /workspaces', () => {
  it('renames the workspace and stores a thumbnail from a multipart form', async () => {
    const data = new FormData();
    data.append('body', JSON.stringify({ name: 'Autumn Campaign 2025', defaultAvatar: 7 }));
    data.append('file', new Blob(['thumb']), 'thumb.png');
    const res = await t.api('PUT', '/workspaces', { ...inCreated(), body: data });
    expect(res.status).toBe(200);
    const workspace = Workspace.parse(res.json);
    expect(workspace).toMatchObject({ id: created.id, name: 'Autumn Campaign 2025', defaultAvatar: 7 });
    expect(workspace.thumbnail_file_id).toEqual(expect.any(String));
  });

  it('answers 400 for a bad body and 403 for an editor', async () => {
    expect((await t.api('PUT', '/workspaces', { body: { name: '' } })).status).toBe(400);
    expect((await t.api('PUT', '/workspaces', { body: { defaultAvatar: 0 } })).status).toBe(400);
    expect((await t.colleague.api('PUT', '/workspaces', { body: { name: 'Editor was here' } })).status).toBe(403);
    expect((await t.colleague.api('DELETE', '/workspaces')).status).toBe(403);
    expect(Workspace.parse((await t.api('GET', '/workspaces')).json).name).toBe('Spring Campaign');
  });

  it('deletes a workspace: success, then it is gone (404)', async () => {
    const res = await t.api('DELETE', '/workspaces', inCreated());
    expect(Success.parse(res.json)).toEqual({ success: true });
    expect((await t.api('GET', '/workspaces', inCreated())).status).toBe(404);
    expect((await t.api('GET', '/workspaces/folders/hierarchy', inCreated())).status).toBe(404);
    const listed = z.array(Workspace).parse((await t.api('GET', '/accounts/workspaces')).json);
    expect(listed.map((w) => w.id)).toEqual([t.demo.workspaceId]);
  });
});
