/**
 * PDF pages (and Illustrator files, which carry a PDF) drawn by pdf.js on @napi-rs/canvas, the
 * canvas pdf.js itself uses in Node. No script runs (isEvalSupported off, no XFA), fonts come
 * from pdf.js's own standard fonts folder, and nothing is fetched.
 */
import { stat } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pictureOfPixels } from './picture.js';
import { MAX_PIXELS, NoPicture, type RenderJob, type RenderOutcome } from './types.js';

const MAX_PDF_BYTES = 256 * 1024 * 1024;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type Canvas = typeof import('@napi-rs/canvas');

let modules: Promise<{ pdfjs: PdfJs; canvas: Canvas; fonts: string; cmaps: string }> | undefined;
/** Loaded on first use: pdf.js is a few megabytes of script. */
function load(): Promise<{ pdfjs: PdfJs; canvas: Canvas; fonts: string; cmaps: string }> {
  modules ??= (async () => {
    const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    const folder = (name: string) => `${pathToFileURL(join(root, name)).href}/`;
    const [pdfjs, canvas] = await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('@napi-rs/canvas')]);
    return { pdfjs, canvas, fonts: folder('standard_fonts'), cmaps: folder('cmaps') };
  })();
  return modules;
}

export async function renderPdf(job: RenderJob): Promise<RenderOutcome> {
  if ((await stat(job.file)).size > MAX_PDF_BYTES) throw new NoPicture('too_large', 'The PDF is too large to draw here.');
  const { pdfjs, canvas, fonts, cmaps } = await load();
  const task = pdfjs.getDocument({
    data: new Uint8Array(await readFile(job.file)),
    isEvalSupported: false,
    enableXfa: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: fonts,
    cMapUrl: cmaps,
    cMapPacked: true,
    verbosity: 0,
  });
  try {
    let document: Awaited<typeof task.promise>;
    try {
      document = await task.promise;
    } catch (error) {
      throw new NoPicture('unreadable', (error as Error).message);
    }
    const pages = document.numPages;
    const number = Math.min(Math.max(1, job.page), pages);
    const page = await document.getPage(number);
    const natural = page.getViewport({ scale: 1 });
    const meta = { width: Math.round(natural.width), height: Math.round(natural.height), pages, durationSeconds: null };
    if (job.op === 'probe') return { ok: true, picture: null, width: meta.width, height: meta.height, meta };
    const scale = Math.min(job.edge / Math.max(natural.width, natural.height), Math.sqrt(MAX_PIXELS / (natural.width * natural.height)));
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.ceil(viewport.width));
    const height = Math.max(1, Math.ceil(viewport.height));
    const surface = canvas.createCanvas(width, height);
    const context = surface.getContext('2d');
    // A page is paper: transparent areas print white.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    try {
      await page.render({ canvas: surface as never, canvasContext: context as never, viewport }).promise;
    } catch (error) {
      throw new NoPicture('unreadable', (error as Error).message);
    }
    const pixels = context.getImageData(0, 0, width, height).data;
    return { ok: true, ...(await pictureOfPixels(pixels, width, height, job.edge)), meta };
  } finally {
    await task.destroy();
  }
}
