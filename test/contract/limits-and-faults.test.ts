/**
 * Contract: the rate limit (429 with Retry-After and `{ error, retry_after }`) and the injected
 * faults a client must survive (docs/protocol.md "Limits" and "Local service options").
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimitBody } from '../../shared/api/index.js';
import { startService, type RunningService, type ServiceOptions } from '../../service/index.js';
import { getToken, makeApi, receive, startTestService } from '../helpers/service.js';

const running: RunningService[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

async function start(options: Partial<ServiceOptions>): Promise<RunningService> {
  const service = await startService(options);
  running.push(service);
  return service;
}

const faults = (f: Partial<NonNullable<ServiceOptions['faults']>>) => ({ latencyMs: 0, error5xx: 0, drop: 0, truncate: 0, seed: 1, ...f });

/** How a client sees one response: its status, and whether its whole body arrived as JSON. */
async function attempt(url: string, init: RequestInit = {}): Promise<{ status: number | 'failed'; parsed: boolean }> {
  try {
    const res = await fetch(url, init);
    try {
      JSON.parse(await res.text());
      return { status: res.status, parsed: true };
    } catch {
      return { status: res.status, parsed: false };
    }
  } catch {
    return { status: 'failed', parsed: false };
  }
}


describe('rate limit', () => {
  it('answers a burst beyond the limit with 429, a Retry-After header and { error, retry_after }; other tokens are not affected', async () => {
    const t = await startTestService({ service: { rateLimitPerSecond: 5 }, demo: { assets: 1 } });
    try {
      const burst = await Promise.all(Array.from({ length: 30 }, () => t.api('GET', '/workspaces/folders/hierarchy')));
      const limited = burst.filter((r) => r.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      expect(burst.filter((r) => r.status !== 429).every((r) => r.status === 200)).toBe(true);
      for (const res of limited) {
        const retryAfter = Number(res.headers.get('retry-after'));
        expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
        expect(RateLimitBody.parse(res.json)).toEqual({ error: 'rate_limited', retry_after: retryAfter });
      }
      expect((await t.colleague.api('GET', '/workspaces/folders/hierarchy')).status).toBe(200);
    } finally {
      await t.stop();
    }
  });
});

describe('faults', () => {
  it('with error5xx: 1 answers every API call 503 (with Retry-After), while the blob origin is untouched', async () => {
    const service = await start({ faults: faults({ error5xx: 1 }) });
    const demo = await service.seedDemo({ assets: 1 });
    const api = makeApi(service.url, { 'x-account-id': demo.accountId, 'x-workspace-id': demo.workspaceId, authorization: 'Bearer x.y.z' });
    for (const [method, path] of [['GET', '/workspaces/folders/hierarchy'], ['POST', '/auth/token'], ['GET', '/nowhere'], ['DELETE', '/workspaces/assets']] as const) {
      const res = await api(method, path, { body: method === 'GET' ? undefined : {} });
      expect({ path, status: res.status }).toEqual({ path, status: 503 });
      expect(res.headers.get('retry-after')).not.toBeNull();
    }
    const blob = await fetch(`${service.blobUrl}/blobs/up_nothing?op=get&exp=1&sig=00`);
    expect(blob.status).toBe(403);
    await blob.arrayBuffer();
    expect(service.faults?.counts.error5xx).toBe(4);
  });

  it('with drop: 1 cuts every successful response mid-body; error answers still arrive whole', async () => {
    const service = await start({ faults: faults({ drop: 1 }) });
    const demo = await service.seedDemo({ assets: 1 });
    const token = await attempt(`${service.url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-account-id': demo.accountId },
      body: JSON.stringify({ key: demo.user.apiKey, secret: demo.user.apiSecret }),
    });
    // The status line and headers arrive; the body stops halfway.
    expect(token).toEqual({ status: 200, parsed: false });
    const refused = await attempt(`${service.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused).toEqual({ status: 400, parsed: true });
  });

  it('with truncate: 1 delivers fewer bytes of a blob than its Content-Length promises', async () => {
    const service = await start({ faults: faults({ truncate: 1 }) });
    const demo = await service.seedDemo({ assets: 1 });
    const token = await getToken(service.url, demo.accountId, demo.user);
    const api = makeApi(service.url, { authorization: `Bearer ${token}`, 'x-account-id': demo.accountId, 'x-workspace-id': demo.workspaceId });
    const download = await api('GET', `/workspaces/assets/${demo.assetIds[0] ?? ''}/download`);
    expect(download.status).toBe(302);
    const got = await receive(download.headers.get('location') ?? '');
    expect(got.status).toBe(200);
    expect(got.promised).toBeGreaterThan(0);
    expect(got.received).toBeLessThan(got.promised);
  });

  it('replays the same faults for the same seed and the same requests', async () => {
    const statuses = async (seed: number) => {
      const service = await start({ faults: faults({ error5xx: 0.5, seed }) });
      const out: number[] = [];
      // Sequential on purpose: the faults follow the order of requests.
      for (let i = 0; i < 40; i += 1) {
        const res = await fetch(`${service.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
        await res.arrayBuffer();
        out.push(res.status);
      }
      return out;
    };
    const first = await statuses(7);
    const second = await statuses(7);
    const other = await statuses(8);
    expect(new Set(first)).toEqual(new Set([400, 503]));
    expect(second).toEqual(first);
    expect(other).not.toEqual(first);
  });
});
