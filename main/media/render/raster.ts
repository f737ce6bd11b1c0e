/**
 * PNG, JPEG, GIF, WebP, AVIF, TIFF and SVG through sharp (libvips). The first frame or page;
 * EXIF orientation applied. SVG is read from a buffer, so librsvg has no base to load any file
 * it names; it is rasterised at a density that gives the edge asked for.
 */
import { readFile, stat } from 'node:fs/promises';
import sharp, { type Metadata, type SharpOptions } from 'sharp';
import { pictureOf } from './picture.js';
import { MAX_PIXELS, NoPicture, type RenderJob, type RenderOutcome, type SourceMeta } from './types.js';

export const RASTER_FORMATS = new Set(['png', 'jpg', 'gif', 'webp', 'avif', 'tif', 'svg']);

const MAX_SVG_BYTES = 16 * 1024 * 1024;

async function input(job: RenderJob): Promise<string | Buffer> {
  if (job.format !== 'svg') return job.file;
  if ((await stat(job.file)).size > MAX_SVG_BYTES) throw new NoPicture('too_large', 'The SVG is too large to draw.');
  return readFile(job.file);
}

export async function renderRaster(job: RenderJob): Promise<RenderOutcome> {
  const source = await input(job);
  const options: SharpOptions = { limitInputPixels: MAX_PIXELS, animated: false, sequentialRead: true };
  let metadata: Metadata;
  try {
    metadata = await sharp(source, options).metadata();
  } catch (error) {
    throw new NoPicture('unreadable', (error as Error).message);
  }
  const width = metadata.autoOrient?.width ?? metadata.width ?? null;
  const height = metadata.autoOrient?.height ?? metadata.height ?? null;
  const meta: SourceMeta = { width, height, pages: metadata.pages ?? null, durationSeconds: null };
  if (job.op === 'probe') return { ok: true, picture: null, width: width ?? 0, height: height ?? 0, meta };
  let image = sharp(source, options);
  if (job.format === 'svg' && width && height) {
    // Drawn at the size it is shown at: an icon of 24 px made sharp at 256 px, a poster not drawn at 10x.
    const density = Math.min(72 * 8, Math.max(1, (72 * job.edge) / Math.max(width, height)));
    image = sharp(source, { ...options, density });
  }
  try {
    return { ok: true, ...(await pictureOf(image.rotate(), job.edge)), meta };
  } catch (error) {
    throw new NoPicture('unreadable', (error as Error).message);
  }
}
