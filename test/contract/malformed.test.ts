/**
 * Contract: hostile and broken input (docs/protocol.md "Errors": 500 is never the answer to a
 * client's mistake). Every route of the reference's part 4, plus ours, gets malformed JSON,
 * wrong types, arrays and scalars instead of objects, huge strings, an oversized body, unknown
 * and junk ids and junk headers; the core write endpoints also get random JSON (fast-check).
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitBody } from '../../shared/api/index.js';
import { PERMISSIONS } from '../../service/http/permissions.js';
import { errorCode, startTestService, type ApiResponse, type TestService } from '../helpers/service.js';
import { createAsset, sha256, upload } from '../helpers/uploads.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Every route the service answers: the rows of its permission table, which the service checks
 * against its routes when it starts (the reference's part 4, every row, plus ours).
 */
const ROUTES: Array<[Method, string]> = [...new Set(PERMISSIONS.map((p) => `${p.method} ${p.path}`))].map((route) => {
  const [method, path] = route.split(' ') as [Method, string];
  return [method, path];
});

/** Routes whose success would end the caller's user, account or workspace: they only get bodies that must fail before any handler runs. */
const DESTRUCTIVE = new Set(['DELETE /users', 'DELETE /accounts', 'DELETE /workspaces']);
/** Routes without a path id that read a JSON object body: anything but an object must be a 4xx. */
const OBJECT_BODY = new Set([
  'POST /auth/token', 'POST /workspaces', 'POST /accounts/invites', 'PUT /workspaces/settings', 'POST /workspaces/libraries', 'POST /workspaces/tags',
  'POST /workspaces/tasks', 'POST /workspaces/folders', 'POST /workspaces/assets', 'DELETE /workspaces/assets',
]);

const hasBody = (method: Method) => method !== 'GET';
/** `segment` goes into the path as it is (already URL-encoded). */
const fill = (path: string, segment: string) => path.replace(/\{[a-z_]+\}/g, segment);
const label = (method: Method, path: string) => `${method} ${path}`;

/** An object with every field name the API knows, each of a type it never takes. */
const WRONG_TYPES = {
  key: 42, secret: ['s'], name: { first: 'x' }, file_name: 12.5, folder_id: true, parent_id: 7, checksum: -1, size: 'big',
  commit_parent_id: [1], asset_ids: 'everything', permanent: 'yes', if_current_version_ids: ['a'], locked: 'please',
  title: 1, description: { html: true }, status: 404, content: null, mentions: 'everyone', attachments: {}, tag_ids: 3,
  roles: 'admin', email: 99, value: undefined, defaultAvatar: 'eleven', color: [], due_date: {}, message: 5, id: { $ne: null },
};
const HUGE = 'x'.repeat(60_000);
/** JSON nested `depth` levels deep: arrays, or objects, under one field each route reads. */
const nested = (depth: number, kind: 'array' | 'object' = 'array', leaf = '1'): string =>
  kind === 'array' ? `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;
/** Deep enough to overflow a recursive walk, far below the 1 MiB body limit. */
const DEEP = 5_000;
/** Routes whose body is a multipart form with a JSON `body` part. */
const MULTIPART = new Set(['PATCH /users', 'PUT /accounts', 'PUT /workspaces']);
const HUGE_STRINGS = Object.fromEntries(['key', 'name', 'file_name', 'checksum', 'title', 'content', 'email', 'message', 'description', 'id'].map((k) => [k, HUGE]));

interface Probe {
  name: string;
  body?: string;
  contentType?: string;
  headers?: Record<string, string | null>;
  /** The status every route must answer, or 'client-error' for any 4xx. */
  expect: number | 'client-error' | 'not-server-error';
  applies(method: Method, path: string): boolean;
}

const PROBES: Probe[] = [
  { name: 'malformed JSON', body: '{"name": "unterminated', expect: 400, applies: hasBody },
  { name: 'JSON with trailing garbage', body: '{"name":"x"} {}', expect: 400, applies: hasBody },
  { name: 'body over the 1 MiB limit', body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }), expect: 413, applies: hasBody },
  { name: 'form-encoded body', body: 'name=x&parent_id=y', contentType: 'application/x-www-form-urlencoded', expect: 'client-error', applies: (m, p) => OBJECT_BODY.has(label(m, p)) },
  { name: 'array instead of an object', body: JSON.stringify([{ name: 'x', file_name: 'x.txt' }]), expect: 'client-error', applies: (m, p) => OBJECT_BODY.has(label(m, p)) },
  { name: 'a bare string', body: JSON.stringify('hello'), expect: 'client-error', applies: (m, p) => OBJECT_BODY.has(label(m, p)) },
  { name: 'null', body: 'null', expect: 'client-error', applies: (m, p) => OBJECT_BODY.has(label(m, p)) },
  { name: 'wrong types', body: JSON.stringify(WRONG_TYPES), expect: 'client-error', applies: (m, p) => OBJECT_BODY.has(label(m, p)) },
  { name: 'huge strings', body: JSON.stringify(HUGE_STRINGS), expect: 'client-error', applies: (m, p) => OBJECT_BODY.has(label(m, p)) },
  { name: `arrays nested ${DEEP} deep`, body: `{"value":${nested(DEEP)},"name":${nested(DEEP)}}`, expect: 400, applies: hasBody },
  { name: `objects nested ${DEEP} deep`, body: `{"viewer_metadata":${nested(DEEP, 'object')},"value":${nested(DEEP, 'object')}}`, expect: 400, applies: hasBody },
  { name: 'any odd body', body: JSON.stringify([WRONG_TYPES, 1, 'x']), expect: 'not-server-error', applies: (m, p) => hasBody(m) && !DESTRUCTIVE.has(label(m, p)) },
  { name: 'prototype keys', body: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},"name":"proto"}', expect: 'not-server-error', applies: (m, p) => hasBody(m) && !DESTRUCTIVE.has(label(m, p)) },
  {
    name: 'non-UUID x-workspace-id', headers: { 'x-workspace-id': 'workspace-1' }, expect: 400,
    applies: (_m, p) => p.startsWith('/workspaces') && p !== '/workspaces' && !p.startsWith('/workspaces/upload'),
  },
  { name: 'non-UUID x-account-id', headers: { 'x-account-id': "1' OR '1'='1" }, expect: 400, applies: (_m, p) => !p.startsWith('/users') },
  { name: 'two x-account-id values', headers: { 'x-account-id': `${randomUUID()}, ${randomUUID()}` }, expect: 400, applies: (_m, p) => !p.startsWith('/users') },
  { name: 'Authorization not a bearer token', headers: { authorization: 'Basic dXNlcjpwYXNz' }, expect: 400, applies: (_m, p) => p !== '/auth/token' },
];

/** Percent-encodings that do not decode: a lone `%`, a non-hex digit, cut or overlong UTF-8. */
const BAD_ENCODINGS = ['%', '%Z', '%ZZ', '%E0%A4%A', '%C0%AF', '%FF', 'a%', '%%30'];
/** A query naming every parameter the API reads, each badly encoded, and a badly encoded name. */
const BAD_QUERY = '?since=%&limit=%ZZ&include_attachments=%E0%A4%A&include_deleted=%&redirect=%FF&permanent=%&recursive=%C0%AF&file_name=%&checksum=%&size=%&%=1&op=%&exp=%&sig=%';

/**
 * The status line of a request written byte for byte on a socket: fetch would encode or refuse
 * these targets before sending them. 0 when the server closes without answering.
 */
function rawStatus(origin: string, method: string, target: string): Promise<number> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(`${method} ${target} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
  });
}

function bad(res: ApiResponse, expected: Probe['expect']): string | undefined {
  if (res.status >= 500) return `answered ${res.status}`;
  if (res.status >= 400 && !errorCode(res)) return `answered ${res.status} without an error body: ${res.text.slice(0, 80)}`;
  if (expected === 'client-error' && (res.status < 400 || res.status >= 500)) return `answered ${res.status}, not a 4xx`;
  if (typeof expected === 'number' && res.status !== expected) return `answered ${res.status}, not ${expected}`;
  return undefined;
}

describe('malformed input', () => {
  let t: TestService;
  let assetId = '';
  let versionId = '';
  let folderId = '';
  beforeAll(async () => {
    t = await startTestService({ demo: { assets: 2 } });
    const asset = await createAsset(t.api, { fileName: 'target.txt' });
    assetId = asset.id;
    versionId = asset.current_version_id;
    folderId = (await t.api<{ id: string }>('POST', '/workspaces/folders', { body: { name: 'Target' } })).json.id;
  });
  afterAll(() => t?.stop());

  const stillAnswers = async () => {
    const res = await t.api('GET', '/workspaces/folders/hierarchy');
    expect(res.status).toBe(200);
  };

  it('answers every probe on every route with a 4xx and an error body, never a 5xx', async () => {
    const failures: string[] = [];
    for (const [method, template] of ROUTES) {
      const path = fill(template, randomUUID());
      for (const probe of PROBES.filter((p) => p.applies(method, template))) {
        const res = await t.api(method, path, {
          body: probe.body,
          headers: { ...(probe.body !== undefined ? { 'content-type': probe.contentType ?? 'application/json' } : {}), ...probe.headers },
        });
        const problem = bad(res, probe.expect);
        if (problem) failures.push(`${label(method, template)} with ${probe.name}: ${problem}`);
      }
    }
    expect(failures).toEqual([]);
    await stillAnswers();
  });

  it('answers a multipart form whose JSON body part is nested too deep with 400', async () => {
    const failures: string[] = [];
    for (const [method, path] of ROUTES.filter(([m, p]) => MULTIPART.has(label(m, p)))) {
      for (const kind of ['array', 'object'] as const) {
        const form = new FormData();
        form.set('body', `{"name":${nested(DEEP, kind)}}`);
        const res = await t.api(method, path, { body: form });
        const problem = bad(res, 400);
        if (problem) failures.push(`${label(method, path)} with a ${kind} body part nested ${DEEP} deep: ${problem}`);
      }
    }
    expect(failures).toEqual([]);
    await stillAnswers();
  });

  it('takes JSON nested up to 64 levels and refuses one level more, with 400 invalid_request', async () => {
    const setting = (await t.api<Array<{ id: string; key: string }>>('GET', '/accounts/settings')).json.find((x) => x.key === 'allow_member_invites');
    const put = (depth: number) =>
      t.api<{ value: unknown }>('PUT', `/accounts/settings/${setting?.id ?? ''}`, { body: `{"value":${nested(depth - 1, 'object', 'true')}}`, headers: { 'content-type': 'application/json' } });
    const deepest = await put(64);
    expect(deepest.status).toBe(200);
    expect(JSON.stringify(deepest.json.value)).toBe(nested(63, 'object', 'true'));
    const tooDeep = await put(65);
    expect({ status: tooDeep.status, code: errorCode(tooDeep) }).toEqual({ status: 400, code: 'invalid_request' });
    expect(tooDeep.text).toContain('64');
  });

  it('answers unknown and junk ids in paths with a 4xx, never a 5xx', async () => {
    const failures: string[] = [];
    const segments = [randomUUID(), 'not-an-id', '0', '-1', '%00', '%ZZ', encodeURIComponent("1' OR '1'='1"), '...', encodeURIComponent('ÿ'.repeat(90)), 'x'.repeat(300)];
    for (const [method, template] of ROUTES.filter(([, p]) => p.includes('{'))) {
      for (const segment of segments) {
        const res = await t.api(method, fill(template, segment), hasBody(method) ? { body: {} } : {});
        const problem = bad(res, 'client-error');
        if (problem) failures.push(`${label(method, template)} with id ${JSON.stringify(segment.slice(0, 20))}: ${problem}`);
      }
    }
    expect(failures).toEqual([]);
    await stillAnswers();
  });

  it('answers badly percent-encoded paths and queries on every API route with a 4xx and an error body, never a 5xx', async () => {
    const failures: string[] = [];
    for (const [method, template] of ROUTES) {
      const paths = template.includes('{') ? BAD_ENCODINGS.map((e) => fill(template, e)) : [`${template}/%`];
      // A destructive route would succeed with its query ignored: it gets only the paths that miss it.
      const withQuery = DESTRUCTIVE.has(label(method, template)) ? [] : [`${fill(template, randomUUID())}${BAD_QUERY}`];
      for (const path of [...paths, ...withQuery]) {
        const res = await t.api(method, path, hasBody(method) ? { body: {} } : {});
        const problem = bad(res, 'not-server-error');
        if (problem) failures.push(`${method} ${path}: ${problem}`);
      }
    }
    expect(failures).toEqual([]);
    await stillAnswers();
  });

  it('answers badly percent-encoded paths and queries on the blob origin, for every method, with a 4xx and an error body', async () => {
    const up = await upload(t.api, 'a blob behind bad URLs');
    const signed = new URL(up.signedUrl);
    const paths = [
      ...BAD_ENCODINGS.map((e) => `/blobs/${e}`), ...BAD_ENCODINGS.map((e) => `/blobs/up_${e}`), `/blobs/${signed.pathname.slice(7)}%`,
      '/%', '/blobs/', '/blobs/a/b', '/blobs/%2e%2e%2f%2e%2e%2fetc%2fpasswd', `${signed.pathname}${BAD_QUERY}`, `${signed.pathname}?op=%&exp=%&sig=%`,
      `${signed.pathname}${signed.search}%`, `${signed.pathname}${signed.search.replace('sig=', 'sig=%')}`,
    ];
    const failures: string[] = [];
    for (const method of ['GET', 'HEAD', 'PUT', 'POST', 'DELETE']) {
      for (const path of paths) {
        const res = await fetch(`${t.service.blobUrl}${path}`, { method, ...(method === 'PUT' || method === 'POST' ? { body: 'x' } : {}) });
        const text = await res.text();
        if (res.status >= 500) failures.push(`${method} ${path}: answered ${res.status}`);
        else if (res.status >= 400 && method !== 'HEAD' && !/"error"/.test(text)) failures.push(`${method} ${path}: ${res.status} without an error body`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers odd request targets written on the socket with a 4xx on both origins, never a 5xx', async () => {
    const targets = ['/blobs/%', 'http://[::1/blobs/x', 'http://x:99999/blobs/x', 'http://127.0.0.1/blobs/%', '*', '//blobs//x', '/blobs/x?%', '/workspaces/assets/%?a=%', 'http://x:99999/users'];
    const failures: string[] = [];
    for (const origin of [t.service.url, t.service.blobUrl]) {
      for (const method of ['GET', 'PUT', 'OPTIONS']) {
        for (const target of targets) {
          const status = await rawStatus(origin, method, target);
          if (status >= 500) failures.push(`${method} ${target} on ${origin === t.service.url ? 'the API' : 'the blob origin'}: ${status}`);
        }
      }
    }
    expect(failures).toEqual([]);
    await stillAnswers();
  });

  it('answers invalid tokens hammering every route with 401, then 429 in the reference shape, never a 5xx; a token in use goes on', async () => {
    // A service of its own, with the default limits: this one's address is blocked by the end.
    const own = await startTestService({ demo: { assets: 1 } });
    try {
      const failures: string[] = [];
      let limited = 0;
      for (const [method, template] of ROUTES.filter(([, p]) => p !== '/auth/token')) {
        const forged = `${randomUUID()}.${randomUUID()}.${randomUUID()}`.replace(/-/g, '');
        const res = await own.api(method, fill(template, randomUUID()), { headers: { authorization: `Bearer ${forged}` }, ...(hasBody(method) ? { body: {} } : {}) });
        const retryAfter = Number(res.headers.get('retry-after'));
        if (res.status === 429 && Number.isInteger(retryAfter) && retryAfter >= 1 && RateLimitBody.safeParse(res.json).success) limited += 1;
        else if (res.status !== 401 || errorCode(res) !== 'unauthorized') failures.push(`${label(method, template)}: ${res.status} ${res.text.slice(0, 80)}`);
      }
      expect(failures).toEqual([]);
      expect(limited).toBeGreaterThan(0);
      expect((await own.api('GET', '/workspaces/folders/hierarchy')).status).toBe(200);
    } finally {
      await own.stop();
    }
  });

  it('answers unknown routes and methods with 404 and an error body', async () => {
    for (const [method, path] of [['GET', '/nope'], ['PATCH', '/workspaces/folders/hierarchy'], ['POST', '/workspaces/changes'], ['GET', '/workspaces/assets']] as const) {
      const res = await t.api(method, path);
      expect({ method, path, status: res.status, code: errorCode(res) }).toEqual({ method, path, status: 404, code: 'not_found' });
    }
  });

  it('answers odd upload queries with 400', async () => {
    const checksum = sha256('x');
    for (const query of ['', `?checksum=${checksum}`, '?file_name=a.txt', `?file_name=a.txt&checksum=${checksum.toUpperCase()}`, `?file_name=a.txt&checksum=${checksum}&size=-1`,
      `?file_name=a.txt&checksum=${checksum}&size=abc`, `?file_name=&checksum=${checksum}`, `?file_name=a&file_name=b&checksum=${checksum}`]) {
      const res = await t.api('POST', `/workspaces/upload${query}`);
      expect({ query, status: res.status, code: errorCode(res) }).toEqual({ query, status: 400, code: 'invalid_request' });
    }
  });

  it('survives random JSON bodies on the core write endpoints (fast-check)', async () => {
    const up = await upload(t.api, 'a real upload');
    const endpoints: Array<{ method: Method; path: () => string; valid: () => Record<string, unknown> }> = [
      { method: 'POST', path: () => '/workspaces/assets', valid: () => ({ key: up.key, file_name: 'fuzz.txt', checksum: up.checksum, folder_id: folderId }) },
      { method: 'POST', path: () => '/workspaces/assets', valid: () => ({ id: assetId, file_name: 'target.txt' }) },
      { method: 'PUT', path: () => `/workspaces/assets/${assetId}`, valid: () => ({ file_name: 'target.txt', folder_id: null, locked: false }) },
      { method: 'DELETE', path: () => '/workspaces/assets', valid: () => ({ asset_ids: [randomUUID()], if_current_version_ids: {} }) },
      { method: 'POST', path: () => `/workspaces/assets/${assetId}/versions`, valid: () => ({ key: up.key, checksum: up.checksum, commit_parent_id: randomUUID() }) },
      { method: 'PATCH', path: () => `/workspaces/assets/${assetId}/versions/${versionId}`, valid: () => ({ name: 'v', description: 'd' }) },
      { method: 'POST', path: () => '/workspaces/folders', valid: () => ({ name: 'fuzz', parent_id: folderId }) },
      { method: 'PUT', path: () => `/workspaces/folders/${folderId}`, valid: () => ({ name: 'Target', parent_id: null }) },
      { method: 'POST', path: () => '/auth/token', valid: () => ({ key: 'ak_x', secret: 'sk_x' }) },
    ];
    const field = fc.constantFrom('key', 'file_name', 'name', 'checksum', 'folder_id', 'parent_id', 'id', 'locked', 'asset_ids',
      'if_current_version_ids', 'commit_parent_id', 'size', 'description', 'permanent', 'secret', '__proto__', 'constructor');
    // Either any JSON at all, or a valid body with one field replaced by any JSON: the second reaches past the schemas.
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }).map((value) => () => value),
      fc.tuple(field, fc.jsonValue({ maxDepth: 2 })).map(([name, value]) => (valid: Record<string, unknown>) => ({ ...valid, [name]: value })),
    );
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: endpoints.length - 1 }), body, async (which, make) => {
        const endpoint = endpoints[which];
        if (!endpoint) return;
        const res = await t.api(endpoint.method, endpoint.path(), { body: JSON.stringify(make(endpoint.valid())), headers: { 'content-type': 'application/json' } });
        const problem = bad(res, 'not-server-error');
        expect(problem, `${endpoint.method} ${endpoint.path()}`).toBeUndefined();
      }),
      { numRuns: 300, seed: 4_242 },
    );
    await stillAnswers();
  });
});
