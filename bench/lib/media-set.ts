/**
 * A studio's media tree for the thumbnail case: real pictures, PSDs and PDFs of realistic sizes
 * (photos of 3000 x 2000 with grain, screenshots, layered PSDs, brochures, logos), drawn by the
 * demo's generators (service/demo/media.ts) under bench/data and reused while the spec holds.
 */
import { createHash } from 'node:crypto';
import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runPool } from '../../main/local/pool.js';
import { makeDemoFile, type DrawSize } from '../../service/demo/media.js';
import { AT_REST_SECONDS, CONTENT_FOLDER, dataSet, loadManifest, saveManifest, type DataSet, type ManifestFile } from './dataset.js';

export interface MediaSpec {
  kind: 'media';
  /** Files per extension, and the size each is drawn at. */
  files: Record<string, { count: number; size: DrawSize }>;
  folders: number;
}

export function mediaSpec(scale: number): MediaSpec {
  const count = (n: number) => Math.max(2, Math.round(n * scale));
  return {
    kind: 'media',
    folders: Math.max(2, Math.round(12 * scale)),
    files: {
      jpg: { count: count(150), size: { width: 3000, height: 2000, grain: 30 } },
      png: { count: count(60), size: { width: 1600, height: 1000, grain: 10 } },
      psd: { count: count(20), size: { width: 2000, height: 1300, grain: 12 } },
      pdf: { count: count(40), size: { width: 1200, height: 800, grain: 10 } },
      svg: { count: count(30), size: { width: 480, height: 160 } },
      webp: { count: count(20), size: { width: 1920, height: 1080, grain: 12 } },
    },
  };
}

export async function ensureMediaTree(root: string, spec: MediaSpec, log: (line: string) => void): Promise<DataSet> {
  const known = loadManifest(root, spec);
  if (known) return dataSet(root, known);
  await rm(root, { recursive: true, force: true });
  const dir = join(root, CONTENT_FOLDER);
  const folders = Array.from({ length: spec.folders }, (_, i) => `shoot-${String(i + 1).padStart(2, '0')}`);
  for (const folder of folders) await mkdir(join(dir, folder), { recursive: true });
  const jobs = Object.entries(spec.files).flatMap(([ext, { count, size }]) =>
    Array.from({ length: count }, (_, i) => ({ rel: `${folders[i % folders.length]}/${ext}-${String(i + 1).padStart(3, '0')}.${ext}`, size, index: i })),
  );
  log(`media: drawing ${jobs.length} files (once; kept under ${root})`);
  const files: ManifestFile[] = [];
  await runPool(jobs, 2, async (job) => {
    const bytes = (await makeDemoFile(job.rel.slice(job.rel.indexOf('/') + 1), 1 + (job.index % 3), job.size)) as Buffer;
    await writeFile(join(dir, job.rel), bytes);
    const at = Date.now() / 1000 - AT_REST_SECONDS - job.index;
    await utimes(join(dir, job.rel), at, at);
    files.push({ rel: job.rel, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  });
  files.sort((a, b) => (a.rel < b.rel ? -1 : 1));
  const manifest = { spec, folders, files };
  await saveManifest(root, manifest);
  return dataSet(root, manifest);
}
