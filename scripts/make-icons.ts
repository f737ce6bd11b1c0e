/**
 * Draws the app icon and writes what electron-builder packages: build/icons/<n>x<n>.png (Linux
 * picks by size; 512 also serves macOS, which builds its .icns from it) and icon.ico (Windows,
 * one 256 px PNG inside). Drawn in code so the icon can be regenerated: `npx tsx scripts/make-icons.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

const OUT = join(import.meta.dirname, '..', 'build', 'icons');
const SIZES = [16, 32, 48, 64, 128, 256, 512];
const BLUE = [31, 111, 235];

/** Coverage (0..1) of a shape given by its signed distance at a pixel centre. */
const cover = (distance: number): number => Math.max(0, Math.min(1, 0.5 - distance));

/** A blue rounded square holding a white ring broken twice: two halves chasing each other. */
function drawIcon(size: number): Buffer {
  const rgba = Buffer.alloc(size * size * 4);
  const c = size / 2;
  const half = size * 0.46;
  const corner = size * 0.2;
  const ring = size * 0.26;
  const stroke = size * 0.075;
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const px = x + 0.5 - c;
      const py = y + 0.5 - c;
      // Rounded square: distance to a box shrunk by the corner radius, minus the radius.
      const qx = Math.abs(px) - (half - corner);
      const qy = Math.abs(py) - (half - corner);
      const box = Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - corner;
      const background = cover(box);
      const angle = Math.atan2(py, px);
      const gap = Math.min(Math.abs(Math.sin(angle - Math.PI / 4)), 1);
      const inGap = gap < 0.22 ? 0 : 1;
      const white = cover(Math.abs(Math.hypot(px, py) - ring) - stroke) * inGap * background;
      const at = (y * size + x) * 4;
      for (let i = 0; i < 3; i += 1) rgba[at + i] = Math.round((BLUE[i] ?? 0) * (1 - white) + 255 * white);
      rgba[at + 3] = Math.round(background * 255);
    }
  }
  return rgba;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export function encodePng(rgba: Buffer, size: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  const rows = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y += 1) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** An ICO holding one PNG image (Windows Vista and later read PNG entries). */
function encodeIco(png: Buffer, size: number): Buffer {
  const head = Buffer.alloc(6 + 16);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2); // icon
  head.writeUInt16LE(1, 4); // one image
  head[6] = size >= 256 ? 0 : size; // 0 means 256
  head[7] = size >= 256 ? 0 : size;
  head.writeUInt16LE(1, 10); // colour planes
  head.writeUInt16LE(32, 12); // bits per pixel
  head.writeUInt32LE(png.length, 14);
  head.writeUInt32LE(head.length, 18);
  return Buffer.concat([head, png]);
}

mkdirSync(OUT, { recursive: true });
for (const size of SIZES) writeFileSync(join(OUT, `${size}x${size}.png`), encodePng(drawIcon(size), size));
writeFileSync(join(OUT, 'icon.png'), encodePng(drawIcon(512), 512));
writeFileSync(join(OUT, 'icon.ico'), encodeIco(encodePng(drawIcon(256), 256), 256));
console.log(`icons written to ${OUT}`);
