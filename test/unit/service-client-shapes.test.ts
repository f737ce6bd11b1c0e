import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient, conflictDetails } from '../../main/service-client/index.js';
import {
  ACCOUNT,
  KEY,
  SECRET,
  WORKSPACE,
  apiCalls,
  checksumOf,
  sendJson,
  startFakeApi,
  type FakeApi,
  type Route,
} from './service-client-servers.js';

const servers: FakeApi[] = [];
const clients: ServiceClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(routes: Record<string, Route>): Promise<{ api: FakeApi; client: ServiceClient }> {
  const api = await startFakeApi({ routes });
  servers.push(api);
  const client = new ServiceClient({ baseUrl: `${api.url}/`, accountId: ACCOUNT, credentials: { key: KEY, secret: SECRET }, baseDelayMs: 1, maxDelayMs: 5 });
  clients.push(client);
  return { api, client };
}

const workspace = (id: string, name: string) => ({ id, account_id: ACCOUNT, name, sequence: '1532', defaultAvatar: 3 });
const other = '33333333-3333-4333-8333-333333333333';
const folder = { id: 'f1', workspace_id: WORKSPACE, parent_id: null, name: 'Brand', sequence: '17', isActive: true };
const entry = {
  id: 'a1',
  folder_id: 'f1',
  name: 'hero.psd',
  file_name: 'hero.psd',
  current_version_id: 'v9',
  version_number: 7,
  checksum: checksumOf('a'),
  size: 5242880,
  sequence: 1531,
  locked_by_user_id: null,
  isActive: true,
};
const asset = {
  ...entry,
  workspace_id: WORKSPACE,
  created_by_user_id: 'user-1',
  file_location: 'Brand',
  sequence: '1531',
};

describe('GET /workspaces in both shapes', () => {
  it('takes a single Workspace, with sequence as a string', async () => {
    const { api, client } = await setup({ 'GET /workspaces': (_r, res) => sendJson(res, 200, workspace(WORKSPACE, 'Main')) });
    const ws = await client.getWorkspace(WORKSPACE);
    expect(ws).toMatchObject({ id: WORKSPACE, name: 'Main', sequence: 1532 });
    const call = apiCalls(api)[0];
    expect(call?.headers['x-account-id']).toBe(ACCOUNT);
    expect(call?.headers['x-workspace-id']).toBe(WORKSPACE);
  });

  it('picks the workspace with the id out of { workspaces: [...] }', async () => {
    const { client } = await setup({
      'GET /workspaces': (_r, res) => sendJson(res, 200, { workspaces: [workspace(other, 'Other'), workspace(WORKSPACE, 'Main')] }),
    });
    await expect(client.getWorkspace(WORKSPACE)).resolves.toMatchObject({ id: WORKSPACE, name: 'Main', sequence: 1532 });
  });

  it('reports a list without the workspace as not found', async () => {
    const { client } = await setup({ 'GET /workspaces': (_r, res) => sendJson(res, 200, { workspaces: [workspace(other, 'Other')] }) });
    await expect(client.getWorkspace(WORKSPACE)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('lists from /accounts/workspaces', async () => {
    const { client } = await setup({ 'GET /accounts/workspaces': (_r, res) => sendJson(res, 200, [workspace(WORKSPACE, 'Main')]) });
    await expect(client.listWorkspaces()).resolves.toEqual([expect.objectContaining({ id: WORKSPACE, sequence: 1532 })]);
  });

  it('falls back to the list shape of GET /workspaces when /accounts/workspaces is missing', async () => {
    const { api, client } = await setup({
      'GET /workspaces': (_r, res) => sendJson(res, 200, { workspaces: [workspace(WORKSPACE, 'Main'), workspace(other, 'Other')] }),
    });
    const list = await client.listWorkspaces();
    expect(list.map((w) => w.name)).toEqual(['Main', 'Other']);
    expect(apiCalls(api).map((r) => r.path)).toEqual(['/accounts/workspaces', '/workspaces']);
  });
});

describe('sync listing and changes', () => {
  it('reads the hierarchy with string sequences', async () => {
    const { api, client } = await setup({
      'GET /workspaces/folders/hierarchy': (_r, res) =>
        sendJson(res, 200, { workspace_id: WORKSPACE, sequence: '1532', folders: [folder], assets: [entry] }),
    });
    const listing = await client.getHierarchy(WORKSPACE, { includeDeleted: true });
    expect(listing.sequence).toBe(1532);
    expect(listing.folders[0]?.sequence).toBe(17);
    expect(listing.assets[0]?.checksum).toBe(checksumOf('a'));
    expect(apiCalls(api)[0]?.url.searchParams.get('include_deleted')).toBe('true');
  });

  it('rejects a listing whose checksum is not SHA-256 hex', async () => {
    const { client } = await setup({
      'GET /workspaces/folders/hierarchy': (_r, res) =>
        sendJson(res, 200, { workspace_id: WORKSPACE, sequence: 1, folders: [], assets: [{ ...entry, checksum: 'md5:abc' }] }),
    });
    await expect(client.getHierarchy(WORKSPACE)).rejects.toMatchObject({ kind: 'malformed' });
  });

  it('returns a changes page', async () => {
    const page = {
      sequence: 1540,
      has_more: false,
      changes: [
        { sequence: '1533', type: 'asset', id: 'a1', deleted: false, asset: entry },
        { sequence: 1535, type: 'asset', id: 'a2', deleted: true, purged: true, asset: null },
      ],
    };
    const { api, client } = await setup({ 'GET /workspaces/changes': (_r, res) => sendJson(res, 200, page) });
    const result = await client.getChanges(WORKSPACE, 1532, 500);
    expect(result.ok && result.page.changes.map((c) => c.sequence)).toEqual([1533, 1535]);
    expect(Object.fromEntries(apiCalls(api)[0]?.url.searchParams ?? [])).toEqual({ since: '1532', limit: '500' });
  });

  it('refuses a page with a change that is not a deletion and lacks its entry: the item is never taken for gone', async () => {
    const { client } = await setup({
      'GET /workspaces/changes': (_r, res) =>
        sendJson(res, 200, { sequence: 1540, has_more: false, changes: [{ type: 'folder', id: 'f1', deleted: false }, { type: 'asset', id: 'a1', deleted: false, asset: null }] }),
    });
    await expect(client.getChanges(WORKSPACE, 1532)).rejects.toMatchObject({ kind: 'malformed', message: expect.stringMatching(/changes\.0\.folder.*changes\.1\.asset/s) as string });
  });

  it('tells the caller to list in full when there is no feed or the cursor expired', async () => {
    const missing = await setup({});
    await expect(missing.client.getChanges(WORKSPACE, 10)).resolves.toEqual({ ok: false, reason: 'unsupported' });
    const expired = await setup({
      'GET /workspaces/changes': (_r, res) => sendJson(res, 410, { error: { code: 'cursor_expired', message: 'too old' } }),
    });
    await expect(expired.client.getChanges(WORKSPACE, 10)).resolves.toEqual({ ok: false, reason: 'cursor_expired' });
  });
});

describe('assets, folders and identity headers', () => {
  it('sends no account header to /users endpoints', async () => {
    const { api, client } = await setup({ 'GET /users': (_r, res) => sendJson(res, 200, { id: 'user-1' }) });
    await client.getUser();
    expect(apiCalls(api)[0]?.headers['x-account-id']).toBeUndefined();
  });

  it('sends a conditional delete as the protocol shows it', async () => {
    const { api, client } = await setup({
      'DELETE /workspaces/assets': (_r, res) => sendJson(res, 200, { success: true, deleted: ['a1'] }),
    });
    const result = await client.deleteAssets(WORKSPACE, ['a1'], { permanent: false, ifCurrentVersionIds: { a1: 'v9' } });
    expect(result.deleted).toEqual(['a1']);
    expect(JSON.parse(apiCalls(api)[0]?.body.toString() ?? '')).toEqual({
      asset_ids: ['a1'],
      permanent: false,
      if_current_version_ids: { a1: 'v9' },
    });
  });

  it('lets a repeated create adopt the asset named in the 409', async () => {
    const { client } = await setup({
      'POST /workspaces/assets': (_r, res) =>
        sendJson(res, 409, { error: { code: 'name_conflict', message: 'taken', details: { id: 'a1', current_version_id: 'v9', checksum: checksumOf('a') } } }),
    });
    const err = await client.createAsset(WORKSPACE, { key: 'up_1', file_name: 'hero.psd', folder_id: 'f1', checksum: checksumOf('a') }).catch((e: unknown) => e);
    expect(conflictDetails(err)).toEqual({ id: 'a1', current_version_id: 'v9', checksum: checksumOf('a') });
  });

  it('reads an asset with string sequence and encodes ids in paths', async () => {
    const { api, client } = await setup({ 'GET /workspaces/assets/a%2F1': (_r, res) => sendJson(res, 200, asset) });
    await expect(client.getAsset(WORKSPACE, 'a/1')).resolves.toMatchObject({ id: 'a1', sequence: 1531 });
    expect(apiCalls(api)[0]?.path).toBe('/workspaces/assets/a%2F1');
  });

  it('creates, moves and deletes folders', async () => {
    const { api, client } = await setup({
      'POST /workspaces/folders': (_r, res) => sendJson(res, 201, folder),
      'PUT /workspaces/folders/f1': (_r, res) => sendJson(res, 200, { ...folder, parent_id: 'f0', sequence: 18 }),
      'DELETE /workspaces/folders/f1': (_r, res) => sendJson(res, 200, { success: true }),
    });
    await expect(client.createFolder(WORKSPACE, { name: 'Brand', parent_id: null })).resolves.toMatchObject({ id: 'f1', sequence: 17 });
    await expect(client.updateFolder(WORKSPACE, 'f1', { parent_id: 'f0' })).resolves.toMatchObject({ parent_id: 'f0' });
    await expect(client.deleteFolder(WORKSPACE, 'f1', { recursive: true })).resolves.toEqual({ success: true });
    expect(apiCalls(api).at(-1)?.url.searchParams.get('recursive')).toBe('true');
  });

  it('lists review and change requests with the account header', async () => {
    const { api, client } = await setup({
      'GET /reviewRequests': (_r, res) =>
        sendJson(res, 200, [{ workspace_id: WORKSPACE, asset_id: 'a1', asset_version_id: 'v9', requestor_id: 'u2', user_id: 'user-1', review_id: null }]),
      'GET /changeRequests': (_r, res) => sendJson(res, 200, []),
    });
    await expect(client.listReviewRequests()).resolves.toHaveLength(1);
    await expect(client.listChangeRequests()).resolves.toEqual([]);
    expect(apiCalls(api).every((r) => r.headers['x-account-id'] === ACCOUNT)).toBe(true);
  });
});
