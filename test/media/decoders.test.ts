/**
 * Each decoder draws a real file of its format (made by the demo's generators) as a WebP that
 * fits the edge asked for; a truncated or corrupted file gets a reason (a type icon in the UI)
 * and never an exception. Cuts and corruptions are drawn from a printed seed; replay one with
 * MEDIA_SEED=<seed>.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { PicturePool } from '../../main/media/picture-pool.js';
import { render } from '../../main/media/render/index.js';
import type { RenderJob } from '../../main/media/render/types.js';
import { demoMedia } from '../../service/demo/media.js';
import { Rng } from '../helpers/rng.js';

const SEED = Number(process.env.MEDIA_SEED ?? Date.now() % 100_000);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-decoders-'));
  console.log(`decoders: MEDIA_SEED=${SEED}`);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fileOf(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

const job = (file: string, format: string, edge = 256, page = 1): RenderJob => ({ op: 'render', file, format, edge, page });

const CASES: Array<{ name: string; format: string; width: number; height: number }> = [
  { name: 'poster.png', format: 'png', width: 256, height: 160 },
  { name: 'photo.jpg', format: 'jpg', width: 256, height: 160 },
  { name: 'banner.webp', format: 'webp', width: 256, height: 160 },
  { name: 'logo.svg', format: 'svg', width: 256, height: 85 },
  { name: 'hero.psd', format: 'psd', width: 256, height: 160 },
  { name: 'guide.pdf', format: 'pdf', width: 181, height: 256 },
  { name: 'scout.heic', format: 'heic', width: 256, height: 171 },
  { name: 'voice.wav', format: 'wav', width: 256, height: 128 },
];

describe('decoders', () => {
  it.each(CASES)('draw $name as a WebP fitting 256 px', async ({ name, format, width, height }) => {
    const file = await fileOf(name, (await demoMedia(name, 2)) as Buffer);
    const outcome = await render(job(file, format));
    if (!outcome.ok) throw new Error(`${name}: ${outcome.reason} ${outcome.message}`);
    expect({ width: outcome.width, height: outcome.height }).toEqual({ width, height });
    const meta = await sharp(outcome.picture as Uint8Array).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'webp', width, height });
  });

  it('draws a TIFF and a GIF, never enlarged past the original', async () => {
    const png = (await demoMedia('poster.png', 1)) as Buffer;
    const tif = await fileOf('scan.tif', await sharp(png).resize(100).tiff().toBuffer());
    const gif = await fileOf('anim.gif', await sharp(png).resize(120).gif().toBuffer());
    expect(await render(job(tif, 'tif'))).toMatchObject({ ok: true, width: 100, height: 63 });
    expect(await render(job(gif, 'gif'))).toMatchObject({ ok: true, width: 120, height: 75 });
  });

  it('reads the metadata without drawing (probe)', async () => {
    const pdf = await fileOf('probe.pdf', (await demoMedia('probe.pdf', 3)) as Buffer);
    expect(await render({ ...job(pdf, 'pdf'), op: 'probe' })).toMatchObject({ ok: true, picture: null, meta: { pages: 5, width: 595, height: 842 } });
    const wav = await fileOf('probe.wav', (await demoMedia('probe.wav', 1)) as Buffer);
    expect(await render({ ...job(wav, 'wav'), op: 'probe' })).toMatchObject({ ok: true, meta: { durationSeconds: 2 } });
  });

  it('draws the page asked for, and the last one when asked past the end', async () => {
    const pdf = await fileOf('pages.pdf', (await demoMedia('pages.pdf', 1)) as Buffer);
    const [one, three, past] = await Promise.all([1, 3, 9].map((page) => render(job(pdf, 'pdf', 128, page))));
    expect(one).toMatchObject({ ok: true });
    expect(Buffer.from((three as { picture: Uint8Array }).picture).equals(Buffer.from((one as { picture: Uint8Array }).picture))).toBe(false);
    expect(Buffer.from((past as { picture: Uint8Array }).picture).equals(Buffer.from((three as { picture: Uint8Array }).picture))).toBe(true);
  });

  // Drawn by the picture worker, as the app draws them: pdf.js leaves rejections of its own
  // behind some damaged PDFs, which the worker's thread absorbs.
  it.each(CASES)('give a reason, never an exception, for a truncated or corrupted $name', async ({ name, format }) => {
    const pool = new PicturePool({ workers: 1 });
    const render = (drawn: RenderJob) => pool.submit(drawn, 'visible').result;
    onTestFinished(() => pool.close());
    const rng = new Rng(SEED, name);
    const whole = (await demoMedia(name, 1)) as Buffer;
    const cuts = [0, 1, 8, 30, ...Array.from({ length: 3 }, () => rng.int(31, Math.max(32, Math.floor(whole.length * 0.6))))];
    for (const cut of cuts) {
      const file = await fileOf(`cut-${cut}-${name}`, whole.subarray(0, cut));
      const outcome = await render(job(file, format));
      // A cut that leaves a drawable image (a PNG cut in its last chunk) may still be drawn; it must not throw.
      if (!outcome.ok) expect(['unreadable', 'unsupported', 'too_large']).toContain(outcome.reason);
    }
    const garbled = Buffer.from(whole);
    for (let i = 0; i < 64; i += 1) garbled[rng.int(16, garbled.length - 1)] = rng.int(0, 255);
    const outcome = await render(job(await fileOf(`garbled-${name}`, garbled), format));
    expect(typeof outcome.ok).toBe('boolean');
  });

  it('refuses a PSD that claims more pixels than it may draw, before reading it', async () => {
    const psd = Buffer.from((await demoMedia('hero.psd', 1)) as Buffer);
    psd.writeUInt32BE(30_000, 14);
    psd.writeUInt32BE(30_000, 18);
    expect(await render(job(await fileOf('huge.psd', psd), 'psd'))).toMatchObject({ ok: false, reason: 'too_large' });
  });

  it('says a format it does not draw is unsupported', async () => {
    expect(await render(job(await fileOf('clip.mp4', Buffer.alloc(10)), 'mp4'))).toMatchObject({ ok: false, reason: 'unsupported' });
  });
});

describe('the picture worker', () => {
  it('draws off the main thread, and a job past its time ends the worker, which comes back for the next', async () => {
    const pdf = await fileOf('slow.pdf', (await demoMedia('slow.pdf', 2)) as Buffer);
    const png = await fileOf('quick.png', (await demoMedia('quick.png', 1)) as Buffer);
    const pool = new PicturePool({ workers: 1, timeoutMs: 1 });
    try {
      expect(await pool.submit(job(pdf, 'pdf', 2048), 'visible').result).toMatchObject({ ok: false, reason: 'unreadable', message: expect.stringMatching(/too long/) });
    } finally {
      await pool.close();
    }
    const patient = new PicturePool({ workers: 1 });
    try {
      const [slow, quick] = [patient.submit(job(pdf, 'pdf'), 'background'), patient.submit(job(png, 'png'), 'background')];
      expect(await slow.result).toMatchObject({ ok: true });
      expect(await quick.result).toMatchObject({ ok: true, width: 256 });
    } finally {
      await patient.close();
    }
  });

  it('drops a queued job nobody wants any more, and serves visible jobs before background ones', async () => {
    const png = await fileOf('queued.png', (await demoMedia('queued.png', 1)) as Buffer);
    const pool = new PicturePool({ workers: 1 });
    try {
      const order: string[] = [];
      const first = pool.submit(job(png, 'png', 64), 'background');
      const background = pool.submit(job(png, 'png', 96), 'background');
      const dropped = pool.submit(job(png, 'png', 80), 'background');
      const visible = pool.submit(job(png, 'png', 128), 'visible');
      dropped.cancel();
      await Promise.all([
        first.result.then(() => order.push('first')),
        background.result.then(() => order.push('background')),
        visible.result.then(() => order.push('visible')),
        expect(dropped.result).rejects.toThrow(/nobody wants/),
      ]);
      expect(order).toEqual(['first', 'visible', 'background']);
      await pool.idle();
      expect(pool.queued).toBe(0);
    } finally {
      await pool.close();
    }
  });
});
