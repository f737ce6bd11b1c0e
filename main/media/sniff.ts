/**
 * What a file is, read from its first bytes (`file-type` knows the binary signatures; SVG and
 * plain text are recognised here, since they have none). The name counts only when there are no
 * bytes to read (a version not fetched yet), and then never makes a file an image, a video, a
 * PDF or a PSD: bytes with another name's extension are what their bytes say, and a file named
 * `.png` holding anything else gets no picture.
 */
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { MediaCategory, MediaType } from '../../shared/media.js';

/** Enough for every signature file-type checks, and for the start of an SVG or text file. */
export const SNIFF_BYTES = 8192;

const ARCHIVES = new Set(['zip', 'gz', 'tar', '7z', 'rar', 'bz2', 'xz', 'zst', 'lz', 'lzh', 'cab', 'dmg', 'ar', 'cpio', 'arj']);
const DOCUMENTS = new Set(['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'rtf', 'epub', 'indd', 'xml', 'doc', 'xls', 'ppt', 'cfb']);
const TEXT_FORMATS = new Set(['txt', 'md', 'csv', 'tsv', 'json', 'xml', 'html', 'css', 'yaml', 'yml', 'log']);
const FONTS = new Set(['woff', 'woff2', 'ttf', 'otf', 'eot']);

/** Categories a name may suggest for a file whose bytes are not here: none that gets decoded. */
const NAME_ONLY: Readonly<Record<string, MediaCategory>> = {
  ...Object.fromEntries([...ARCHIVES].map((e) => [e, 'archive'])),
  ...Object.fromEntries([...DOCUMENTS, 'md', 'txt', 'csv', 'json', 'pages', 'key', 'numbers', 'sketch', 'ai'].map((e) => [e, 'document'])),
  ...Object.fromEntries([...FONTS].map((e) => [e, 'font'])),
};

/** What a name suggests a not-yet-fetched file may be, for the icon until its bytes are read. */
const NAME_GUESS: Readonly<Record<string, MediaCategory>> = {
  png: 'image', jpg: 'image', jpeg: 'image', gif: 'image', webp: 'image', avif: 'image', tif: 'image', tiff: 'image',
  svg: 'image', heic: 'image', heif: 'image', psd: 'psd', psb: 'psd', pdf: 'pdf',
  mp4: 'video', mov: 'video', m4v: 'video', webm: 'video', mkv: 'video', avi: 'video',
  wav: 'audio', mp3: 'audio', m4a: 'audio', aac: 'audio', flac: 'audio', ogg: 'audio', opus: 'audio',
  ...NAME_ONLY,
};

const extOf = (name: string): string => extname(name).slice(1).toLowerCase();

/** The type a file's name suggests, marked as not read from bytes. */
export function guessFromName(name: string): MediaType {
  const ext = extOf(name);
  const category = NAME_GUESS[ext];
  return category ? { category, format: ext === 'jpeg' ? 'jpg' : ext === 'tiff' ? 'tif' : ext, mime: null, fromBytes: false } : { category: 'other', format: ext || null, mime: null, fromBytes: false };
}

function categoryOf(ext: string, mime: string): MediaCategory {
  if (ext === 'psd') return 'psd';
  if (ext === 'pdf' || ext === 'ai') return 'pdf';
  if (FONTS.has(ext) || mime.startsWith('font/')) return 'font';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  if (ARCHIVES.has(ext)) return 'archive';
  if (DOCUMENTS.has(ext)) return 'document';
  return 'other';
}

/** The start of an XML or SVG document past a BOM, blanks, the XML declaration, comments and a doctype. */
function looksLikeSvg(text: string): boolean {
  let rest = text.replace(/^\uFEFF/, '');
  for (;;) {
    rest = rest.trimStart();
    const skip = /^(<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)/i.exec(rest);
    if (!skip) break;
    rest = rest.slice(skip[0].length);
  }
  return /^<svg[\s>]/i.test(rest);
}

function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    // A multi-byte character cut at the end of the sample is no reason to call it binary.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, Math.max(0, bytes.length - 4)));
    return true;
  } catch {
    return false;
  }
}

/** The type of a file from its first bytes (`head`, up to SNIFF_BYTES) and its name. */
export async function sniffBytes(head: Uint8Array, name: string): Promise<MediaType> {
  const text = head.length > 0 && isText(head);
  // Before file-type, which calls an SVG with an XML declaration plain XML.
  if (text && looksLikeSvg(new TextDecoder().decode(head))) return { category: 'image', format: 'svg', mime: 'image/svg+xml', fromBytes: true };
  const found = head.length > 0 ? await fileTypeFromBuffer(head).catch(() => undefined) : undefined;
  if (found) return { category: categoryOf(found.ext, found.mime), format: found.ext, mime: found.mime, fromBytes: true };
  if (text) {
    const ext = extOf(name);
    return { category: 'document', format: TEXT_FORMATS.has(ext) ? ext : 'txt', mime: 'text/plain', fromBytes: true };
  }
  const nameCategory = NAME_ONLY[extOf(name)];
  return { category: nameCategory ?? 'other', format: nameCategory ? extOf(name) : null, mime: null, fromBytes: true };
}

/** The first SNIFF_BYTES of a file (fewer if it is shorter). */
export async function readHead(absPath: string): Promise<Uint8Array> {
  const file = await open(absPath, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await file.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

export async function sniffFile(absPath: string, name: string): Promise<MediaType> {
  return sniffBytes(await readHead(absPath), name);
}
