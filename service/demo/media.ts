/**
 * Real files for the demo workspace, made in JavaScript from a file's name and version number:
 * pictures drawn as SVG and encoded by sharp (PNG, JPEG, WebP), SVG logos, multi-page PDFs
 * (pdf-lib), layered PSDs (ag-psd), WAV tones, and a short WebM video whose frames are VP8 key
 * frames taken from lossy WebP pictures and muxed by webm-muxer (no video encoder binary).
 * HEIC needs an HEVC encoder, which npm does not offer: two small HEIC files made once with
 * libheif's heif-enc are kept in `fixtures/`.
 *
 * Each version looks different (colours, shapes and a "v3" label), and each name draws its own
 * picture, so no two demo files share a checksum. Files are made once per process and kept:
 * many tests seed the demo.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initializeCanvas, writePsdBuffer } from 'ag-psd';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import sharp, { type Sharp } from 'sharp';
import { ArrayBufferTarget, Muxer } from 'webm-muxer';

export interface DrawSize {
  width: number;
  height: number;
  /**
   * Film grain over raster pictures (0: none, up to about 40): flat drawings compress to almost
   * nothing, grain gives files the sizes of real photos and scans (the bench's media tree).
   */
  grain?: number;
}

/** Small enough to seed quickly, large enough to look like something. */
export const DEMO_SIZE: DrawSize = { width: 640, height: 400 };

type Maker = (name: string, version: number, size: DrawSize) => Promise<Buffer>;

const seedOf = (name: string): number => createHash('sha256').update(name).digest().readUInt32BE(0);

const escapeXml = (text: string): string => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

const FONT = "font-family=\"DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif\"";

/** The layers of a demo picture, as SVG: a background, the artwork over a transparent ground, both. */
function poster(name: string, version: number, size: DrawSize, part: 'all' | 'background' | 'artwork' = 'all'): string {
  const seed = seedOf(name);
  const hue = (seed % 360 + version * 47) % 360;
  const { width: w, height: h } = size;
  const cx = ((seed >> 9) % 60 + 20 + version * 13) % 80;
  const angle = ((seed >> 3) % 40) - 20 + version * 9;
  const background = `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,58%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},65%,32%)"/></linearGradient></defs><rect width="${w}" height="${h}" fill="url(#g)"/>`;
  const artwork = [
    `<circle cx="${(cx * w) / 100}" cy="${h * 0.42}" r="${h * (0.18 + version * 0.04)}" fill="#ffffff" fill-opacity="0.35"/>`,
    `<rect x="${w * 0.55}" y="${h * 0.2}" width="${w * 0.3}" height="${h * 0.4}" rx="${h * 0.04}" fill="hsl(${(hue + 180) % 360},80%,62%)" fill-opacity="0.85" transform="rotate(${angle} ${w * 0.7} ${h * 0.4})"/>`,
    `<text x="${w * 0.05}" y="${h * 0.9}" ${FONT} font-size="${Math.round(h * 0.075)}" font-weight="700" fill="#ffffff">${escapeXml(name)}</text>`,
    `<text x="${w * 0.95}" y="${h * 0.2}" text-anchor="end" ${FONT} font-size="${Math.round(h * 0.16)}" font-weight="700" fill="#ffffff">v${version}</text>`,
  ].join('');
  const body = part === 'background' ? background : part === 'artwork' ? artwork : background + artwork;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>`;
}

const render = (svg: string) => sharp(Buffer.from(svg));

const GRAIN_TILE = 256;
/** Mid-grey noise of the given strength, the same every time (an overlay over the picture). */
function grainTile(strength: number): Buffer {
  const tile = Buffer.alloc(GRAIN_TILE * GRAIN_TILE * 3);
  let state = 0x2545f491;
  for (let i = 0; i < tile.length; i += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    tile[i] = 128 + (((state >>> 0) % (2 * strength + 1)) - strength);
  }
  return tile;
}

/** The demo picture, with grain when the size asks for it. */
async function raster(name: string, version: number, size: DrawSize) {
  const image = render(poster(name, version, size));
  if (!size.grain) return image;
  const drawn = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return sharp(drawn.data, { raw: drawn.info }).composite([
    { input: grainTile(size.grain), raw: { width: GRAIN_TILE, height: GRAIN_TILE, channels: 3 }, tile: true, blend: 'overlay' },
  ]);
}

const png: Maker = async (name, version, size) => (await raster(name, version, size)).png({ compressionLevel: 6 }).toBuffer();
const jpeg: Maker = async (name, version, size) => (await raster(name, version, size)).jpeg({ quality: 85 }).toBuffer();
const webp: Maker = async (name, version, size) => (await raster(name, version, size)).webp({ quality: 80 }).toBuffer();

/** A logo: a mark and a word, in this version's colour. */
const svg: Maker = async (name, version) => {
  const hue = (seedOf(name) % 360 + version * 70) % 360;
  const word = escapeXml(name.replace(/\.[^.]+$/, ''));
  const text =
    `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="480" height="160" viewBox="0 0 480 160">` +
    `<rect x="16" y="16" width="128" height="128" rx="${8 + version * 10}" fill="hsl(${hue},75%,50%)"/>` +
    `<circle cx="80" cy="80" r="${20 + version * 8}" fill="#ffffff"/>` +
    `<text x="168" y="96" ${FONT} font-size="40" font-weight="700" fill="hsl(${hue},60%,25%)">${word}</text>` +
    `<text x="168" y="130" ${FONT} font-size="20" fill="#555">version ${version}</text></svg>\n`;
  return Buffer.from(text);
};

/** A document of a few pages (one more each version), the first with the demo picture on it. */
const pdf: Maker = async (name, version, size) => {
  const document = await PDFDocument.create();
  document.setTitle(`${name}, version ${version}`);
  document.setCreationDate(new Date(Date.UTC(2025, 2, version)));
  document.setModificationDate(new Date(Date.UTC(2025, 2, version)));
  const font = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const picture = await document.embedJpg(await jpeg(name, version, size));
  const hue = ((seedOf(name) % 360) + version * 47) % 360;
  const accent = hsl(hue, 0.65, 0.45);
  const pages = 2 + version;
  for (let number = 1; number <= pages; number += 1) {
    const page = document.addPage([595, 842]);
    page.drawRectangle({ x: 0, y: 792, width: 595, height: 50, color: accent });
    page.drawText(`${name}  ·  v${version}`, { x: 40, y: 810, size: 16, font: bold, color: rgb(1, 1, 1) });
    page.drawText(`Page ${number} of ${pages}`, { x: 40, y: 40, size: 10, font, color: rgb(0.4, 0.4, 0.4) });
    if (number === 1) {
      page.drawImage(picture, { x: 40, y: 420, width: 515, height: (515 * size.height) / size.width });
      page.drawText('Spring Campaign', { x: 40, y: 360, size: 36, font: bold, color: rgb(0.1, 0.1, 0.1) });
    } else {
      for (let line = 0; line < 18; line += 1) {
        page.drawRectangle({ x: 40, y: 740 - line * 34, width: 180 + ((line * 53 + number * 31 + version * 17) % 320), height: 12, color: rgb(0.82, 0.84, 0.88) });
      }
      page.drawRectangle({ x: 400, y: 120, width: 150, height: 150, color: hsl((hue + number * 40) % 360, 0.6, 0.55) });
    }
  }
  // No object streams: older readers open it too.
  return Buffer.from(await document.save({ useObjectStreams: false }));
};

function hsl(hue: number, saturation: number, lightness: number) {
  const k = (n: number) => (n + hue / 30) % 12;
  const a = saturation * Math.min(lightness, 1 - lightness);
  const f = (n: number) => lightness - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return rgb(f(0), f(8), f(4));
}

// ag-psd writes from raw pixels here: it never needs a canvas.
initializeCanvas(
  (() => {
    throw new Error('no canvas needed to write a PSD from pixels');
  }) as Parameters<typeof initializeCanvas>[0],
);

async function pixels(image: Sharp): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength) };
}

/** Two layers (the background and the artwork over it) and the composite Photoshop would save. */
const psd: Maker = async (name, version, size) => {
  const [composite, background, artwork] = await Promise.all([
    raster(name, version, size).then(pixels),
    pixels(render(poster(name, version, size, 'background'))),
    pixels(render(poster(name, version, size, 'artwork'))),
  ]);
  const bytes = writePsdBuffer({
    width: size.width,
    height: size.height,
    imageData: composite,
    children: [
      { name: 'Background', imageData: background },
      { name: `Artwork v${version}`, imageData: artwork },
    ],
  });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
};

/** A short tone, 16-bit mono PCM: its pitch and its beat change with the version. */
const wav: Maker = async (name, version) => {
  const rate = 22_050;
  const seconds = 1.5 + version * 0.5;
  const frames = Math.round(rate * seconds);
  const pitch = 220 + (seedOf(name) % 220) + version * 55;
  const beat = 1 + version;
  const out = Buffer.alloc(44 + frames * 2);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(36 + frames * 2, 4);
  out.write('WAVEfmt ', 8, 'latin1');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'latin1');
  out.writeUInt32LE(frames * 2, 40);
  for (let i = 0; i < frames; i += 1) {
    const t = i / rate;
    const envelope = Math.min(1, t * 20, (seconds - t) * 20) * (0.55 + 0.45 * Math.sin(2 * Math.PI * beat * t));
    out.writeInt16LE(Math.round(Math.sin(2 * Math.PI * pitch * t) * envelope * 0.8 * 32767), 44 + i * 2);
  }
  return out;
};

/** The VP8 key frame inside a simple lossy WebP (RIFF, 'WEBP', one 'VP8 ' chunk). */
function vp8Frame(webpBytes: Buffer): Uint8Array {
  if (webpBytes.toString('latin1', 12, 16) !== 'VP8 ') throw new Error('expected a simple lossy WebP');
  const length = webpBytes.readUInt32LE(16);
  return new Uint8Array(webpBytes.buffer, webpBytes.byteOffset + 20, length);
}

/** Two seconds at 6 frames a second of the demo picture with a circle crossing it. */
const webm: Maker = async (name, version) => {
  const size = { width: 320, height: 180 };
  const fps = 6;
  const frames = 12;
  const target = new ArrayBufferTarget();
  const muxer = new Muxer({ target, video: { codec: 'V_VP8', width: size.width, height: size.height, frameRate: fps }, firstTimestampBehavior: 'offset' });
  const still = poster(name, version, size);
  for (let frame = 0; frame < frames; frame += 1) {
    const x = 20 + (frame * (size.width - 40)) / (frames - 1);
    const moving = still.replace('</svg>', `<circle cx="${x}" cy="${size.height / 2}" r="18" fill="#ffd23f"/></svg>`);
    const bytes = await render(moving).removeAlpha().webp({ quality: 70, alphaQuality: 100, lossless: false }).toBuffer();
    muxer.addVideoChunkRaw(vp8Frame(bytes), 'key', Math.round((frame * 1_000_000) / fps));
  }
  muxer.finalize();
  return Buffer.from(target.buffer);
};

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const heic: Maker = async (_name, version) => readFileSync(`${FIXTURES}location-scout-v${version % 2 === 1 ? 1 : 2}.heic`);

/** Which maker draws which extension; other extensions get no real file. */
const MAKERS: Readonly<Record<string, Maker>> = {
  png, jpg: jpeg, jpeg, webp, svg, pdf, ai: pdf, psd, wav, webm, heic,
};

export const MEDIA_EXTENSIONS: ReadonlySet<string> = new Set(Object.keys(MAKERS));

const made = new Map<string, Promise<Buffer>>();

/**
 * Made files are also kept in `node_modules/.cache/asset-sync-demo`, under a hash of this
 * module's source and the encoders' versions: each test process seeds the demo, and drawing
 * them all costs about a second of CPU, which a hundred test files would pay again and again.
 */
const DISK_CACHE = (() => {
  const sharpEntry = createRequire(import.meta.url).resolve('sharp');
  const modules = sharpEntry.slice(0, sharpEntry.lastIndexOf(`${sep}node_modules${sep}`) + `${sep}node_modules`.length);
  const generation = createHash('sha256')
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(JSON.stringify(sharp.versions))
    .digest('hex')
    .slice(0, 16);
  return join(modules, '.cache', 'asset-sync-demo', generation);
})();

async function throughDisk(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
  const file = join(DISK_CACHE, createHash('sha256').update(key).digest('hex'));
  const kept = await readFile(file).catch(() => null);
  if (kept) return kept;
  const bytes = await make();
  try {
    await mkdir(DISK_CACHE, { recursive: true });
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temp, bytes);
    // Renamed into place whole: another process reads the old state or this one, never half.
    await rename(temp, file);
  } catch {
    // A read-only checkout: the files are made again next time.
  }
  return bytes;
}

/** The bytes of a demo file as `demoMedia` makes them, made anew and kept nowhere (the bench's large sets). */
export function makeDemoFile(name: string, version: number, size: DrawSize = DEMO_SIZE): Promise<Buffer> | null {
  const maker = MAKERS[name.slice(name.lastIndexOf('.') + 1).toLowerCase()];
  return maker ? maker(name, version, size) : null;
}

/**
 * The bytes of version `version` of a demo file named `name`, or null when its extension has no
 * maker (the caller makes them up). Made once per process (and kept on disk for the next).
 */
export function demoMedia(name: string, version: number, size: DrawSize = DEMO_SIZE): Promise<Buffer> | null {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  const maker = MAKERS[ext];
  if (!maker) return null;
  const key = `${name}\n${version}\n${size.width}x${size.height}x${size.grain ?? 0}`;
  let bytes = made.get(key);
  if (!bytes) {
    bytes = throughDisk(key, () => maker(name, version, size));
    made.set(key, bytes);
    bytes.catch(() => made.delete(key));
  }
  return bytes;
}
