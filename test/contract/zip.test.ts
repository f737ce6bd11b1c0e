import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Comment, Hierarchy } from '../../shared/api/index.js';
import { errorCode, startTestService, type TestService } from '../helpers/service.js';
import { postVersion, sha256, upload } from '../helpers/uploads.js';
import { unzip } from '../helpers/zip.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.stop());

async function downloadZip(query = ''): Promise<{ status: number; type: string | null; entries: Map<string, Buffer | undefined> }> {
  const res = await fetch(`${t.service.url}/workspaces/download/assets${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.user.token}`, 'x-account-id': t.user.accountId, 'x-workspace-id': t.user.workspaceId },
  });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type'), entries: new Map(res.status === 200 ? (await unzip(body)).map((e) => [e.name, e.bytes]) : []) };
}

/** `<folder path>/<file name>` → checksum of every active asset, from the sync listing. */
async function expectedFiles(): Promise<Map<string, string>> {
  const listing = Hierarchy.parse((await t.api('GET', '/workspaces/folders/hierarchy')).json);
  const folders = new Map(listing.folders.map((f) => [f.id, f]));
  const pathOf = (id: string | null): string => {
    const folder = id ? folders.get(id) : undefined;
    if (!folder) return '';
    const parent = pathOf(folder.parent_id);
    return parent ? `${parent}/${folder.name}` : folder.name;
  };
  return new Map(listing.assets.map((a) => [a.folder_id ? `${pathOf(a.folder_id)}/${a.file_name}` : a.file_name, a.checksum]));
}

const files = (entries: Map<string, Buffer | undefined>) =>
  new Map([...entries].filter((e): e is [string, Buffer] => e[1] !== undefined && !e[0].startsWith('_attachments/')).map(([name, bytes]) => [name, sha256(bytes)]));

describe('POST /workspaces/download/assets', () => {
  it('streams every active asset’s current version at its folder path, with matching checksums', async () => {
    const zip = await downloadZip();
    expect(zip.status).toBe(200);
    expect(zip.type).toBe('application/zip');
    const expected = await expectedFiles();
    expect(expected.size).toBe(t.demo.assetIds.length);
    expect(files(zip.entries)).toEqual(expected);
    expect(zip.entries.has('Campaigns/Spring/Social/')).toBe(true);
    expect(zip.entries.has('Campaigns/Spring/Social/hero.psd')).toBe(true);
    expect(zip.entries.has('README.txt')).toBe(true);
  });

  it('leaves out soft-deleted assets and follows new versions', async () => {
    const [deleted, updated] = t.demo.assetIds;
    expect((await t.api('DELETE', '/workspaces/assets', { body: { asset_ids: [deleted] } })).status).toBe(200);
    const asset = (await t.api<{ current_version_id: string }>('GET', `/workspaces/assets/${updated}`)).json;
    const committed = await postVersion(t.api, updated ?? '', { parentId: asset.current_version_id, bytes: 'version from the zip test' });
    expect(committed.status).toBe(201);

    const zip = await downloadZip('?include_attachments=false');
    const expected = await expectedFiles();
    expect(expected.size).toBe(t.demo.assetIds.length - 1);
    expect(files(zip.entries)).toEqual(expected);
    expect([...files(zip.entries).values()]).toContain(sha256('version from the zip test'));
  });

  it('adds comment attachments under _attachments/<asset id>/<name> when asked, a name taken twice numbered', async () => {
    const assetId = t.demo.assetIds[2] ?? '';
    const first = await upload(t.api, 'first attachment', 'notes.txt');
    const second = await upload(t.api, 'second attachment', 'notes.txt');
    const res = await t.api('POST', `/workspaces/assets/${assetId}/comments`, {
      body: { content: 'two notes', attachments: [{ key: first.key, name: 'notes.txt' }, { key: second.key, name: 'NOTES.txt' }] },
    });
    expect(Comment.parse(res.json).attachments).toHaveLength(2);

    const without = await downloadZip();
    expect([...without.entries.keys()].some((name) => name.startsWith('_attachments/'))).toBe(false);

    const zip = await downloadZip('?include_attachments=true');
    const attachments = [...zip.entries].filter(([name]) => name.startsWith('_attachments/'));
    expect(attachments.map(([name, bytes]) => [name, sha256(bytes ?? Buffer.alloc(0))])).toEqual([
      [`_attachments/${assetId}/notes.txt`, first.checksum],
      [`_attachments/${assetId}/NOTES (2).txt`, second.checksum],
    ]);
    expect(files(zip.entries)).toEqual(await expectedFiles());
  });

  it('answers 400 for a bad flag, 401 without a token, 403 for another account’s token', async () => {
    expect((await downloadZip('?include_attachments=maybe')).status).toBe(400);
    const anonymous = await t.api('POST', '/workspaces/download/assets', { headers: { authorization: null } });
    expect(anonymous.status).toBe(401);
    const other = await t.tenant('Globex');
    const foreign = await other.api('POST', '/workspaces/download/assets', { headers: { 'x-workspace-id': t.demo.workspaceId } });
    expect(foreign.status).toBe(403);
    expect(errorCode(foreign)).toBe('forbidden');
  });

  it('answers an empty zip for an empty workspace', async () => {
    const other = await t.tenant('Initech');
    const res = await fetch(`${t.service.url}/workspaces/download/assets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other.token}`, 'x-account-id': other.accountId, 'x-workspace-id': other.workspaceId },
    });
    expect(res.status).toBe(200);
    expect(await unzip(Buffer.from(await res.arrayBuffer()))).toEqual([]);
  });
});
