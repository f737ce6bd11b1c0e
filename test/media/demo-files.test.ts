/**
 * The demo workspace holds real files: every version of every demo asset is fetched from the
 * running service, its type is read from its bytes and must match its extension, and it must
 * open in a decoder of that format. No file with a picture's extension may hold made-up bytes.
 */
import { readPsd, initializeCanvas } from 'ag-psd';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sniffBytes } from '../../main/media/sniff.js';
import { startTestService, type TestService } from '../helpers/service.js';

initializeCanvas((() => {
  throw new Error('no canvas');
}) as Parameters<typeof initializeCanvas>[0], ((width: number, height: number) => ({ width, height, data: new Uint8ClampedArray(width * height * 4) })) as never);

/** What each extension's bytes must sniff as, and how to open them. */
const EXPECTED: Record<string, { format: string; category: string; open?: (bytes: Buffer) => Promise<unknown> }> = {
  png: { format: 'png', category: 'image', open: (b) => sharp(b).raw().toBuffer() },
  jpg: { format: 'jpg', category: 'image', open: (b) => sharp(b).raw().toBuffer() },
  webp: { format: 'webp', category: 'image', open: (b) => sharp(b).raw().toBuffer() },
  svg: { format: 'svg', category: 'image', open: (b) => sharp(b).raw().toBuffer() },
  pdf: { format: 'pdf', category: 'pdf', open: async (b) => expect((await PDFDocument.load(b)).getPageCount()).toBeGreaterThan(1) },
  ai: { format: 'pdf', category: 'pdf', open: (b) => PDFDocument.load(b) },
  psd: {
    format: 'psd',
    category: 'psd',
    open: async (b) => {
      const psd = readPsd(b, { useImageData: true });
      expect(psd.children?.length).toBeGreaterThanOrEqual(2);
      expect(psd.imageData?.width).toBe(psd.width);
    },
  },
  heic: { format: 'heic', category: 'image', open: async (b) => expect((await sharp(b).metadata()).compression).toBe('hevc') },
  wav: { format: 'wav', category: 'audio' },
  webm: { format: 'webm', category: 'video' },
};

let t: TestService;

beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.stop();
});

async function versionBytes(assetId: string, versionId: string): Promise<Buffer> {
  const signed = await t.api<{ url?: string; signed_url?: string }>('GET', `/workspaces/assets/${assetId}/versions/${versionId}/download`);
  const target = signed.headers.get('location') ?? signed.json?.url ?? signed.json?.signed_url;
  if (!target) throw new Error(`no download URL for ${assetId}/${versionId} (${signed.status})`);
  return Buffer.from(await (await fetch(target)).arrayBuffer());
}

describe('the demo workspace', () => {
  it('holds real media files: their bytes say what their extension says, and they decode', async () => {
    const seen = new Map<string, Set<string>>();
    const checksums = new Set<string>();
    for (const assetId of t.demo.assetIds) {
      const asset = (await t.api<{ file_name: string }>('GET', `/workspaces/assets/${assetId}`)).json;
      const versions = (await t.api<Array<{ id: string; checksum: string; version_number: number }>>('GET', `/workspaces/assets/${assetId}/versions`)).json;
      const ext = asset.file_name.slice(asset.file_name.lastIndexOf('.') + 1);
      for (const version of versions) {
        expect(checksums.has(version.checksum), `${asset.file_name} v${version.version_number} repeats another file`).toBe(false);
        checksums.add(version.checksum);
        const expected = EXPECTED[ext];
        if (!expected) continue;
        const bytes = await versionBytes(assetId, version.id);
        const type = await sniffBytes(bytes.subarray(0, 8192), asset.file_name);
        expect({ file: asset.file_name, format: type.format, category: type.category }).toEqual({ file: asset.file_name, format: expected.format, category: expected.category });
        await expected.open?.(bytes);
        const looks = seen.get(asset.file_name) ?? new Set<string>();
        looks.add(version.checksum);
        seen.set(asset.file_name, looks);
      }
    }
    expect([...seen.keys()].map((n) => n.slice(n.lastIndexOf('.') + 1)).sort()).toEqual(expect.arrayContaining(['ai', 'heic', 'jpg', 'pdf', 'png', 'psd', 'svg', 'wav', 'webm', 'webp']));
  });

  it('draws each version of a picture differently', async () => {
    const assetId = t.demo.assetIds[2] as string;
    const versions = (await t.api<Array<{ id: string; version_number: number }>>('GET', `/workspaces/assets/${assetId}/versions`)).json;
    expect(versions.length).toBeGreaterThanOrEqual(2);
    const pixels = await Promise.all(versions.map(async (v) => sharp(await versionBytes(assetId, v.id)).resize(32, 20).raw().toBuffer()));
    const [first, ...rest] = pixels;
    for (const other of rest) {
      let difference = 0;
      for (let i = 0; i < (first as Buffer).length; i += 1) difference += Math.abs((first as Buffer)[i]! - other[i]!);
      expect(difference / (first as Buffer).length).toBeGreaterThan(10);
    }
  });
});
