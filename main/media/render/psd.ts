/**
 * PSD and PSB: the composite image Photoshop saves beside the layers ("Maximize compatibility"),
 * read by ag-psd as raw RGBA without a canvas. Layers are skipped: the composite is what
 * Photoshop, Bridge and Finder show. A file saved without a composite gets no picture.
 */
import { open, readFile, stat } from 'node:fs/promises';
import { initializeCanvas, readPsd, type PixelArray, type PixelData } from 'ag-psd';
import { pictureOfPixels } from './picture.js';
import { MAX_PIXELS, NoPicture, type RenderJob, type RenderOutcome } from './types.js';

/** ag-psd reads the whole file into memory; past this a PSD gets no picture here. */
const MAX_PSD_BYTES = 1024 * 1024 * 1024;

type CanvasMaker = Parameters<typeof initializeCanvas>[0];
type PixelsMaker = NonNullable<Parameters<typeof initializeCanvas>[1]>;

// With useImageData, ag-psd needs no canvas: only a way to allocate pixel arrays.
initializeCanvas(
  (() => {
    throw new Error('no canvas in the picture worker');
  }) as CanvasMaker,
  ((width: number, height: number) => ({ width, height, data: new Uint8ClampedArray(width * height * 4) })) as unknown as PixelsMaker,
);

/** Width and height from the 26-byte header, to refuse a huge document before reading it. */
async function header(file: string): Promise<{ width: number; height: number }> {
  const handle = await open(file, 'r');
  try {
    const bytes = Buffer.alloc(26);
    const { bytesRead } = await handle.read(bytes, 0, 26, 0);
    if (bytesRead < 26 || bytes.toString('latin1', 0, 4) !== '8BPS') throw new NoPicture('unreadable', 'The file has no PSD header.');
    return { height: bytes.readUInt32BE(14), width: bytes.readUInt32BE(18) };
  } finally {
    await handle.close();
  }
}

export async function renderPsd(job: RenderJob): Promise<RenderOutcome> {
  const { width, height } = await header(job.file);
  const meta = { width, height, pages: null, durationSeconds: null };
  if (job.op === 'probe') return { ok: true, picture: null, width, height, meta };
  if (width * height > MAX_PIXELS || (await stat(job.file)).size > MAX_PSD_BYTES) {
    throw new NoPicture('too_large', 'The PSD is too large to draw here.');
  }
  let composite: PixelData | undefined;
  try {
    const psd = readPsd(await readFile(job.file), { useImageData: true, skipLayerImageData: true, skipThumbnail: true, skipLinkedFilesData: true });
    composite = psd.imageData;
  } catch (error) {
    throw new NoPicture('unreadable', (error as Error).message);
  }
  if (!composite || composite.width * composite.height === 0) throw new NoPicture('unreadable', 'The PSD was saved without a composite image.');
  return { ok: true, ...(await pictureOfPixels(eightBit(composite.data), composite.width, composite.height, job.edge)), meta };
}

/** 16- and 32-bit documents come as wider samples: scaled to the 8 bits a thumbnail has. */
function eightBit(data: PixelArray): Uint8Array | Uint8ClampedArray {
  if (data instanceof Uint8Array || data instanceof Uint8ClampedArray) return data;
  const out = new Uint8ClampedArray(data.length);
  const scale = data instanceof Uint16Array ? 1 / 257 : 255;
  for (let i = 0; i < data.length; i += 1) out[i] = (data[i] as number) * scale;
  return out;
}
