import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../main/service-client/index.js';
import {
  ACCOUNT,
  KEY,
  SECRET,
  WORKSPACE,
  apiCalls,
  sendJson,
  startFakeApi,
  startServer,
  type Handler,
  type Route,
  type TestServer,
} from './service-client-servers.js';

const servers: TestServer[] = [];
const clients: ServiceClient[] = [];
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'service-client-'));
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

async function server(handler: Handler): Promise<TestServer> {
  const s = await startServer(handler);
  servers.push(s);
  return s;
}

async function setup(routes: Record<string, Route> = {}): Promise<{ api: TestServer & { tokensIssued: string[] }; client: ServiceClient }> {
  const api = await startFakeApi({ routes });
  servers.push(api);
  const client = new ServiceClient({
    baseUrl: api.url,
    accountId: ACCOUNT,
    credentials: { key: KEY, secret: SECRET },
    baseDelayMs: 1,
    maxDelayMs: 5,
    maxAttempts: 3,
  });
  clients.push(client);
  return { api, client };
}

/** A client whose log warnings (the retries it makes) land in `logged`. */
function loggingClient(api: TestServer, logged: unknown[]): ServiceClient {
  const logger = { debug: () => undefined, warn: (obj: object) => logged.push(obj) };
  const client = new ServiceClient({ baseUrl: api.url, accountId: ACCOUNT, credentials: { key: KEY, secret: SECRET }, baseDelayMs: 1, maxDelayMs: 5, logger });
  clients.push(client);
  return client;
}

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');
const content = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz'.repeat(1000));

/** A blob origin that stores PUT bodies and serves them back with Range support. */
async function blobOrigin(): Promise<TestServer & { stored: Map<string, Buffer> }> {
  const stored = new Map<string, Buffer>();
  const s = await server((req, res, r) => {
    if (r.method === 'PUT') {
      stored.set(r.path, r.body);
      const sum = sha256(r.body);
      return sendJson(res, 200, { key: r.path.slice(7), size: r.body.length, checksum: sum }, { etag: `"${sum}"` });
    }
    const data = stored.get(r.path);
    if (!data) return sendJson(res, 404, { error: 'not_found' });
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const part = data.subarray(start);
    res.writeHead(range ? 206 : 200, {
      'content-length': part.length,
      etag: `"${sha256(data)}"`,
      ...(range ? { 'content-range': `bytes ${start}-${data.length - 1}/${data.length}` } : {}),
    });
    res.end(part);
  });
  return Object.assign(s, { stored });
}

describe('signed uploads', () => {
  it('asks for an upload ticket with the protocol parameters', async () => {
    const { api, client } = await setup({
      'POST /workspaces/upload': (_r, res) => sendJson(res, 200, { key: 'up_1', signed_url: 'http://127.0.0.1:1/blobs/up_1?op=put&sig=x' }),
    });
    const ticket = await client.requestUpload(WORKSPACE, { fileName: 'a b.psd', contentType: 'image/x-psd', checksum: sha256(content), size: content.length });
    expect(ticket.key).toBe('up_1');
    const call = apiCalls(api)[0];
    expect(Object.fromEntries(call?.url.searchParams ?? [])).toEqual({
      file_name: 'a b.psd',
      content_type: 'image/x-psd',
      checksum: sha256(content),
      size: String(content.length),
    });
    expect(call?.headers['x-account-id']).toBe(ACCOUNT);
    expect(call?.headers['x-workspace-id']).toBe(WORKSPACE);
  });

  it('streams a file to the blob origin without the bearer token', async () => {
    const blob = await blobOrigin();
    const { client } = await setup();
    await client.getUser().catch(() => undefined); // holds a token from now on
    const file = join(dir, 'hero.psd');
    await writeFile(file, content);
    const progress: number[] = [];
    const result = await client.putSignedUpload(`${blob.url}/blobs/up_1?op=put&sig=abc`, createReadStream(file, { highWaterMark: 4096 }), {
      size: content.length,
      onProgress: (bytes) => progress.push(bytes),
    });
    expect(result).toMatchObject({ status: 200, key: 'up_1', size: content.length, checksum: sha256(content), etag: sha256(content) });
    const put = blob.requests[0];
    expect(put?.headers.authorization).toBeUndefined();
    expect(put?.headers['content-length']).toBe(String(content.length));
    expect(put?.body.equals(content)).toBe(true);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(content.length);
  });

  it('accepts any async iterable of bytes', async () => {
    const blob = await blobOrigin();
    const { client } = await setup();
    async function* parts(): AsyncGenerator<Uint8Array> {
      yield content.subarray(0, 10);
      yield content.subarray(10);
    }
    await client.putSignedUpload(`${blob.url}/blobs/up_2`, parts(), { size: content.length });
    expect(blob.stored.get('/blobs/up_2')?.equals(content)).toBe(true);
  });

  it('retries a Buffer upload after a 503 but never replays a consumed stream', async () => {
    let puts = 0;
    const flaky = await server((_req, res, r) => {
      puts++;
      if (puts === 1) return sendJson(res, 503, { error: 'unavailable' });
      return sendJson(res, 200, { key: 'up', size: r.body.length });
    });
    const { client } = await setup();
    await expect(client.putSignedUpload(`${flaky.url}/blobs/up`, content)).resolves.toMatchObject({ status: 200, size: content.length });
    expect(puts).toBe(2);

    puts = 0;
    const file = join(dir, 'f.bin');
    await writeFile(file, content);
    await expect(client.putSignedUpload(`${flaky.url}/blobs/up`, createReadStream(file), { size: content.length })).rejects.toMatchObject({
      kind: 'server',
      status: 503,
    });
    expect(puts).toBe(1);
  });

  it('accepts an empty answer with only an ETag (object stores)', async () => {
    const store = await server((_req, res) => {
      res.writeHead(200, { etag: '"abc"', 'content-length': '0' });
      res.end();
    });
    const { client } = await setup();
    await expect(client.putSignedUpload(`${store.url}/bucket/x`, content)).resolves.toEqual({ status: 200, etag: 'abc' });
  });

  it('rejects a signed URL that is not http(s)', async () => {
    const { client } = await setup();
    await expect(client.putSignedUpload('file:///etc/passwd', content)).rejects.toMatchObject({ kind: 'malformed' });
  });
});

describe('signed downloads', () => {
  it('reads the 302 Location of the download endpoint without following it', async () => {
    const blob = await blobOrigin();
    const { api, client } = await setup({
      'GET /workspaces/assets/a1/download': (_r, res) => {
        res.writeHead(302, { location: `${blob.url}/blobs/k1?op=get&sig=s` });
        res.end();
      },
    });
    const signed = await client.getDownloadUrl(WORKSPACE, 'a1');
    expect(signed.url).toBe(`${blob.url}/blobs/k1?op=get&sig=s`);
    expect(apiCalls(api)[0]?.url.searchParams.get('redirect')).toBe('false');
    expect(blob.requests).toHaveLength(0);
  });

  it('accepts the JSON answer of redirect=false, for a given version', async () => {
    const { client } = await setup({
      'GET /workspaces/assets/a1/versions/v2/download': (_r, res) =>
        sendJson(res, 200, { url: 'http://127.0.0.1:9/blobs/k?sig=1', expires_at: '2030-01-01T00:00:00Z', checksum: 'c'.repeat(64), size: 5 }),
    });
    await expect(client.getDownloadUrl(WORKSPACE, 'a1', 'v2')).resolves.toMatchObject({ size: 5, checksum: 'c'.repeat(64) });
  });

  it('never sends Authorization to the blob origin, even across redirects to another port', async () => {
    const blob = await blobOrigin();
    blob.stored.set('/blobs/k1', content);
    const hop = await server((_req, res) => {
      res.writeHead(307, { location: `${blob.url}/blobs/k1?op=get&sig=s2` });
      res.end();
    });
    const { api, client } = await setup({
      'GET /workspaces/assets/a1/download': (_r, res) => {
        res.writeHead(302, { location: `${hop.url}/redirect/k1?sig=s1` });
        res.end();
      },
    });
    const signed = await client.getDownloadUrl(WORKSPACE, 'a1');
    const response = await client.downloadRange(signed.url);
    expect(response.status).toBe(200);
    expect(Buffer.from(await text(response.body)).equals(content)).toBe(true);
    expect(apiCalls(api)[0]?.headers.authorization).toMatch(/^Bearer /);
    for (const r of [...hop.requests, ...blob.requests]) {
      expect(r.headers.authorization).toBeUndefined();
      expect(r.headers['x-account-id']).toBeUndefined();
    }
    expect(hop.requests).toHaveLength(1);
    expect(blob.requests).toHaveLength(1);
  });

  it('resumes from an offset with a Range request and reports status and headers', async () => {
    const blob = await blobOrigin();
    blob.stored.set('/blobs/k1', content);
    const { client } = await setup();
    const progress: number[] = [];
    const response = await client.downloadRange(`${blob.url}/blobs/k1`, { start: 100, onProgress: (n) => progress.push(n) });
    expect(response.status).toBe(206);
    expect(response.contentRange).toEqual({ start: 100, end: content.length - 1, total: content.length });
    expect(response.contentLength).toBe(content.length - 100);
    expect(response.etag).toBe(sha256(content));
    expect(response.headers['content-range']).toBe(`bytes 100-${content.length - 1}/${content.length}`);
    expect(await text(response.body)).toBe(content.subarray(100).toString());
    expect(blob.requests[0]?.headers.range).toBe('bytes=100-');
    expect(progress.at(-1)).toBe(content.length - 100);
  });

  it('rejects a 206 whose range is not the one asked for', async () => {
    const liar = await server((_req, res) => {
      res.writeHead(206, { 'content-range': 'bytes 0-9/100', 'content-length': '10' });
      res.end('0123456789');
    });
    const { client } = await setup();
    await expect(client.downloadRange(`${liar.url}/blobs/k`, { start: 50 })).rejects.toMatchObject({ kind: 'malformed', code: 'bad_content_range' });
  });

  it('writes to a stream and counts the bytes', async () => {
    const blob = await blobOrigin();
    blob.stored.set('/blobs/k1', content);
    const { client } = await setup();
    const target = join(dir, 'out.bin');
    const done = await client.downloadToStream(`${blob.url}/blobs/k1`, createWriteStream(target));
    expect(done).toMatchObject({ status: 200, bytes: content.length, contentLength: content.length });
    expect((await readFile(target)).equals(content)).toBe(true);
  });

  it('reports a Location that is not a URL, and a redirect loop, as malformed', async () => {
    const loop = await server((_req, res) => {
      res.writeHead(302, { location: '/again' });
      res.end();
    });
    const { client } = await setup({
      'GET /workspaces/assets/a1/download': (_r, res) => {
        res.writeHead(302, { location: 'http://[::1' });
        res.end();
      },
    });
    await expect(client.getDownloadUrl(WORKSPACE, 'a1')).rejects.toMatchObject({ kind: 'malformed', code: 'bad_location' });
    await expect(client.downloadRange(`${loop.url}/blobs/k`)).rejects.toMatchObject({ kind: 'malformed', code: 'too_many_redirects' });
  });

  it('maps an expired signed URL to forbidden', async () => {
    const expired = await server((_req, res) => {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end('<Error><Code>AccessDenied</Code></Error>');
    });
    const { client } = await setup();
    await expect(client.downloadRange(`${expired.url}/blobs/k?sig=old`)).rejects.toMatchObject({ kind: 'forbidden', status: 403, code: 'http_403' });
  });
});

describe('signed uploads: what lands on the blob origin', () => {
  it('refuses a signed URL that is not a URL, sending nothing', async () => {
    const { api, client } = await setup();
    for (const call of [() => client.putSignedUpload('not a url', content), () => client.downloadRange('::'), async () => client.downloadFromSocket('//no-scheme')]) {
      await expect(call()).rejects.toMatchObject({ name: 'ServiceError', kind: 'malformed', code: 'bad_signed_url', message: 'signed URL is not a URL' });
    }
    expect(api.requests).toHaveLength(0);
  });

  it('sends the content type asked for, application/octet-stream by default', async () => {
    const blob = await blobOrigin();
    const { client } = await setup();
    await client.putSignedUpload(`${blob.url}/blobs/a`, content, { contentType: 'image/x-psd' });
    await client.putSignedUpload(`${blob.url}/blobs/b`, content);
    expect(blob.requests.map((r) => r.headers['content-type'])).toEqual(['image/x-psd', 'application/octet-stream']);
  });

  it('streams a body of unknown size, and every byte lands', async () => {
    const blob = await blobOrigin();
    const { client } = await setup();
    const file = join(dir, 'unsized.bin');
    await writeFile(file, content);
    await client.putSignedUpload(`${blob.url}/blobs/u`, createReadStream(file, { highWaterMark: 4096 }));
    expect(blob.stored.get('/blobs/u')?.equals(content)).toBe(true);
  });

  it('makes a fresh body per attempt from a function, so it can be sent again', async () => {
    let puts = 0;
    const received: Buffer[] = [];
    const flaky = await server((_req, res, r) => {
      puts++;
      received.push(r.body);
      if (puts === 1) return sendJson(res, 503, { error: 'unavailable' });
      return sendJson(res, 200, { key: 'up', size: r.body.length });
    });
    const file = join(dir, 'again.bin');
    await writeFile(file, content);
    const logged: unknown[] = [];
    const retrying = loggingClient(flaky, logged);
    await expect(retrying.putSignedUpload(`${flaky.url}/blobs/up?sig=s`, () => createReadStream(file), { size: content.length })).resolves.toMatchObject({
      status: 200,
      size: content.length,
    });
    expect(received).toHaveLength(2);
    for (const body of received) expect(body.equals(content)).toBe(true);
    expect(logged).toEqual([expect.objectContaining({ request: 'PUT /blobs/up', attempt: 1, status: 503 })]);
  });

  it('closes the file when the upload cannot even start', async () => {
    const file = join(dir, 'held.bin');
    await writeFile(file, content);
    const { client } = await setup();
    for (const onProgress of [undefined, () => undefined]) {
      const stream = createReadStream(file);
      await expect(client.putSignedUpload('file:///etc/passwd', stream, { size: content.length, ...(onProgress ? { onProgress } : {}) })).rejects.toMatchObject({
        code: 'bad_signed_url',
      });
      expect(stream.destroyed).toBe(true);
    }
  });

  it('reports an upload answered with a redirect as failed, without following it', async () => {
    const elsewhere = await blobOrigin();
    const { client } = await setup();
    for (const status of [300, 301, 307, 308]) {
      const mover = await server((_req, res) => {
        res.writeHead(status, { location: `${elsewhere.url}/blobs/moved`, 'content-type': 'application/json' });
        res.end(JSON.stringify({ key: 'up', size: content.length }));
      });
      await expect(client.putSignedUpload(`${mover.url}/blobs/up`, content)).rejects.toMatchObject({ name: 'ServiceError', kind: 'malformed', status });
    }
    expect(elsewhere.requests).toHaveLength(0);
  });
});

/** A chain of `hops` servers, each redirecting to the next with `status`, ending at `blob`. */
async function redirectChain(target: string, statuses: number[]): Promise<TestServer[]> {
  const hops: TestServer[] = [];
  let next = target;
  for (const status of [...statuses].reverse()) {
    const to = next;
    const hop = await server((_req, res) => {
      res.writeHead(status, { location: to });
      res.end();
    });
    hops.unshift(hop);
    next = `${hop.url}/hop?sig=x`;
  }
  return hops;
}

describe('signed downloads: which answers are followed', () => {
  it('follows each redirect status a client follows, none of them with the token', async () => {
    const blob = await blobOrigin();
    blob.stored.set('/blobs/k1', content);
    const hops = await redirectChain(`${blob.url}/blobs/k1?sig=s`, [301, 302, 303, 307, 308]);
    const { client } = await setup();
    await client.getUser().catch(() => undefined);
    const response = await client.downloadRange(`${hops[0]?.url}/hop?sig=x`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await text(response.body)).equals(content)).toBe(true);
    for (const r of [...hops.flatMap((h) => h.requests), ...blob.requests]) expect(r.headers.authorization).toBeUndefined();
    expect(hops.map((h) => h.requests.length)).toEqual([1, 1, 1, 1, 1]);
  });

  it('follows five redirects and no more', async () => {
    const blob = await blobOrigin();
    blob.stored.set('/blobs/k1', content);
    const { client } = await setup();
    const five = await redirectChain(`${blob.url}/blobs/k1`, [302, 302, 302, 302, 302]);
    const ok = await client.downloadRange(`${five[0]?.url}/hop`);
    expect(Buffer.from(await text(ok.body)).equals(content)).toBe(true);
    const six = await redirectChain(`${blob.url}/blobs/k1`, [302, 302, 302, 302, 302, 302]);
    await expect(client.downloadRange(`${six[0]?.url}/hop`)).rejects.toMatchObject({
      kind: 'malformed',
      code: 'too_many_redirects',
      message: 'GET /hop: more than 5 redirects',
    });
    expect(blob.requests).toHaveLength(1);
  });

  it('never follows a Location that comes with a success, an error, or no redirect status', async () => {
    const elsewhere = await blobOrigin();
    const { client } = await setup();
    const cases: { status: number; body: string; expected: object }[] = [
      { status: 200, body: 'the bytes', expected: { status: 200 } },
      { status: 300, body: '', expected: { kind: 'malformed', status: 300 } },
      { status: 304, body: '', expected: { kind: 'malformed', status: 304 } },
      { status: 400, body: '', expected: { kind: 'client', status: 400 } },
      { status: 403, body: '', expected: { kind: 'forbidden', status: 403 } },
    ];
    for (const { status, body, expected } of cases) {
      const origin = await server((_req, res) => {
        res.writeHead(status, { location: `${elsewhere.url}/blobs/other` });
        res.end(body);
      });
      if (status === 200) {
        const response = await client.downloadRange(`${origin.url}/blobs/k`);
        expect(response).toMatchObject(expected);
        expect(await text(response.body)).toBe(body);
      } else {
        await expect(client.downloadRange(`${origin.url}/blobs/k`)).rejects.toMatchObject({ name: 'ServiceError', ...expected });
      }
      expect(origin.requests).toHaveLength(1);
    }
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('reports a redirect without a Location as malformed, asking nothing else', async () => {
    const origin = await server((_req, res) => {
      res.writeHead(302);
      res.end();
    });
    const { client } = await setup();
    await expect(client.downloadRange(`${origin.url}/blobs/k`)).rejects.toMatchObject({ name: 'ServiceError', kind: 'malformed', status: 302 });
    expect(origin.requests.map((r) => r.path)).toEqual(['/blobs/k']);
  });
});

describe('signed downloads: what the caller is told', () => {
  it('rejects a 206 without a Content-Range', async () => {
    const liar = await server((_req, res) => {
      res.writeHead(206, { 'content-length': '10' });
      res.end('0123456789');
    });
    const { client } = await setup();
    await expect(client.downloadRange(`${liar.url}/blobs/k`, { start: 50 })).rejects.toMatchObject({
      kind: 'malformed',
      code: 'bad_content_range',
      message: 'GET /blobs/k: 206 with a Content-Range that does not start at byte 50',
    });
  });

  it('gives no length for a chunked body, and only the headers that came', async () => {
    const chunked = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(content.subarray(0, 100));
      res.end(content.subarray(100));
    });
    const { client } = await setup();
    const response = await client.downloadRange(`${chunked.url}/blobs/k`);
    expect(response.contentLength).toBeUndefined();
    expect(response.headers).toStrictEqual({ 'content-type': 'application/octet-stream' });
    expect(Buffer.from(await text(response.body)).equals(content)).toBe(true);
  });

  it('asks again after a 503 and delivers the bytes, saying which request it retried', async () => {
    let gets = 0;
    const flaky = await server((_req, res) => {
      gets++;
      if (gets === 1) return sendJson(res, 503, { error: 'unavailable' });
      res.writeHead(200, { 'content-length': String(content.length) });
      res.end(content);
    });
    const logged: unknown[] = [];
    const c = loggingClient(flaky, logged);
    const response = await c.downloadRange(`${flaky.url}/blobs/k1?sig=s`);
    expect(Buffer.from(await text(response.body)).equals(content)).toBe(true);
    expect(gets).toBe(2);
    expect(logged).toEqual([expect.objectContaining({ request: 'GET /blobs/k1', attempt: 1, status: 503 })]);
  });

  it('reports a download cut short as a network error naming the request', async () => {
    const cut = await server((_req, res) => {
      res.writeHead(200, { 'content-length': String(content.length) });
      res.write(content.subarray(0, 1000));
      setImmediate(() => res.socket?.destroy());
    });
    const { client } = await setup();
    const err = await client.downloadToStream(`${cut.url}/blobs/k?sig=secret`, createWriteStream(join(dir, 'cut.bin'))).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ServiceError', kind: 'network', request: 'GET /blobs/k' });
    expect((err as Error).message).toMatch(/^GET \/blobs\/k: /);
  });

  it('reads from the socket from the offset asked, with our User-Agent', async () => {
    const blob = await blobOrigin();
    blob.stored.set('/blobs/k1', content);
    const { client } = await setup();
    for (const start of [undefined, 100]) {
      const body = await client.downloadFromSocket(`${blob.url}/blobs/k1`, start === undefined ? {} : { start });
      expect(body).toBeDefined();
      const parts: Buffer[] = [];
      await body?.each((chunk) => {
        parts.push(Buffer.from(chunk));
        return undefined;
      });
      expect(body).toMatchObject({ status: start === undefined ? 200 : 206, contentLength: content.length - (start ?? 0) });
      expect(Buffer.concat(parts).equals(content.subarray(start ?? 0))).toBe(true);
    }
    expect(blob.requests.map((r) => [r.headers.range, r.headers['user-agent']])).toEqual([
      [undefined, 'asset-sync'],
      ['bytes=100-', 'asset-sync'],
    ]);
  });
});
