/**
 * The one way a picture leaves the worker: WebP from any decoded source, fit inside the edge
 * asked for, never enlarged. One libvips thread per image: the worker must never take the
 * cores the sync is using.
 */
import sharp, { type Sharp } from 'sharp';

sharp.concurrency(1);
sharp.cache(false);

export interface Picture {
  picture: Uint8Array;
  width: number;
  height: number;
}

const WEBP = { quality: 80, effort: 2 } as const;

export async function pictureOf(image: Sharp, edge: number): Promise<Picture> {
  const { data, info } = await image
    .resize(edge, edge, { fit: 'inside', withoutEnlargement: true })
    .webp(WEBP)
    .toBuffer({ resolveWithObject: true });
  return { picture: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/** RGBA pixels (a PSD composite, a decoded HEIC, a rendered PDF page) as a picture. */
export function pictureOfPixels(pixels: Uint8Array | Uint8ClampedArray, width: number, height: number, edge: number): Promise<Picture> {
  const buffer = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  return pictureOf(sharp(buffer, { raw: { width, height, channels: 4 } }), edge);
}
