/**
 * Contract: uploads through signed URLs and downloads from the blob origin
 * (docs/protocol.md, "Uploads" and "Signed GET URLs on the blob origin").
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import { get as httpGet, type ClientRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignedDownload } from '../../shared/api/index.js';
import { faults } from '../helpers/engine.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { createAsset, putSigned, requestUpload, sha256, statusAndCode, upload } from '../helpers/uploads.js';

async function errorOf(res: Response): Promise<string | undefined> {
  const body = (await res.json()) as { error?: { code?: string } };
  return body.error?.code;
}

/** A copy of `url` with one query parameter (or the path's key) changed. */
function tamper(url: string, change: (u: URL) => void): string {
  const u = new URL(url);
  change(u);
  return u.toString();
}

describe('blobs: signed upload URLs', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ demo: { assets: 1 } });
  });
  afterAll(() => t?.stop());

  it('hands out a signed URL on another origin than the API, which takes a PUT without any Authorization', async () => {
    const bytes = randomBytes(10_000);
    const ticket = await requestUpload(t.api, bytes, 'photo.jpg');
    expect(new URL(ticket.signedUrl).origin).not.toBe(new URL(t.service.url).origin);
    expect(new URL(ticket.signedUrl).origin).toBe(new URL(t.service.blobUrl).origin);
    const res = await putSigned(ticket.signedUrl, bytes);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(`"${ticket.checksum}"`);
    expect(await res.json()).toEqual({ key: ticket.key, size: bytes.length, checksum: ticket.checksum });
  });

  it('refuses bytes whose SHA-256 is not the signed one (400), and such a key cannot be committed', async () => {
    const promised = Buffer.from('the bytes I said I would send');
    const ticket = await requestUpload(t.api, promised, 'swap.txt');
    const res = await putSigned(ticket.signedUrl, 'other bytes entirely');
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toBe('checksum_mismatch');

    const commit = await t.api('POST', '/workspaces/assets', { body: { key: ticket.key, file_name: 'swap.txt', checksum: ticket.checksum } });
    expect(statusAndCode(commit)).toEqual({ status: 400, code: 'upload_missing' });
    const wrongClaim = await t.api('POST', '/workspaces/assets', { body: { key: ticket.key, file_name: 'swap.txt', checksum: sha256('other bytes entirely') } });
    expect(wrongClaim.status).toBe(400);

    // Nothing was kept, so the same URL still takes the right bytes.
    expect((await putSigned(ticket.signedUrl, promised)).status).toBe(200);
    expect((await t.api('POST', '/workspaces/assets', { body: { key: ticket.key, file_name: 'swap.txt', checksum: ticket.checksum } })).status).toBe(201);
  });

  it('refuses a tampered signature, another key, another checksum or a stretched expiry (403)', async () => {
    const bytes = Buffer.from('tamper target');
    const ticket = await requestUpload(t.api, bytes);
    const other = await requestUpload(t.api, 'another upload');
    const variants = [
      tamper(ticket.signedUrl, (u) => u.searchParams.set('sig', (u.searchParams.get('sig') ?? '').replace(/^./, (c) => (c === 'a' ? 'b' : 'a')))),
      tamper(ticket.signedUrl, (u) => u.searchParams.delete('sig')),
      tamper(ticket.signedUrl, (u) => (u.pathname = `/blobs/${other.key}`)),
      tamper(ticket.signedUrl, (u) => u.searchParams.set('sha256', sha256('something else'))),
      tamper(ticket.signedUrl, (u) => u.searchParams.set('exp', String(Number(u.searchParams.get('exp')) + 86_400))),
      tamper(ticket.signedUrl, (u) => u.searchParams.set('op', 'get')),
    ];
    for (const url of variants) {
      const res = await putSigned(url, bytes);
      expect({ url, status: res.status }).toEqual({ url, status: 403 });
    }
    // The untouched URL still works: the refusals changed nothing.
    expect((await putSigned(ticket.signedUrl, bytes)).status).toBe(200);
  });

  it('takes and serves an empty file', async () => {
    const asset = await createAsset(t.api, { fileName: '.keep', bytes: '' });
    expect(asset.currentVersion).toMatchObject({ size: 0, checksum: sha256('') });
    const link = await t.api('GET', `/workspaces/assets/${asset.id}/download`);
    const res = await fetch(link.headers.get('location') ?? '');
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('refuses a download URL used for an upload (403)', async () => {
    const asset = await createAsset(t.api, { fileName: 'read-only.bin' });
    const link = await t.api('GET', `/workspaces/assets/${asset.id}/download?redirect=false`);
    const { url } = SignedDownload.parse(link.json);
    expect((await putSigned(url, 'overwrite attempt')).status).toBe(403);
  });
});

describe('blobs: the size of an upload', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ service: { maxUploadBytes: 64 * 1024 }, demo: { assets: 1 } });
  });
  afterAll(() => t?.stop());

  /** A chunked body (no Content-Length) of `total` bytes that counts how many the client was asked for. */
  function countedStream(total: number, chunk = 64 * 1024): { body: ReadableStream<Uint8Array>; pulled: () => number } {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= total) return controller.close();
        const size = Math.min(chunk, total - pulled);
        pulled += size;
        controller.enqueue(new Uint8Array(size));
      },
    });
    return { body, pulled: () => pulled };
  }

  /** Nothing of a refused body stays in the blob folder: no blob under the key, no temporary file. */
  function keptFiles(key: string): string[] {
    const blobs = join(t.service.dataDir, 'blobs');
    return [...readdirSync(blobs).filter((name) => name === key), ...readdirSync(join(blobs, 'tmp'))];
  }

  it('refuses a body longer than the declared size (413) without reading it, keeps nothing, and the URL still takes the declared bytes', async () => {
    const bytes = randomBytes(1000);
    const ticket = await requestUpload(t.api, bytes);
    const longer = await putSigned(ticket.signedUrl, Buffer.concat([bytes, Buffer.from('and more')]));
    expect({ status: longer.status, code: await errorOf(longer) }).toEqual({ status: 413, code: 'payload_too_large' });

    // Without a Content-Length: the service stops reading once the body passes the declared size.
    const stream = countedStream(64 * 1024 * 1024);
    const chunked = await fetch(ticket.signedUrl, { method: 'PUT', body: stream.body, duplex: 'half' } as RequestInit);
    expect({ status: chunked.status, code: await errorOf(chunked) }).toEqual({ status: 413, code: 'payload_too_large' });
    expect(stream.pulled()).toBeLessThan(32 * 1024 * 1024);

    expect(keptFiles(ticket.key)).toEqual([]);
    const commit = await t.api('POST', '/workspaces/assets', { body: { key: ticket.key, file_name: 'longer.bin', checksum: ticket.checksum } });
    expect(statusAndCode(commit)).toEqual({ status: 400, code: 'upload_missing' });
    expect((await putSigned(ticket.signedUrl, bytes)).status).toBe(200);
  });

  it('refuses a body shorter than the declared size even with the signed checksum (400), keeping nothing', async () => {
    const bytes = Buffer.from('ten bytes!');
    const query = new URLSearchParams({ file_name: 'short.txt', checksum: sha256(bytes), size: String(bytes.length + 5) });
    const ticket = (await t.api<{ key: string; signed_url: string }>('POST', `/workspaces/upload?${query.toString()}`)).json;
    const res = await putSigned(ticket.signed_url, bytes);
    expect({ status: res.status, code: await errorOf(res) }).toEqual({ status: 400, code: 'invalid_request' });
    expect(keptFiles(ticket.key)).toEqual([]);
  });

  it('signs the declared size: a URL whose size was changed or removed is refused (403)', async () => {
    const bytes = randomBytes(100);
    const ticket = await requestUpload(t.api, bytes);
    expect(new URL(ticket.signedUrl).searchParams.get('size')).toBe('100');
    for (const url of [
      tamper(ticket.signedUrl, (u) => u.searchParams.set('size', '200')),
      tamper(ticket.signedUrl, (u) => u.searchParams.delete('size')),
    ]) {
      const res = await putSigned(url, bytes);
      expect({ url, status: res.status }).toEqual({ url, status: 403 });
    }
    expect((await putSigned(ticket.signedUrl, bytes)).status).toBe(200);
  });

  it('applies the configured cap without a declared size, and refuses to sign a declared size above it (413)', async () => {
    const cap = 64 * 1024;
    const ask = (bytes: Buffer, size?: number) =>
      t.api<{ key: string; signed_url: string }>('POST', `/workspaces/upload?${new URLSearchParams({
        file_name: 'f.bin', checksum: sha256(bytes), ...(size === undefined ? {} : { size: String(size) }),
      }).toString()}`);
    const over = randomBytes(cap + 1);
    expect(statusAndCode(await ask(over, over.length))).toEqual({ status: 413, code: 'payload_too_large' });
    const unsized = await ask(over);
    expect(unsized.status).toBe(200);
    const refused = await putSigned(unsized.json.signed_url, over);
    expect({ status: refused.status, code: await errorOf(refused) }).toEqual({ status: 413, code: 'payload_too_large' });
    const stream = countedStream(64 * 1024 * 1024);
    const chunked = await fetch(unsized.json.signed_url, { method: 'PUT', body: stream.body, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(stream.pulled()).toBeLessThan(32 * 1024 * 1024);
    expect(keptFiles(unsized.json.key)).toEqual([]);

    const atCap = randomBytes(cap);
    const fits = await ask(atCap);
    expect((await putSigned(fits.json.signed_url, atCap)).status).toBe(200);
  });
});

describe('blobs: signed download URLs', () => {
  let t: TestService;
  // Over the small-blob size and over two of the 1 MiB buffers the blob origin sends from in turn.
  const bytes = randomBytes(2 * 1024 * 1024 + 256 * 1024 + 17);
  let assetId = '';
  let checksum = '';
  let signedGet = '';
  beforeAll(async () => {
    t = await startTestService({ demo: { assets: 1 } });
    const asset = await createAsset(t.api, { fileName: 'render.bin', bytes });
    assetId = asset.id;
    checksum = sha256(bytes);
    const res = await t.api('GET', `/workspaces/assets/${assetId}/download`);
    signedGet = res.headers.get('location') ?? '';
  });
  afterAll(() => t?.stop());

  it('redirects GET …/download (302) to the blob origin, and the bytes there are the uploaded ones', async () => {
    expect(new URL(signedGet).origin).toBe(new URL(t.service.blobUrl).origin);
    const res = await fetch(signedGet);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(`"${checksum}"`);
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(checksum);
  });

  it('answers ?redirect=false with the URL, its expiry, checksum and size', async () => {
    const res = await t.api('GET', `/workspaces/assets/${assetId}/download?redirect=false`);
    expect(res.status).toBe(200);
    const link = SignedDownload.parse(res.json);
    expect(link).toMatchObject({ checksum, size: bytes.length });
    expect(Date.parse(link.expires_at ?? '')).toBeGreaterThan(Date.now());
  });

  it('serves byte ranges (206 with Content-Range), including a suffix range', async () => {
    const res = await fetch(signedGet, { headers: { range: 'bytes=1000-1999' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);

    const tail = await fetch(signedGet, { headers: { range: 'bytes=-17' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes ${bytes.length - 17}-${bytes.length - 1}/${bytes.length}`);
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 17))).toBe(true);

    const open = await fetch(signedGet, { headers: { range: `bytes=${bytes.length - 5}-` } });
    expect(open.status).toBe(206);
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes.subarray(bytes.length - 5))).toBe(true);

    const across = await fetch(signedGet, { headers: { range: 'bytes=1048000-2098000' } });
    expect(Buffer.from(await across.arrayBuffer()).equals(bytes.subarray(1048000, 2098001))).toBe(true);

    const beyond = await fetch(signedGet, { headers: { range: `bytes=${bytes.length}-` } });
    expect(beyond.status).toBe(416);
    await beyond.arrayBuffer();
  });

  it('answers 304 to If-None-Match with the ETag, and 200 to another ETag', async () => {
    const same = await fetch(signedGet, { headers: { 'if-none-match': `"${checksum}"` } });
    expect(same.status).toBe(304);
    expect((await same.arrayBuffer()).byteLength).toBe(0);
    const stale = await fetch(signedGet, { headers: { 'if-none-match': `"${sha256('old')}"` } });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
  });

  it('answers HEAD with the headers of a GET and no body', async () => {
    const res = await fetch(signedGet, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    expect(res.headers.get('etag')).toBe(`"${checksum}"`);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('refuses a tampered download URL (403) and needs no bearer token for a good one', async () => {
    const forged = tamper(signedGet, (u) => u.searchParams.set('exp', String(Number(u.searchParams.get('exp')) + 1)));
    const res = await fetch(forged);
    expect(res.status).toBe(403);
    await res.arrayBuffer();
  });

  it('redirects a version download to that version\'s bytes', async () => {
    const second = Buffer.from('second version');
    const up = await upload(t.api, second);
    const current = (await t.api<{ current_version_id: string }>('GET', `/workspaces/assets/${assetId}`)).json.current_version_id;
    const created = await t.api<{ id: string }>('POST', `/workspaces/assets/${assetId}/versions`, { body: { key: up.key, checksum: up.checksum, commit_parent_id: current } });
    expect(created.status).toBe(201);
    const old = await t.api('GET', `/workspaces/assets/${assetId}/versions/${current}/download`);
    expect(old.status).toBe(302);
    expect(sha256(new Uint8Array(await (await fetch(old.headers.get('location') ?? '')).arrayBuffer()))).toBe(checksum);
    const latest = await t.api('GET', `/workspaces/assets/${assetId}/download`);
    expect(Buffer.from(await (await fetch(latest.headers.get('location') ?? '')).arrayBuffer()).equals(second)).toBe(true);
  });
});

describe('blobs: a download cut off by the client', () => {
  let t: TestService;
  const LATENCY_MS = 300;
  beforeAll(async () => {
    // Each blob request waits a little first, so a client can leave before the body begins.
    t = await startTestService({ service: { faults: faults({ latencyMs: LATENCY_MS }) }, demo: { assets: 1 } });
  });
  afterAll(() => t?.stop());

  /** Files of the service's blob folder this process holds open. */
  function openBlobFiles(): string[] {
    const blobs = join(t.service.dataDir, 'blobs');
    return readdirSync('/proc/self/fd')
      .map((fd) => {
        try {
          return readlinkSync(join('/proc/self/fd', fd));
        } catch {
          return '';
        }
      })
      .filter((target) => target.startsWith(blobs));
  }

  async function signedGetOfLargeBlob(fileName: string): Promise<string> {
    // Larger than the socket buffers, so the service is still reading the file when the client leaves.
    const asset = await createAsset(t.api, { fileName, bytes: randomBytes(16 * 1024 * 1024) });
    return (await t.api('GET', `/workspaces/assets/${asset.id}/download`)).headers.get('location') ?? '';
  }

  /** GETs `url` and goes away once `leave` resolves (given the response, if one came by then). */
  function getAndLeave(url: string, leave: (req: ClientRequest) => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const req = httpGet(url);
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      leave(req).then(() => {
        req.destroy();
        resolve();
      }, reject);
    });
  }

  // A file left open leaks a descriptor per cut download, and keeps the folder from being
  // removed on a FUSE disk (the open file turns into a .fuse_hidden one).
  async function expectNoBlobOpen(): Promise<void> {
    for (let i = 0; i < 100 && openBlobFiles().length > 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(openBlobFiles()).toEqual([]);
  }

  it.runIf(process.platform === 'linux')('closes the blob file when the client goes away mid-body', async () => {
    const url = await signedGetOfLargeBlob('cut-mid-body.bin');
    await getAndLeave(url, (req) => new Promise((resolve) => req.on('response', (res) => res.once('data', () => resolve()))));
    await expectNoBlobOpen();
  });

  it.runIf(process.platform === 'linux')('opens no blob file for a client that went away before the body began', async () => {
    const url = await signedGetOfLargeBlob('cut-before-body.bin');
    await getAndLeave(url, () => new Promise((resolve) => setTimeout(resolve, LATENCY_MS / 3)));
    // The service answers the request after its delay, to a connection already gone.
    await new Promise((r) => setTimeout(r, LATENCY_MS));
    await expectNoBlobOpen();
  });
});

describe('blobs: expiry', () => {
  it('refuses an upload URL and a download URL once past their expiry (403)', async () => {
    const t = await startTestService({ service: { signedUrlTtlSeconds: 1 }, demo: { assets: 1 } });
    try {
      const bytes = Buffer.from('late bytes');
      const ticket = await requestUpload(t.api, bytes);
      const asset = t.demo.assetIds[0] ?? '';
      const download = (await t.api('GET', `/workspaces/assets/${asset}/download`)).headers.get('location') ?? '';
      // `exp` is in whole seconds: two seconds later both URLs are past it for sure.
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const put = await putSigned(ticket.signedUrl, bytes);
      expect(put.status).toBe(403);
      expect(await errorOf(put)).toBe('forbidden');
      const get = await fetch(download);
      expect(get.status).toBe(403);
      await get.arrayBuffer();
    } finally {
      await t.stop();
    }
  });
});
