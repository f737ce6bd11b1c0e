import { createHash } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient, conflictDetails } from '../../main/service-client/index.js';
import { startService, type DemoInfo, type RunningService } from '../../service/index.js';

let service: RunningService;
let demo: DemoInfo;
let client: ServiceClient;

beforeAll(async () => {
  service = await startService({ tokenShape: 'object', errorShape: 'flat' });
  demo = await service.seedDemo();
  client = new ServiceClient({
    baseUrl: service.url,
    accountId: demo.accountId,
    credentials: { key: demo.user.apiKey, secret: demo.user.apiSecret },
    baseDelayMs: 1,
    maxDelayMs: 5,
  });
});

afterAll(async () => {
  await client?.close();
  await service?.stop();
});

describe('against the local service', () => {
  it('reads a listing of many pages whole: the same folders, assets and sequence as a listing in one page', async () => {
    const ws = demo.workspaceId;
    const whole = await client.getHierarchy(ws, { pageSize: 10_000 });
    expect(whole.assets.length).toBeGreaterThan(3);
    const byId = (listing: typeof whole) => ({ ...listing, assets: [...listing.assets].sort((a, b) => a.id.localeCompare(b.id)) });
    for (const pageSize of [1, 2, 3]) expect(byId(await client.getHierarchy(ws, { pageSize }))).toEqual(byId(whole));
  });

  it('lists, uploads, commits and downloads', async () => {
    const ws = demo.workspaceId;
    const listing = await client.getHierarchy(ws);
    expect(listing.assets.length).toBeGreaterThan(0);

    const bytes = Buffer.from(`smoke test ${Date.now()}`);
    const checksum = createHash('sha256').update(bytes).digest('hex');
    const ticket = await client.requestUpload(ws, { fileName: 'smoke.txt', contentType: 'text/plain', checksum, size: bytes.length });
    expect(new URL(ticket.signed_url).origin).toBe(service.blobUrl);
    await expect(client.putSignedUpload(ticket.signed_url, bytes, { contentType: 'text/plain' })).resolves.toMatchObject({ status: 200 });
    const created = await client.createAsset(ws, { key: ticket.key, file_name: 'smoke.txt', folder_id: null, checksum, size: bytes.length });
    expect(created.currentVersion?.checksum).toBe(checksum);

    // A create repeated after a lost answer: the 409 names the asset to adopt.
    const again = await client
      .createAsset(ws, { key: ticket.key, file_name: 'smoke.txt', folder_id: null, checksum, size: bytes.length })
      .catch((e: unknown) => e);
    expect(conflictDetails(again)).toMatchObject({ id: created.id, checksum });

    const signed = await client.getDownloadUrl(ws, created.id);
    const download = await client.downloadRange(signed.url, { start: 6 });
    expect(download.status).toBe(206);
    expect(await text(download.body)).toBe(bytes.subarray(6).toString());

    const changes = await client.getChanges(ws, listing.sequence);
    expect(changes.ok && changes.page.changes.some((c) => c.type !== 'unreadable' && c.id === created.id)).toBe(true);
  });
});
