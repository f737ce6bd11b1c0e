/**
 * Contract: the answers of the service's busiest paths, pinned where they are kept cheap (a token's
 * signature checked once, blobs read and written in one piece, fewer row reads): access taken away
 * ends at once for a token already in use, blobs on both sides of the one-piece size round-trip the
 * same way, and lookups still say which thing is missing.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Asset, AssetVersion } from '../../shared/api/index.js';
import { startService, type RunningService } from '../../service/index.js';
import { SMALL_BLOB_BYTES } from '../../service/blob/store.js';
import { errorCode, getToken, makeApi, receive, startTestService, type ApiResponse, type TestService } from '../helpers/service.js';
import { createAsset, postVersion, putSigned, requestUpload, sha256, statusAndCode, upload } from '../helpers/uploads.js';

const messageOf = (res: ApiResponse): string | undefined => (res.json as { error?: { message?: string } }).error?.message;
const refusal = (res: ApiResponse) => ({ status: res.status, code: errorCode(res), message: messageOf(res) });


/** Sends `sent` of the `promised` bytes of a PUT, then drops the connection. */
function abandonPut(url: string, bytes: Buffer, sent: number): Promise<void> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', 'content-length': bytes.length } });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(bytes.subarray(0, sent), () => setTimeout(() => req.destroy(), 50));
  });
}

describe('request paths: access taken away ends at once for a token in use', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ demo: { assets: 1 } });
  });
  afterAll(() => t?.stop());

  it('refuses a removed workspace member (403), then a removed account member (403), then a deactivated user (401)', async () => {
    const colleague = t.colleague;
    expect((await colleague.api('GET', '/workspaces/folders/hierarchy')).status).toBe(200);
    expect((await colleague.api('GET', '/accounts/workspaces')).status).toBe(200);

    expect((await t.api('DELETE', `/workspaces/members/${colleague.userId}`)).status).toBe(200);
    expect(refusal(await colleague.api('GET', '/workspaces/folders/hierarchy'))).toEqual({
      status: 403, code: 'forbidden', message: 'You are not a member of this workspace.',
    });
    expect((await colleague.api('GET', '/accounts/workspaces')).status).toBe(200);

    expect((await t.api('DELETE', `/accounts/members/${colleague.userId}`)).status).toBe(200);
    expect(refusal(await colleague.api('GET', '/accounts/workspaces'))).toEqual({
      status: 403, code: 'forbidden', message: 'You are not a member of this account.',
    });
    expect((await colleague.api('GET', '/users')).status).toBe(200);

    expect((await colleague.api('DELETE', '/users')).status).toBe(204);
    expect(refusal(await colleague.api('GET', '/users'))).toEqual({
      status: 401, code: 'unauthorized', message: 'The token belongs to a user that no longer exists.',
    });
  });

  it('answers 404 for a workspace deleted while its token is in use', async () => {
    const tenant = await t.tenant('Fabrikam');
    expect((await tenant.api('GET', '/workspaces/folders/hierarchy')).status).toBe(200);
    expect((await tenant.api('DELETE', '/workspaces')).status).toBe(200);
    expect(refusal(await tenant.api('GET', '/workspaces/folders/hierarchy'))).toEqual({
      status: 404, code: 'not_found', message: 'The workspace does not exist.',
    });
  });

  it('refuses a Free-plan account (403 plan_required) and an account the token was not issued for (403), in that order of checks', async () => {
    const free = await t.tenant('Northwind');
    const demoAccount = makeApi(t.service.url, { authorization: `Bearer ${free.token}`, 'x-account-id': t.demo.accountId, 'x-workspace-id': t.demo.workspaceId });
    expect(refusal(await demoAccount('GET', '/workspaces/folders/hierarchy'))).toEqual({
      status: 403, code: 'forbidden', message: 'The token was issued for another account than x-account-id.',
    });
    const foreignWorkspace = makeApi(t.service.url, { authorization: `Bearer ${free.token}`, 'x-account-id': free.accountId, 'x-workspace-id': t.demo.workspaceId });
    expect(refusal(await foreignWorkspace('GET', '/workspaces/folders/hierarchy'))).toEqual({
      status: 403, code: 'forbidden', message: 'The workspace does not belong to this account.',
    });
  });
});

describe('request paths: blobs on both sides of the one-piece size', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ demo: { assets: 0 } });
  });
  afterAll(() => t?.stop());

  const download = async (assetId: string): Promise<string> => {
    const res = await t.api<{ url: string }>('GET', `/workspaces/assets/${assetId}/download?redirect=false`);
    expect(res.status).toBe(200);
    return res.json.url;
  };

  it.each([
    ['small', 10_000],
    ['exactly the one-piece size', SMALL_BLOB_BYTES],
    ['large', SMALL_BLOB_BYTES + 70_000],
  ])('round-trips a %s blob: whole, ranges, HEAD and If-None-Match', async (_label, size) => {
    const bytes = randomBytes(size);
    const asset = await createAsset(t.api, { fileName: `blob-${size}.bin`, bytes });
    const url = await download(asset.id);

    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe(String(size));
    expect(whole.headers.get('etag')).toBe(`"${sha256(bytes)}"`);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);

    const ranges: Array<[string, number, number]> = [
      ['bytes=100-4195', 100, 4195],
      ['bytes=-50', size - 50, size - 1],
      [`bytes=${size - 10}-`, size - 10, size - 1],
      [`bytes=0-${size * 2}`, 0, size - 1],
    ];
    for (const [range, start, end] of ranges) {
      const part = await fetch(url, { headers: { range } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes ${start}-${end}/${size}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(start, end + 1))).toBe(true);
    }
    const beyond = await fetch(url, { headers: { range: `bytes=${size}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${size}`);

    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(size));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    expect((await fetch(url, { headers: { 'if-none-match': `"${sha256(bytes)}"` } })).status).toBe(304);
  });

  it('writes signed URLs with their parameters in one order: op, exp, [sha256,] [size,] sig', async () => {
    const bytes = Buffer.from('order of parameters');
    const ticket = await requestUpload(t.api, bytes);
    expect([...new URL(ticket.signedUrl).searchParams.keys()]).toEqual(['op', 'exp', 'sha256', 'size', 'sig']);
    expect(new URL(ticket.signedUrl).searchParams.get('op')).toBe('put');
    expect((await putSigned(ticket.signedUrl, bytes)).status).toBe(200);
    const asset = await t.api<Asset>('POST', '/workspaces/assets', { body: { key: ticket.key, file_name: 'order.txt', checksum: ticket.checksum } });
    expect([...new URL(await download(asset.json.id)).searchParams.keys()]).toEqual(['op', 'exp', 'sig']);
  });

  it('takes a body sent without Content-Length (chunked), small or large', async () => {
    for (const size of [5_000, SMALL_BLOB_BYTES + 1]) {
      const bytes = randomBytes(size);
      const ticket = await requestUpload(t.api, bytes, `chunked-${size}.bin`);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.subarray(0, 1000));
          controller.enqueue(bytes.subarray(1000));
          controller.close();
        },
      });
      const res = await fetch(ticket.signedUrl, { method: 'PUT', body, duplex: 'half' } as RequestInit);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ key: ticket.key, size, checksum: ticket.checksum });
      const asset = await t.api<Asset>('POST', '/workspaces/assets', { body: { key: ticket.key, file_name: `chunked-${size}.bin`, checksum: ticket.checksum } });
      expect(asset.status).toBe(201);
      expect(Buffer.from(await (await fetch(await download(asset.json.id))).arrayBuffer()).equals(bytes)).toBe(true);
    }
  });

  it('keeps nothing of an upload abandoned mid-body, and the same URL then takes the bytes', async () => {
    for (const size of [20_000, SMALL_BLOB_BYTES + 100_000]) {
      const bytes = randomBytes(size);
      const ticket = await requestUpload(t.api, bytes, `abandoned-${size}.bin`);
      await abandonPut(ticket.signedUrl, bytes, Math.floor(size / 2));
      const early = await t.api('POST', '/workspaces/assets', { body: { key: ticket.key, file_name: `abandoned-${size}.bin`, checksum: ticket.checksum } });
      expect(statusAndCode(early)).toEqual({ status: 400, code: 'upload_missing' });

      expect((await putSigned(ticket.signedUrl, bytes)).status).toBe(200);
      const asset = await t.api<Asset>('POST', '/workspaces/assets', { body: { key: ticket.key, file_name: `abandoned-${size}.bin`, checksum: ticket.checksum } });
      expect(asset.status).toBe(201);
      expect(Buffer.from(await (await fetch(await download(asset.json.id))).arrayBuffer()).equals(bytes)).toBe(true);
    }
  });

  it('takes the same bytes again at the same URL once stored, and still serves them', async () => {
    const bytes = randomBytes(30_000);
    const ticket = await upload(t.api, bytes, 'twice.bin');
    const again = await putSigned(ticket.signedUrl, bytes);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ key: ticket.key, size: bytes.length, checksum: ticket.checksum });
    const wrong = await putSigned(ticket.signedUrl, randomBytes(30_000));
    expect(wrong.status).toBe(400);
    const asset = await t.api<Asset>('POST', '/workspaces/assets', { body: { key: ticket.key, file_name: 'twice.bin', checksum: ticket.checksum } });
    expect(asset.status).toBe(201);
    expect(Buffer.from(await (await fetch(await download(asset.json.id))).arrayBuffer()).equals(bytes)).toBe(true);
  });
});

describe('request paths: an injected truncation cuts small and large blobs alike', () => {
  let service: RunningService | undefined;
  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });

  it('sends half of what Content-Length promises, then cuts the connection', async () => {
    service = await startService({ faults: { latencyMs: 0, error5xx: 0, drop: 0, truncate: 1, seed: 1 } });
    const demo = await service.seedDemo({ assets: 0 });
    const token = await getToken(service.url, demo.accountId, demo.user);
    const api = makeApi(service.url, { authorization: `Bearer ${token}`, 'x-account-id': demo.accountId, 'x-workspace-id': demo.workspaceId });
    for (const size of [10_001, SMALL_BLOB_BYTES + 50_001]) {
      const asset = await createAsset(api, { fileName: `cut-${size}.bin`, bytes: randomBytes(size) });
      const link = await api<{ url: string }>('GET', `/workspaces/assets/${asset.id}/download?redirect=false`);
      const got = await receive(link.json.url);
      expect(got.status).toBe(200);
      expect(got.promised).toBe(size);
      expect(got.received).toBeLessThan(size);
    }
  });
});

describe('request paths: lookups say which thing is missing', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ demo: { assets: 2 } });
  });
  afterAll(() => t?.stop());

  it('tells an unknown asset from an unknown version, and a version of another asset is unknown here', async () => {
    const [a = '', b = ''] = t.demo.assetIds;
    const versionOfA = (await t.api<Asset>('GET', `/workspaces/assets/${a}`)).json.current_version_id ?? '';
    const unknown = '00000000-0000-4000-8000-000000000000';
    const stranger = await t.tenant('Litware');
    for (const suffix of ['', '/download?redirect=false']) {
      const ok = await t.api<AssetVersion>('GET', `/workspaces/assets/${a}/versions/${versionOfA}${suffix}`);
      expect(ok.status).toBe(200);
      expect(refusal(await t.api('GET', `/workspaces/assets/${unknown}/versions/${versionOfA}${suffix}`))).toEqual({
        status: 404, code: 'not_found', message: 'The asset does not exist.',
      });
      expect(refusal(await t.api('GET', `/workspaces/assets/${a}/versions/${unknown}${suffix}`))).toEqual({
        status: 404, code: 'not_found', message: 'The version does not exist.',
      });
      expect(refusal(await t.api('GET', `/workspaces/assets/${b}/versions/${versionOfA}${suffix}`))).toEqual({
        status: 404, code: 'not_found', message: 'The version does not exist.',
      });
      expect(refusal(await stranger.api('GET', `/workspaces/assets/${a}/versions/${versionOfA}${suffix}`))).toEqual({
        status: 404, code: 'not_found', message: 'The asset does not exist.',
      });
    }
  });

  it('names each maker of a version once among the collaborators, and the current version by its maker', async () => {
    const created = await createAsset(t.api, { fileName: 'shared.txt' });
    expect(created.collaborators?.map((u) => u.id)).toEqual([t.user.userId]);
    expect(created.currentVersion?.user?.id).toBe(t.user.userId);

    const second = await postVersion(t.colleague.api, created.id, { parentId: created.current_version_id });
    expect(second.status).toBe(201);
    const third = await postVersion(t.api, created.id, { parentId: second.json.id });
    expect(third.status).toBe(201);
    const asset = (await t.api<Asset>('GET', `/workspaces/assets/${created.id}`)).json;
    expect(asset.collaborators?.map((u) => u.id).sort()).toEqual([t.user.userId, t.colleague.userId].sort());
    expect(asset.currentVersion?.user?.id).toBe(t.user.userId);
    expect(asset.versions?.map((v) => v.created_by_user_id)).toEqual([t.user.userId, t.colleague.userId, t.user.userId]);
  });
});
