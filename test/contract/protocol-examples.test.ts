/**
 * docs/protocol.md's examples are executable (its "Examples and required fields" section):
 * every labelled JSON example goes through the schema the client reads or types it with, and
 * against our service (a request example is sent and accepted; an answer is compared with what
 * the service really answers to the same request: every field the example shows is there, with
 * the JSON type it shows; for the listing and the feed under `--listing-shape minimal`, exactly
 * those fields). The tables of required fields are checked against the client's schemas. So the
 * document, the client and the service cannot disagree without this test failing.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as sharedApi from '../../shared/api/index.js';
import { normalizeErrorBody } from '../../shared/api/index.js';
import * as clientSchemas from '../../main/service-client/schemas.js';
import { parseRateLimit, type ServiceOptions } from '../../service/config.js';
import { startTestService, type ApiResponse, type Session, type TestService } from '../helpers/service.js';

const DOC_PATH = new URL('../../docs/protocol.md', import.meta.url);
const DOC = readFileSync(DOC_PATH, 'utf8');

interface Example {
  /** `METHOD /path PART [--option value]`: what the test reproduces against the service. */
  key: string;
  schema: string;
  options: Partial<ServiceOptions>;
  body: unknown;
  line: number;
}

const LABEL = /^[ \t]*<!-- example: (\S+) (\S+) (request|\d{3}) (\w+)((?: --[a-z-]+ \S+)*) -->\n[ \t]*```json\n([\s\S]*?)\n[ \t]*```/gm;

const OPTIONS: Record<string, (value: string) => Partial<ServiceOptions>> = {
  '--token-shape': (v) => ({ tokenShape: v as ServiceOptions['tokenShape'] }),
  '--error-shape': (v) => ({ errorShape: v as ServiceOptions['errorShape'] }),
  '--listing-shape': (v) => ({ listingShape: v as ServiceOptions['listingShape'] }),
  '--rate-limit': (v) => ({ rateLimitPerSecond: parseRateLimit(v) }),
};

function examplesOf(doc: string): Example[] {
  const out: Example[] = [];
  for (const m of doc.matchAll(LABEL)) {
    const [, method = '', path = '', part = '', schema = '', flags = '', json = ''] = m;
    const line = doc.slice(0, m.index).split('\n').length;
    const options: Partial<ServiceOptions> = {};
    const words = flags.trim().split(/\s+/).filter(Boolean);
    for (let i = 0; i < words.length; i += 2) {
      const option = OPTIONS[words[i] ?? ''];
      if (!option) throw new Error(`docs/protocol.md:${line}: unknown service option ${words[i]}`);
      Object.assign(options, option(words[i + 1] ?? ''));
    }
    let body: unknown;
    try {
      body = JSON.parse(json);
    } catch (error) {
      throw new Error(`docs/protocol.md:${line}: the example is not valid JSON: ${(error as Error).message}`);
    }
    out.push({ key: `${method} ${path} ${part}${flags}`, schema, options, body, line });
  }
  return out;
}

const EXAMPLES = examplesOf(DOC);

/** The schemas the client reads answers with and types its requests with, by export name. */
const SCHEMAS = new Map<string, z.ZodType>(
  (Object.entries({ ...sharedApi, ...clientSchemas }) as Array<[string, unknown]>).filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType),
);

function schemaOf(example: Example): z.ZodType {
  const schema = SCHEMAS.get(example.schema);
  if (!schema) throw new Error(`docs/protocol.md:${example.line}: no client schema named ${example.schema}`);
  return schema;
}

describe('docs/protocol.md examples', () => {
  it('are all labelled, and running text repeats them rather than showing other JSON', () => {
    const fences = DOC.match(/^[ \t]*```json$/gm) ?? [];
    expect(EXAMPLES.length).toBeGreaterThan(10);
    expect(EXAMPLES.length, 'every ```json block has an <!-- example: … --> label right before it').toBe(fences.length);
    const prose = DOC.replace(/^[ \t]*```[\s\S]*?^[ \t]*```/gm, '');
    const bodies = EXAMPLES.map((e) => JSON.stringify(e.body));
    for (const [, code = ''] of prose.matchAll(/`([^`]+)`/g)) {
      let value: unknown;
      try {
        value = JSON.parse(code);
      } catch {
        continue;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
      expect(bodies, `\`${code}\` in running text is no labelled example`).toContain(JSON.stringify(value));
    }
  });

  describe.each(EXAMPLES.map((e) => [`${e.key} (line ${e.line})`, e] as const))('%s', (_name, example) => {
    it(`passes the client's schema ${example.schema}`, () => {
      const parsed = schemaOf(example).safeParse(example.body);
      expect(parsed.error?.issues ?? []).toEqual([]);
      if (example.schema === 'ErrorBody') expect(normalizeErrorBody(example.body)?.code).toMatch(/^[a-z_]+$/);
    });

    it('is what our service accepts or answers', async () => {
      const reproduce = REPRODUCE[example.key.replace(/ --.*$/, '')];
      if (!reproduce) throw new Error(`docs/protocol.md:${example.line}: add how to reproduce "${example.key}" against the service to REPRODUCE`);
      const t = await serviceWith(example.options);
      const answer = await reproduce(t, example.body);
      if (answer !== undefined) expectSameShape(example.body, answer, { exact: false });
    });
  });

  it.each([
    ['GET /workspaces/folders/hierarchy 200'],
    ['GET /workspaces/changes 200'],
  ])('%s: under --listing-shape minimal, exactly the fields the example shows', async (key) => {
    const example = EXAMPLES.find((e) => e.key === key);
    if (!example) throw new Error(`docs/protocol.md has no example labelled ${key}`);
    const t = await serviceWith({ listingShape: 'minimal' });
    expectSameShape(example.body, await REPRODUCE[key]?.(t, example.body), { exact: true });
  });

  describe('tables of required fields', () => {
    const rows = [...DOC.matchAll(/^\|\s*`(\w+)`\s*\|([^|]*)\|([^|]*)\|\s*$/gm)].map(([, name = '', required = '', optional = '']) => ({
      name,
      required: fieldsIn(required),
      optional: fieldsIn(optional),
    }));

    it('are there for the listing and the feed', () => {
      expect(rows.map((r) => r.name)).toEqual(['Hierarchy', 'Folder', 'AssetEntry', 'ChangesPage', 'Change']);
    });

    it.each(rows.map((r) => [r.name, r] as const))('%s: the client requires exactly the required fields', (name, row) => {
      const fields = fieldsOf(SCHEMAS.get(name));
      expect([...fields].filter(([, required]) => required).map(([field]) => field).sort()).toEqual([...row.required].sort());
      for (const field of row.optional) expect(fields.get(field), `${name}.${field} is known and optional`).toBe(false);
    });
  });
});

/** `a`, `b` in a table cell, leaving out what follows in parentheses. */
function fieldsIn(cell: string): string[] {
  return [...cell.replace(/\([^)]*\)/g, '').matchAll(/`(\w+)`/g)].map(([, f = '']) => f);
}

/** Field → required, for an object schema or a union of them (required: in every option). */
function fieldsOf(schema: z.ZodType | undefined): Map<string, boolean> {
  if (schema instanceof z.ZodDiscriminatedUnion || schema instanceof z.ZodUnion) {
    const options = (schema.options as z.ZodType[]).map(fieldsOf);
    const out = new Map<string, boolean>();
    for (const fields of options) for (const field of fields.keys()) out.set(field, options.every((o) => o.get(field) === true));
    return out;
  }
  if (!(schema instanceof z.ZodObject)) throw new Error('not an object schema');
  return new Map(Object.entries(schema.shape as Record<string, z.ZodType>).map(([field, s]) => [field, !s.safeParse(undefined).success]));
}

// What the service really does, per example.

const services = new Map<string, Promise<TestService>>();
afterAll(async () => {
  await Promise.all([...services.values()].map(async (t) => (await t).stop()));
});

function serviceWith(options: Partial<ServiceOptions>): Promise<TestService> {
  const key = JSON.stringify(options);
  let t = services.get(key);
  if (!t) services.set(key, (t = startTestService({ service: options })));
  return t;
}

const sha256 = (bytes: string): string => createHash('sha256').update(bytes).digest('hex');

/** The example's fields with the values that name things on this service: the example must have every one of them. */
function withReal(example: unknown, real: Record<string, unknown>): Record<string, unknown> {
  const body = example as Record<string, unknown>;
  for (const field of Object.keys(real)) expect(Object.keys(body), `the example shows ${field}`).toContain(field);
  return { ...body, ...real };
}

function answered(res: ApiResponse, status: number): unknown {
  expect(res.status, res.text).toBe(status);
  return res.json;
}

async function upload(s: Session, text: string): Promise<{ key: string; checksum: string; size: number }> {
  const checksum = sha256(text);
  const ticket = answered(await s.api('POST', `/workspaces/upload?file_name=x.txt&content_type=text/plain&checksum=${checksum}&size=${text.length}`), 200) as sharedApi.UploadTicket;
  expect((await fetch(ticket.signed_url, { method: 'PUT', body: text })).status).toBe(200);
  return { key: ticket.key, checksum, size: text.length };
}

async function listing(s: Session): Promise<sharedApi.Hierarchy> {
  return sharedApi.Hierarchy.parse(answered(await s.api('GET', '/workspaces/folders/hierarchy'), 200));
}

async function readme(s: Session): Promise<sharedApi.AssetEntry> {
  const found = (await listing(s)).assets.find((a) => a.file_name === 'README.txt' && a.folder_id === null);
  if (!found) throw new Error('the demo workspace has no README.txt');
  return found;
}

async function newAsset(s: Session, name: string): Promise<{ id: string; current_version_id: string }> {
  const up = await upload(s, `${name} v1`);
  return answered(await s.api('POST', '/workspaces/assets', { body: { key: up.key, file_name: name, checksum: up.checksum, size: up.size } }), 201) as {
    id: string;
    current_version_id: string;
  };
}

let unique = 0;
const uniqueName = (stem: string): string => `${stem}-${(unique += 1)}.txt`;

type Reproduce = (t: TestService, example: unknown) => Promise<unknown>;

/** Per example key without its service options: makes the request, and answers what the service answered (undefined for a request example). */
const REPRODUCE: Record<string, Reproduce> = {
  'POST /auth/token request': async (t, example) => {
    const body = withReal(example, { key: t.demo.user.apiKey, secret: t.demo.user.apiSecret });
    const res = await fetch(`${t.service.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-account-id': t.demo.accountId }, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    return undefined;
  },
  'POST /auth/token 200': async (t) => {
    const res = await fetch(`${t.service.url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-account-id': t.demo.accountId },
      body: JSON.stringify({ key: t.demo.user.apiKey, secret: t.demo.user.apiSecret }),
    });
    expect(res.status).toBe(200);
    return JSON.parse(await res.text()) as unknown;
  },
  'GET /workspaces/changes 400': async (t) => answered(await t.api('GET', '/workspaces/changes?since=-1'), 400),
  'GET /workspaces 429': async (t) => {
    for (let i = 0; i < 20; i += 1) {
      const res = await t.api('GET', '/workspaces');
      if (res.status === 429) return res.json;
    }
    throw new Error('no 429 in 20 requests');
  },
  'POST /workspaces/upload 200': async (t) =>
    answered(await t.api('POST', `/workspaces/upload?file_name=a.txt&content_type=text/plain&checksum=${sha256('a')}&size=1`), 200),
  'GET /workspaces/folders/hierarchy 200': async (t) => answered(await t.api('GET', '/workspaces/folders/hierarchy'), 200),
  'GET /workspaces/changes 200': async (t) => {
    // An asset changed, a folder deleted and an asset purged since the cursor: each kind of change the example shows.
    const since = (await listing(t.user)).sequence;
    const asset = await readme(t.user);
    const up = await upload(t.colleague, `README edited ${unique}`);
    answered(await t.colleague.api('POST', `/workspaces/assets/${asset.id}/versions`, { body: { key: up.key, checksum: up.checksum, commit_parent_id: asset.current_version_id } }), 201);
    const folder = answered(await t.user.api('POST', '/workspaces/folders', { body: { name: uniqueName('Drafts') } }), 201) as { id: string };
    answered(await t.user.api('DELETE', `/workspaces/folders/${folder.id}`), 200);
    const doomed = await newAsset(t.user, uniqueName('doomed'));
    answered(await t.user.api('DELETE', '/workspaces/assets', { body: { asset_ids: [doomed.id], permanent: true } }), 200);
    return answered(await t.user.api('GET', `/workspaces/changes?since=${since}`), 200);
  },
  'POST /workspaces/assets request': async (t, example) => {
    const up = await upload(t.user, `new asset ${unique}`);
    const body = withReal(example, { key: up.key, checksum: up.checksum, size: up.size, file_name: uniqueName('created'), folder_id: null });
    answered(await t.user.api('POST', '/workspaces/assets', { body }), 201);
    return undefined;
  },
  'POST /workspaces/assets 409': async (t) => {
    const up = await upload(t.user, `another README ${unique}`);
    return answered(await t.user.api('POST', '/workspaces/assets', { body: { key: up.key, file_name: 'README.txt', folder_id: null, checksum: up.checksum, size: up.size } }), 409);
  },
  'POST /workspaces/assets/{asset_id}/versions request': async (t, example) => {
    const asset = await newAsset(t.user, uniqueName('versioned'));
    const up = await upload(t.user, `version 2 ${unique}`);
    const body = withReal(example, { key: up.key, checksum: up.checksum, size: up.size, commit_parent_id: asset.current_version_id });
    answered(await t.user.api('POST', `/workspaces/assets/${asset.id}/versions`, { body }), 201);
    return undefined;
  },
  'POST /workspaces/assets/{asset_id}/versions 409': async (t) => {
    const asset = await newAsset(t.user, uniqueName('raced'));
    const theirs = await upload(t.colleague, `theirs ${unique}`);
    answered(await t.colleague.api('POST', `/workspaces/assets/${asset.id}/versions`, { body: { ...theirs, commit_parent_id: asset.current_version_id } }), 201);
    const mine = await upload(t.user, `mine ${unique}`);
    return answered(await t.user.api('POST', `/workspaces/assets/${asset.id}/versions`, { body: { ...mine, commit_parent_id: asset.current_version_id } }), 409);
  },
  'DELETE /workspaces/assets request': async (t, example) => {
    const asset = await newAsset(t.user, uniqueName('deleted'));
    const body = withReal(example, { asset_ids: [asset.id], if_current_version_ids: { [asset.id]: asset.current_version_id } });
    answered(await t.user.api('DELETE', '/workspaces/assets', { body }), 200);
    return undefined;
  },
  'DELETE /workspaces/assets 200': async (t) => {
    const asset = await newAsset(t.user, uniqueName('deleted'));
    return answered(await t.user.api('DELETE', '/workspaces/assets', { body: { asset_ids: [asset.id] } }), 200);
  },
  'DELETE /workspaces/folders/{folder_id} 200': async (t) => {
    const folder = answered(await t.user.api('POST', '/workspaces/folders', { body: { name: uniqueName('Empty') } }), 201) as { id: string };
    return answered(await t.user.api('DELETE', `/workspaces/folders/${folder.id}`), 200);
  },
  'GET /workspaces/assets/{asset_id}/download 200': async (t) => answered(await t.user.api('GET', `/workspaces/assets/${(await readme(t.user)).id}/download?redirect=false`), 200),
};

/**
 * Where each value sits, array items by their `type` when they have one (`changes[type=asset]`),
 * with the JSON types seen there and, for objects, each one's keys.
 */
interface Shape {
  types: Map<string, Set<string>>;
  keys: Map<string, Array<Set<string>>>;
  /** Error codes and change types: values a client decides with. */
  literals: Map<string, Set<unknown>>;
}

const LITERAL_KEYS = new Set(['code', 'error', 'type']);

function shapeOf(value: unknown): Shape {
  const shape: Shape = { types: new Map(), keys: new Map(), literals: new Map() };
  const push = <T>(map: Map<string, T[] | Set<unknown>>, path: string, item: T): void => {
    const list = map.get(path);
    if (list instanceof Set) list.add(item);
    else if (list) list.push(item);
  };
  const visit = (v: unknown, path: string, key: string): void => {
    const type = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
    if (!shape.types.has(path)) shape.types.set(path, new Set());
    shape.types.get(path)?.add(type);
    if (LITERAL_KEYS.has(key) && type === 'string') {
      if (!shape.literals.has(path)) shape.literals.set(path, new Set());
      push(shape.literals, path, v);
    }
    if (Array.isArray(v)) {
      for (const item of v) {
        const tag = item !== null && typeof item === 'object' && typeof (item as { type?: unknown }).type === 'string' ? `type=${(item as { type: string }).type}` : '';
        visit(item, `${path}[${tag}]`, '');
      }
    } else if (type === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      if (!shape.keys.has(path)) shape.keys.set(path, []);
      push(shape.keys, path, new Set(entries.map(([k]) => k)));
      for (const [k, child] of entries) visit(child, `${path}.${k}`, k);
    }
  };
  visit(value, '$', '');
  return shape;
}

/**
 * The real answer shows every place the example shows, with no JSON type the example does not
 * show there; each of its objects has every key the example's objects at that place have (only
 * those, when `exact`); error codes and change types are the example's.
 */
function expectSameShape(example: unknown, real: unknown, { exact }: { exact: boolean }): void {
  const want = shapeOf(example);
  const got = shapeOf(real);
  for (const [path, types] of want.types) {
    const seen = got.types.get(path);
    expect(seen, `the service's answer has ${path}`).toBeDefined();
    for (const type of seen ?? []) expect([...types], `${path} is ${type} in the service's answer`).toContain(type);
  }
  for (const [path, objects] of want.keys) {
    const keys = new Set(objects.flatMap((o) => [...o]));
    for (const actual of got.keys.get(path) ?? []) {
      for (const key of keys) expect([...actual], `${path} has ${key} in the service's answer`).toContain(key);
      if (exact) for (const key of actual) expect([...keys], `${path}.${key}: a field the example does not show`).toContain(key);
    }
  }
  for (const [path, values] of want.literals) {
    for (const value of got.literals.get(path) ?? []) expect([...values], `${path}`).toContain(value);
  }
}
