/**
 * The Transport's own guards, against real local servers: which origin a request may reach with
 * the bearer token, and what a signed URL may be.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Transport } from '../../main/service-client/http.js';
import { ServiceClient } from '../../main/service-client/index.js';
import { ACCOUNT, KEY, SECRET, sendJson, startServer, user, type TestServer } from './service-client-servers.js';

const servers: TestServer[] = [];
const closers: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(): Promise<TestServer> {
  const s = await startServer((_req, res) => sendJson(res, 200, user));
  servers.push(s);
  return s;
}

function transport(baseUrl: string): Transport {
  const t = new Transport({ baseUrl, userAgent: 'test', timeoutMs: 5000, connections: 1, secrets: () => [] });
  closers.push(t);
  return t;
}

describe('the service URL', () => {
  it('must be http or https', () => {
    for (const baseUrl of ['ftp://127.0.0.1/', 'file:///srv/api', 'javascript:alert(1)']) {
      expect(() => new ServiceClient({ baseUrl, accountId: ACCOUNT, credentials: { key: KEY, secret: SECRET } })).toThrow(
        `service URL must be http(s): ${new URL(baseUrl).protocol}`,
      );
    }
    for (const baseUrl of ['http://127.0.0.1:1/', 'https://127.0.0.1:1/']) expect(() => transport(baseUrl)).not.toThrow();
  });

  it('keeps its path prefix, however many slashes end it', async () => {
    const api = await server();
    for (const prefix of ['/api', '/api/', '/api//', '/v1/api///']) {
      const t = transport(`${api.url}${prefix}?ignored=1`);
      const res = await t.api(t.apiUrl('/users', { a: 1 }), { method: 'GET', headers: {} });
      await res.body.dump();
    }
    expect(api.requests.map((r) => r.url.pathname + r.url.search)).toEqual(['/api/users?a=1', '/api/users?a=1', '/api/users?a=1', '/v1/api/users?a=1']);
  });
});

describe('where the bearer token may go', () => {
  it('api() refuses any origin but the service, and sends nothing there', async () => {
    const api = await server();
    const other = await server();
    const t = transport(api.url);
    for (const url of [`${other.url}/users`, `http://localhost:${api.port}/users`, `https://127.0.0.1:${api.port}/users`]) {
      expect(() => t.api(new URL(url), { method: 'GET', headers: { authorization: 'Bearer t0ken' } })).toThrow('api() is for the service origin only');
    }
    expect(other.requests).toHaveLength(0);
    expect(api.requests).toHaveLength(0);
  });

  it('blob() strips Authorization however it is spelled, and sends the other headers', async () => {
    const blob = await server();
    const t = transport('http://127.0.0.1:1');
    for (const name of ['authorization', 'Authorization', 'AUTHORIZATION', 'aUtHoRiZaTiOn']) {
      const res = await t.blob(new URL(`${blob.url}/blobs/k?sig=1`), { method: 'GET', headers: { [name]: 'Bearer t0ken', range: 'bytes=1-' } });
      await res.body.dump();
    }
    expect(blob.requests).toHaveLength(4);
    for (const r of blob.requests) {
      expect(r.headers.authorization).toBeUndefined();
      expect(JSON.stringify(r.headers)).not.toContain('t0ken');
      expect(r.headers.range).toBe('bytes=1-');
    }
  });

  it('blob() takes http and https signed URLs, and refuses any other scheme', async () => {
    const t = transport('http://127.0.0.1:1');
    for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/blobs/k', 'data:text/plain,x']) {
      expect(() => t.blob(new URL(url), { method: 'GET', headers: {} })).toThrow(
        expect.objectContaining({ kind: 'malformed', code: 'bad_signed_url', message: `signed URL must be http(s), got ${new URL(url).protocol}` }),
      );
    }
    // An https URL goes out (here to a plain-http server, so the TLS handshake fails).
    const plain = await server();
    await expect(t.blob(new URL(`https://127.0.0.1:${plain.port}/blobs/k`), { method: 'GET', headers: {} })).rejects.toMatchObject({ kind: 'network' });
  });
});
