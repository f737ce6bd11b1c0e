import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openBlobSocket } from '../../main/service-client/blob-socket.js';

const servers: Array<http.Server | https.Server> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
});

const body = Buffer.from(Array.from({ length: 3 * 1024 * 1024 + 17 }, (_, i) => (i * 31 + (i >> 9)) & 0xff));
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** A blob server answering every GET with `handler`; its URL. */
async function serve(handler: http.RequestListener): Promise<URL> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/blobs/b1?sig=abc`);
}

/** Serves `body` like the service's blob origin: ETag, ranges from `Range: bytes=N-`. */
const blobServer = (): Promise<URL> =>
  serve((req, res) => {
    const start = Number(/bytes=(\d+)-/.exec(req.headers.range ?? '')?.[1] ?? 0);
    const part = body.subarray(start);
    res.writeHead(start > 0 ? 206 : 200, {
      'content-length': part.length,
      etag: `"${sha(body)}"`,
      ...(start > 0 ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    });
    res.end(part);
  });

const options = { userAgent: 'test', timeoutMs: 5000 };

describe('openBlobSocket', () => {
  it('reads the whole body, with its ETag, and waits for the consumer before reusing its buffer', async () => {
    const url = await blobServer();
    const got = await openBlobSocket(url, options);
    expect(got).toMatchObject({ status: 200, contentLength: body.length, etag: sha(body) });
    const hash = createHash('sha256');
    let chunks = 0;
    // Every third chunk is taken only later: the bytes must still be the same then.
    await got?.each((chunk) => {
      chunks++;
      if (chunks % 3 !== 0) return void hash.update(chunk);
      return new Promise<void>((resolve) => setTimeout(() => resolve(void hash.update(chunk)), 2));
    });
    expect(hash.digest('hex')).toBe(sha(body));
  });

  it('reads into the space the consumer offers, and only while it has taken what it was handed', async () => {
    const url = await blobServer();
    const got = await openBlobSocket(url, options);
    // A consumer like the direct writer: blocks it fills, each busy for a while once full, during
    // which it offers no space.
    const BLOCK = 256 * 1024;
    const hash = createHash('sha256');
    let block = Buffer.alloc(BLOCK);
    let filled = 0;
    let busy = 0;
    let inPlace = 0;
    const full = (): Promise<void> => {
      hash.update(block);
      block = Buffer.alloc(BLOCK);
      filled = 0;
      busy += 1;
      return new Promise<void>((resolve) => setTimeout(resolve, 2)).then(() => void (busy -= 1));
    };
    const take = (chunk: Buffer): Promise<void> | undefined => {
      // Nothing comes while an answer is pending: the reader waits for it.
      expect(busy).toBe(0);
      if (chunk.buffer === block.buffer && chunk.byteOffset === block.byteOffset + filled) {
        inPlace += chunk.length;
        filled += chunk.length;
        return filled === BLOCK ? full() : undefined;
      }
      // Read elsewhere (the bytes that came with the headers, the first read, a read after a
      // pause): copied, over as many blocks as it spans.
      let waiting: Promise<void> | undefined;
      for (let from = 0; from < chunk.length; ) {
        const n = chunk.copy(block, filled, from);
        filled += n;
        from += n;
        if (filled === BLOCK) waiting = full();
      }
      return waiting;
    };
    // Every seventh chunk is taken only later (a bandwidth limit): meanwhile, the space offered
    // still covers it, and the reader must not read over it.
    let chunks = 0;
    const later = (chunk: Buffer): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, 1)).then(() => take(chunk));
    await got?.each(
      (chunk) => (++chunks % 7 === 0 ? later(chunk) : take(chunk)),
      () => (busy > 0 ? undefined : block.subarray(filled)),
    );
    hash.update(block.subarray(0, filled));
    expect(hash.digest('hex')).toBe(sha(body));
    expect(inPlace).toBeGreaterThan(body.length / 2);
  });

  describe('over https', () => {
    // A self-signed certificate (test/fixtures/tls), which the test does not ask Node to verify:
    // what is under test is reading the decrypted body, not the certificate check.
    const tlsDir = new URL('../fixtures/tls/', import.meta.url);
    let verify: string | undefined;
    beforeAll(() => {
      verify = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    });
    afterAll(() => {
      if (verify === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = verify;
    });

    it('reads the body into the space the consumer offers', async () => {
      const server = https.createServer({ key: readFileSync(new URL('localhost.key', tlsDir)), cert: readFileSync(new URL('localhost.crt', tlsDir)) }, (_req, res) => {
        res.writeHead(200, { 'content-length': body.length, etag: `"${sha(body)}"` });
        res.end(body);
      });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}/blobs/b1?sig=abc`);
      const got = await openBlobSocket(url, options);
      expect(got).toMatchObject({ status: 200, contentLength: body.length, etag: sha(body) });
      const received = Buffer.alloc(body.length);
      let filled = 0;
      let inPlace = 0;
      await got?.each(
        (chunk) => {
          if (chunk.buffer === received.buffer && chunk.byteOffset === received.byteOffset + filled) inPlace += chunk.length;
          else chunk.copy(received, filled);
          filled += chunk.length;
          return undefined;
        },
        () => received.subarray(filled),
      );
      expect(received.equals(body)).toBe(true);
      expect(inPlace).toBeGreaterThan(body.length / 2);
    });
  });

  it('asks for the rest from an offset and checks the range it gets', async () => {
    const url = await blobServer();
    const got = await openBlobSocket(url, { ...options, start: 1_000_000 });
    expect(got).toMatchObject({ status: 206, contentLength: body.length - 1_000_000, contentRange: { start: 1_000_000 } });
    const parts: Buffer[] = [];
    await got?.each((chunk) => void parts.push(Buffer.from(chunk)));
    expect(Buffer.concat(parts).equals(body.subarray(1_000_000))).toBe(true);
  });

  it.each([
    ['a redirect', (res: http.ServerResponse) => res.writeHead(302, { location: '/elsewhere' }).end()],
    ['an error status', (res: http.ServerResponse) => res.writeHead(503, { 'content-length': 2 }).end('no')],
    ['a chunked body', (res: http.ServerResponse) => res.writeHead(200, { 'transfer-encoding': 'chunked' }).end(body)],
    ['a range that starts elsewhere', (res: http.ServerResponse) => res.writeHead(206, { 'content-length': 10, 'content-range': 'bytes 0-9/100' }).end(body.subarray(0, 10))],
  ])('leaves %s to the full HTTP client', async (_name, answer) => {
    const url = await serve((_req, res) => answer(res));
    expect(await openBlobSocket(url, { ...options, start: 5 })).toBeUndefined();
  });

  it('leaves a refused connection to the full HTTP client', async () => {
    const url = await serve((_req, res) => res.end());
    await new Promise((resolve) => (servers.pop() as http.Server).close(resolve));
    expect(await openBlobSocket(url, options)).toBeUndefined();
  });

  it('rejects when the connection ends before the announced length', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': body.length });
      res.write(body.subarray(0, 100_000), () => res.destroy());
    });
    const got = await openBlobSocket(url, options);
    let received = 0;
    await expect(got?.each((chunk) => void (received += chunk.length))).rejects.toThrow(/closed at byte/);
    expect(received).toBeLessThanOrEqual(100_000);
  });

  it('stops when the signal aborts', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': body.length });
      res.write(body.subarray(0, 1000));
    });
    const abort = new AbortController();
    const got = await openBlobSocket(url, { ...options, signal: abort.signal });
    const reading = got?.each(() => {
      abort.abort(new Error('stopped by the user'));
      return undefined;
    });
    await expect(reading).rejects.toThrow('stopped by the user');
  });
});
