/**
 * A file's type comes from its bytes; its name counts only while there are no bytes, and then
 * never makes it something that gets decoded.
 */
import { describe, expect, it } from 'vitest';
import { guessFromName, sniffBytes } from '../../main/media/sniff.js';
import { demoMedia } from '../../service/demo/media.js';

const made = async (name: string) => (await demoMedia(name, 1)) as Buffer;

describe('sniffBytes', () => {
  it.each([
    ['poster.png', 'image', 'png'],
    ['photo.jpg', 'image', 'jpg'],
    ['banner.webp', 'image', 'webp'],
    ['logo.svg', 'image', 'svg'],
    ['guide.pdf', 'pdf', 'pdf'],
    ['hero.psd', 'psd', 'psd'],
    ['scout.heic', 'image', 'heic'],
    ['voice.wav', 'audio', 'wav'],
    ['teaser.webm', 'video', 'webm'],
  ])('reads %s as %s (%s) from its bytes', async (name, category, format) => {
    expect(await sniffBytes((await made(name)).subarray(0, 8192), name)).toMatchObject({ category, format, fromBytes: true });
  });

  it('goes by the bytes when the name says something else', async () => {
    const png = await made('poster.png');
    expect(await sniffBytes(png, 'poster.jpg')).toMatchObject({ category: 'image', format: 'png', mime: 'image/png' });
    expect(await sniffBytes(await made('guide.pdf'), 'guide.psd')).toMatchObject({ category: 'pdf', format: 'pdf' });
  });

  it('never calls bytes without a signature an image, whatever their name', async () => {
    const random = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251));
    for (const name of ['fake.png', 'fake.jpg', 'fake.psd', 'fake.pdf', 'fake.mp4', 'fake.heic']) {
      expect(await sniffBytes(random, name)).toMatchObject({ category: 'other', format: null });
    }
    expect(await sniffBytes(random, 'layout.indd')).toMatchObject({ category: 'document', format: 'indd' });
    expect(await sniffBytes(Buffer.alloc(0), 'empty.png')).toMatchObject({ category: 'other' });
  });

  it('tells SVG from other text, past a BOM, an XML declaration, comments and a doctype', async () => {
    const svg = '\uFEFF<?xml version="1.0"?>\n<!-- made by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg xmlns="http://www.w3.org/2000/svg"/>';
    expect(await sniffBytes(Buffer.from(svg), 'drawing.txt')).toMatchObject({ category: 'image', format: 'svg', mime: 'image/svg+xml' });
    expect(await sniffBytes(Buffer.from('# Notes\n\n<svg> in prose is not an SVG file'), 'notes.md')).toMatchObject({ category: 'document', format: 'md' });
    expect(await sniffBytes(Buffer.from('plain words'), 'words.png')).toMatchObject({ category: 'document', format: 'txt' });
  });

  it('knows archives and fonts', async () => {
    const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(100)]);
    expect((await sniffBytes(zip, 'files.zip')).category).toBe('archive');
    const woff2 = Buffer.concat([Buffer.from('wOF2', 'latin1'), Buffer.alloc(100)]);
    expect((await sniffBytes(woff2, 'font.woff2')).category).toBe('font');
  });
});

describe('guessFromName', () => {
  it('suggests a category for the icon, marked as not read from bytes', () => {
    expect(guessFromName('Campaigns/hero.PSD')).toEqual({ category: 'psd', format: 'psd', mime: null, fromBytes: false });
    expect(guessFromName('photo.jpeg')).toMatchObject({ category: 'image', format: 'jpg' });
    expect(guessFromName('README')).toMatchObject({ category: 'other', format: null });
  });
});
