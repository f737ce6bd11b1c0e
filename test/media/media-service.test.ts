/**
 * Pictures of the demo workspace, end to end: the engine syncs the demo from the local service,
 * the app API hands out thumbnails and previews, and the headless UI server serves them over
 * real HTTP as a browser would fetch them (no token: the capability is the credential). Each
 * picture must decode to an image of the right size; an older version (never on this computer)
 * is fetched from the service and pictured as it was; a version's own bytes are served with
 * Range; and nothing outside what a capability names is ever served.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MediaPreview, ThumbnailRef } from '../../shared/media.js';
import { AppApi } from '../../main/app-api/index.js';
import { downloadVersionTo } from '../../main/app-api/download.js';
import { Config } from '../../main/config.js';
import { MediaService } from '../../main/media/index.js';
import { headlessHooks } from '../../main/ui-server/headless-hooks.js';
import { startUiServer, type UiServer } from '../../main/ui-server/server.js';
import { createLogger } from '../../main/logging.js';
import { startWorld, type Device, type World } from '../helpers/engine.js';
import { protocol } from '../fakes/electron.js';
import { registerAppScheme, serveRenderer } from '../../main/app/protocol.js';

vi.mock('electron', () => import('../fakes/electron.js'));

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function get(server: UiServer, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: { host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

let world: World;
let device: Device;
let api: AppApi;
let media: MediaService;
let server: UiServer;

beforeAll(async () => {
  world = await startWorld();
  device = await world.device('designer');
  media = new MediaService({ dir: join(world.home, 'media'), logger: createLogger() });
  api = new AppApi({
    configFile: join(world.home, 'config.json'),
    config: Config.parse({}),
    secrets: { name: 'none', get: async () => undefined, set: async () => undefined, delete: async () => undefined },
    hooks: headlessHooks(),
    openSession: async () => {
      throw new Error('the test hands the session in');
    },
    session: { engine: device.engine, client: device.client, index: device.index, logger: createLogger(), close: () => undefined },
    media,
  });
  await device.converge();
  // The files the sync brought down were queued for pictures as they arrived.
  await media.idle();
  server = await startUiServer({ api, port: 0, staticDir: join(world.home, 'no-renderer') });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await api?.close();
  await world?.close();
});

const byName = async (name: string): Promise<{ assetId: string; path: string }> => {
  const file = [...device.index.base.load(world.workspaceId).files.values()].find((f) => f.path.endsWith(`/${name}`) || f.path === name);
  if (!file) throw new Error(`${name} is not synced`);
  return { assetId: file.assetId, path: file.path };
};

async function picture(url: string | null): Promise<{ width: number; height: number; format: string | undefined; reply: Reply }> {
  expect(url).toMatch(/^\/media\//);
  const reply = await get(server, url as string);
  expect(reply.status, reply.body.toString()).toBe(200);
  const meta = await sharp(reply.body).metadata();
  return { width: meta.width ?? 0, height: meta.height ?? 0, format: meta.format, reply };
}

describe('thumbnails of the demo workspace', () => {
  it('were drawn while syncing, for each file the sync brought down, before anyone asked', () => {
    const files = [...device.index.base.load(world.workspaceId).files.values()];
    const drawn = files.filter((f) => media.hasPicture(f.checksum)).map((f) => f.path.slice(f.path.lastIndexOf('.') + 1));
    expect(new Set(drawn)).toEqual(new Set(['png', 'jpg', 'webp', 'svg', 'pdf', 'ai', 'psd', 'heic', 'wav']));
  });

  it('gives every picturable demo asset a WebP of at most 256 px, made ahead of need while syncing', async () => {
    const files = [...device.index.base.load(world.workspaceId).files.values()];
    const refs = await api.handle('mediaThumbnails', { workspaceId: world.workspaceId, items: files.map((f) => ({ assetId: f.assetId })) });
    expect(refs).toHaveLength(files.length);
    const byExt = new Map<string, ThumbnailRef>();
    for (const [i, ref] of refs.entries()) byExt.set(files[i]!.path.slice(files[i]!.path.lastIndexOf('.') + 1), ref);
    for (const ext of ['png', 'jpg', 'webp', 'svg', 'pdf', 'ai', 'psd', 'heic', 'wav']) {
      const ref = byExt.get(ext) as ThumbnailRef;
      expect({ ext, show: ref.show, fromBytes: ref.type.fromBytes }).toEqual({ ext, show: 'image', fromBytes: true });
      const drawn = await picture(ref.url);
      expect(drawn.format).toBe('webp');
      expect(Math.max(drawn.width, drawn.height)).toBeLessThanOrEqual(256);
      expect(Math.max(drawn.width, drawn.height)).toBeGreaterThanOrEqual(128);
      expect(drawn.reply.headers['content-type']).toBe('image/webp');
      expect(drawn.reply.headers['x-content-type-options']).toBe('nosniff');
      expect(drawn.reply.headers['content-security-policy']).toContain('sandbox');
    }
    expect(byExt.get('webm')).toMatchObject({ show: 'video', type: { category: 'video', format: 'webm' } });
    for (const ext of ['indd', 'glb', 'md', 'docx']) expect(byExt.get(ext)?.show).toBe('icon');
  });

  it('keeps the aspect ratio of the original', async () => {
    const { assetId } = await byName('studio-001.jpg');
    const [ref] = await api.handle('mediaThumbnails', { workspaceId: world.workspaceId, items: [{ assetId }] });
    const drawn = await picture(ref!.url);
    expect({ width: drawn.width, height: drawn.height }).toEqual({ width: 256, height: 160 });
  });

  it('pictures an older version fetched from the service, not the synced one', async () => {
    const { assetId, path } = await byName('logo-mark.png');
    const versions = await world.user.versions(assetId);
    const first = versions.find((v) => v.version_number === 1)!;
    const [old, current] = await api.handle('mediaThumbnails', { workspaceId: world.workspaceId, items: [{ assetId, versionId: first.id }, { path }] });
    expect(old).toMatchObject({ versionId: first.id, show: 'image' });
    expect(current!.versionId).not.toBe(first.id);
    const [a, b] = await Promise.all([picture(old!.url), picture(current!.url)]);
    const original = join(world.home, 'logo-mark-v1.png');
    await downloadVersionTo(world.user.client, { workspaceId: world.workspaceId, assetId, versionId: first.id, checksum: first.checksum, size: first.size }, original);
    const expected = await sharp(original).resize(256, 256, { fit: 'inside' }).removeAlpha().raw().toBuffer();
    const got = await sharp(a.reply.body).removeAlpha().raw().toBuffer();
    expect(meanDifference(got, expected)).toBeLessThan(8);
    expect(meanDifference(got, await sharp(b.reply.body).removeAlpha().raw().toBuffer())).toBeGreaterThan(8);
  });

  it('shows a clear icon, never an error, for a file whose bytes are not what its name says', async () => {
    const synced = await byName('studio-002.jpg');
    // A broken save: the name says JPEG, the bytes are half a PNG.
    const png = await readFile(join(device.dir, (await byName('logo-mark.png')).path));
    await writeFile(join(device.dir, synced.path), png.subarray(0, 200));
    await device.converge();
    const [ref] = await api.handle('mediaThumbnails', { workspaceId: world.workspaceId, items: [{ path: synced.path }] });
    expect(ref!.type).toMatchObject({ category: 'image', format: 'png', fromBytes: true });
    if (ref!.show === 'image') expect((await get(server, ref!.url!)).status).toBe(404);
    const [again] = await api.handle('mediaThumbnails', { workspaceId: world.workspaceId, items: [{ path: synced.path }] });
    expect(again).toMatchObject({ show: 'icon', reason: 'unreadable', url: null });
  });
});

describe('previews', () => {
  it('turns the pages of a PDF', async () => {
    const { assetId } = await byName('brand-guidelines.pdf');
    const first: MediaPreview = await api.handle('mediaPreview', { workspaceId: world.workspaceId, item: { assetId } });
    expect(first).toMatchObject({ view: 'pdf', page: 1, width: 595, height: 842 });
    expect(first.pages).toBeGreaterThanOrEqual(3);
    const second = await api.handle('mediaPreview', { workspaceId: world.workspaceId, item: { assetId }, page: 2 });
    expect(second.page).toBe(2);
    const [p1, p2] = await Promise.all([picture(first.url), picture(second.url)]);
    expect(p1.height).toBe(2048);
    expect(meanDifference(await sharp(p1.reply.body).raw().toBuffer(), await sharp(p2.reply.body).raw().toBuffer())).toBeGreaterThan(1);
  });

  it('shows a PSD composite and a HEIC photo as pictures, and a PNG as itself', async () => {
    const psd = await api.handle('mediaPreview', { workspaceId: world.workspaceId, item: await byName('hero.psd') });
    expect(psd).toMatchObject({ view: 'image', width: 640, height: 400, type: { category: 'psd' } });
    expect(await picture(psd.url)).toMatchObject({ width: 640, height: 400, format: 'webp' });
    const heic = await api.handle('mediaPreview', { workspaceId: world.workspaceId, item: await byName('location-scout.heic') });
    expect(await picture(heic.url)).toMatchObject({ width: 640, format: 'webp' });
    const png = await api.handle('mediaPreview', { workspaceId: world.workspaceId, item: await byName('story-01.png') });
    const shown = await picture(png.url);
    expect({ format: shown.format, type: shown.reply.headers['content-type'] }).toEqual({ format: 'png', type: 'image/png' });
  });

  it('serves video and audio with byte ranges', async () => {
    const video = await api.handle('mediaPreview', { workspaceId: world.workspaceId, item: await byName('teaser.webm') });
    expect(video).toMatchObject({ view: 'video', type: { mime: 'video/webm' } });
    const whole = await get(server, video.url!);
    expect(whole.status).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const part = await get(server, video.url!, { range: 'bytes=10-99' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-99/${whole.body.length}`);
    expect(part.body.equals(whole.body.subarray(10, 100))).toBe(true);
    const beyond = await get(server, video.url!, { range: `bytes=${whole.body.length + 10}-` });
    expect(beyond.status).toBe(416);
    const audio = await api.handle('mediaPreview', { workspaceId: world.workspaceId, item: await byName('voiceover.wav') });
    expect(audio).toMatchObject({ view: 'audio', type: { category: 'audio' } });
    expect(audio.durationSeconds).toBeGreaterThan(1);
    expect((await picture(audio.thumbnailUrl)).width).toBe(256);
  });

  it('never serves an SVG as it is: its preview is a picture', async () => {
    const svg = await api.handle('mediaPreview', { workspaceId: world.workspaceId, item: await byName('logo-primary.svg') });
    expect(svg.view).toBe('image');
    const shown = await picture(svg.url);
    expect(shown.reply.headers['content-type']).toBe('image/webp');
  });
});

describe('media URLs', () => {
  it('refuse a tampered, a forged or an unknown capability, and requests from other sites', async () => {
    const [ref] = await api.handle('mediaThumbnails', { workspaceId: world.workspaceId, items: [await byName('logo-mark.png')] });
    const url = ref!.url!;
    const [payload, signature] = url.slice('/media/'.length).split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const other = Buffer.from(JSON.stringify({ ...claims, t: { ...claims.t, size: 'preview' } })).toString('base64url');
    for (const path of [`/media/${other}.${signature}`, `/media/${payload}.${signature.slice(1)}A`, `/media/${payload}`, '/media/', `/media/${payload}.${signature}/x`]) {
      const reply = await get(server, path);
      expect({ path, status: reply.status }).toEqual({ path, status: expect.toSatisfy((s: number) => s === 403 || s === 404) });
      expect(reply.headers['content-type']).toMatch(/^text\/plain/);
    }
    // Not a media URL once the path is resolved: the static files answer, and hold no such page.
    expect((await get(server, '/media/../config.json')).status).toSatisfy((s: number) => s === 404 || s === 503);
    // A path reaches a file only through the index: one that is not synced gets no address at all.
    const outside = await api.handle('mediaThumbnails', { workspaceId: world.workspaceId, items: [{ path: '../../../../etc/passwd' }, { path: 'Brand/../../config.json' }] });
    expect(outside.map((r) => [r.show, r.url])).toEqual([['icon', null], ['icon', null]]);
    expect((await get(server, url, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await get(server, url, { 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });

  it('serve the version they name, not the synced file once it changed (the address pins a checksum)', async () => {
    const video = await api.handle('mediaPreview', { workspaceId: world.workspaceId, item: await byName('teaser.webm') });
    const file = join(device.dir, (await byName('teaser.webm')).path);
    const bytes = await readFile(file);
    await writeFile(file, Buffer.concat([bytes, Buffer.from('edited here')]));
    const reply = await get(server, video.url!);
    expect(reply.status).toBe(200);
    expect(reply.body.equals(bytes)).toBe(true);
  });
});

function meanDifference(a: Buffer, b: Buffer): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

describe('the desktop app’s protocol', () => {
  it('serves the same capabilities on app://asset-sync/media/, with ranges, and nothing else there', async () => {
    registerAppScheme();
    expect(protocol.schemes).toContainEqual({ scheme: 'app', privileges: expect.objectContaining({ stream: true, secure: true }) });
    serveRenderer(join(world.home, 'no-renderer'), () => api.media);
    const handler = protocol.handlers.get('app') as (request: Request) => Promise<Response>;
    const video = await api.handle('mediaPreview', { workspaceId: world.workspaceId, item: await byName('voiceover.wav') });
    const whole = await handler(new Request(`app://asset-sync${video.url}`));
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/wav');
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await whole.arrayBuffer());
    const part = await handler(new Request(`app://asset-sync${video.url}`, { headers: { range: 'bytes=-100' } }));
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(bytes.length - 100))).toBe(true);
    const [ref] = await api.handle('mediaThumbnails', { workspaceId: world.workspaceId, items: [await byName('hero.psd')] });
    const picture = await handler(new Request(`app://asset-sync${ref!.url}`));
    expect((await sharp(Buffer.from(await picture.arrayBuffer())).metadata()).format).toBe('webp');
    const tampered = await handler(new Request(`app://asset-sync${ref!.url!.slice(0, -2)}xx`));
    expect(tampered.status).toBe(403);
    // Another host of the scheme is not ours: nothing is served there.
    expect((await handler(new Request(`app://elsewhere${ref!.url}`))).status).toBe(404);
  });
});
