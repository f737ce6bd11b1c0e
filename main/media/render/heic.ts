/**
 * HEIC (HEVC in HEIF): sharp's prebuilt libvips reads the container but has no HEVC decoder
 * (a patent-encumbered codec it does not ship), so libheif's WebAssembly build decodes the
 * primary image. AVIF and other HEIF files sharp can decode go there first.
 */
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pictureOfPixels } from './picture.js';
import { renderRaster } from './raster.js';
import { MAX_PIXELS, NoPicture, type RenderJob, type RenderOutcome } from './types.js';

const MAX_HEIC_BYTES = 64 * 1024 * 1024;

interface HeifImage {
  get_width(): number;
  get_height(): number;
  display(target: { data: Uint8ClampedArray; width: number; height: number }, done: (result: unknown) => void): void;
  free?(): void;
}
interface LibHeif {
  HeifDecoder: new () => { decode(bytes: Uint8Array): HeifImage[] };
}

let libheif: LibHeif | undefined;
/** Loaded on first use: the WebAssembly module takes a third of a second to compile. */
function decoder(): LibHeif {
  libheif ??= createRequire(import.meta.url)('libheif-js/wasm-bundle') as LibHeif;
  return libheif;
}

export async function renderHeic(job: RenderJob): Promise<RenderOutcome> {
  try {
    return await renderRaster({ ...job, format: 'heic' });
  } catch (error) {
    if (!(error instanceof NoPicture) || error.reason !== 'unreadable') throw error;
  }
  if ((await stat(job.file)).size > MAX_HEIC_BYTES) throw new NoPicture('too_large', 'The HEIC file is too large to decode here.');
  let images: HeifImage[];
  try {
    images = new (decoder().HeifDecoder)().decode(await readFile(job.file));
  } catch (error) {
    throw new NoPicture('unreadable', (error as Error).message);
  }
  const image = images[0];
  if (!image) throw new NoPicture('unreadable', 'The HEIC file holds no image libheif can read.');
  try {
    const width = image.get_width();
    const height = image.get_height();
    if (width * height > MAX_PIXELS) throw new NoPicture('too_large', 'The HEIC image has too many pixels to decode here.');
    const meta = { width, height, pages: images.length, durationSeconds: null };
    if (job.op === 'probe') return { ok: true, picture: null, width, height, meta };
    const pixels = new Uint8ClampedArray(width * height * 4);
    const shown = await new Promise<boolean>((resolve) => image.display({ data: pixels, width, height }, (result) => resolve(Boolean(result))));
    if (!shown) throw new NoPicture('unreadable', 'libheif could not decode the HEIC image.');
    return { ok: true, ...(await pictureOfPixels(pixels, width, height, job.edge)), meta };
  } finally {
    for (const each of images) each.free?.();
  }
}
