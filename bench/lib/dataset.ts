/**
 * The data sets: trees of small files in folders, and large files of random bytes, generated
 * under bench/data (ignored by git) with a manifest of every file's size and SHA-256. A set whose
 * manifest matches the asked shape is reused, so repeated runs skip the generation.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { hashFile } from '../../main/local/hash.js';
import { runPool } from '../../main/local/pool.js';
import { seededRandom } from '../../shared/random.js';

export interface TreeSpec {
  kind: 'tree';
  files: number;
  folders: number;
  minBytes: number;
  maxBytes: number;
}

export interface BigSpec {
  kind: 'big';
  files: number;
  bytes: number;
}

export interface ManifestFile {
  /** Relative path below the set's content folder, '/'-separated. */
  rel: string;
  size: number;
  sha256: string;
}

export interface DataSet {
  /** The folder holding the files (a workspace folder named `ws` below `root`). */
  dir: string;
  /** Parent of `dir`: what an engine uses as its sync root. */
  root: string;
  /** `dir`'s name below `root`. */
  folder: string;
  folders: string[];
  files: ManifestFile[];
  bytes: number;
}

export interface Manifest {
  /** What the set was made from: a set is reused only for the same spec. */
  spec: object;
  folders: string[];
  files: ManifestFile[];
}

export const CONTENT_FOLDER = 'ws';
/**
 * Generated files are dated an hour back, like a tree at rest: files changed in the last
 * seconds are (rightly) treated as still being written by the engine and not cached by the
 * scanner, which would measure the generation instead of the tree.
 */
export const AT_REST_SECONDS = 3600;
const POOL_BYTES = 16 * 1024 * 1024;
const WRITE_CONCURRENCY = 32;


/** `folders` folders: about one in twenty at the top, the rest spread below them. */
export function folderLayout(count: number): string[] {
  const parents = Math.max(1, Math.round(count / 20));
  const out: string[] = [];
  for (let p = 0; p < parents; p += 1) out.push(`d${String(p).padStart(3, '0')}`);
  for (let c = 0; c < count - parents; c += 1) {
    const parent = out[c % parents] as string;
    out.push(`${parent}/s${String(Math.floor(c / parents)).padStart(3, '0')}`);
  }
  return out;
}

export function loadManifest(root: string, spec: object): Manifest | null {
  const file = join(root, 'manifest.json');
  if (!existsSync(file) || !existsSync(join(root, CONTENT_FOLDER))) return null;
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  return JSON.stringify(manifest.spec) === JSON.stringify(spec) ? manifest : null;
}

export function dataSet(root: string, manifest: Manifest): DataSet {
  return {
    dir: join(root, CONTENT_FOLDER),
    root,
    folder: CONTENT_FOLDER,
    folders: manifest.folders,
    files: manifest.files,
    bytes: manifest.files.reduce((sum, f) => sum + f.size, 0),
  };
}

export async function saveManifest(root: string, manifest: Manifest): Promise<void> {
  await writeFile(join(root, 'manifest.json'), JSON.stringify(manifest));
}

/** A tree of `files` files of `minBytes`–`maxBytes` spread over `folders` folders, under `root`/ws. */
export async function ensureTree(root: string, spec: Omit<TreeSpec, 'kind'>): Promise<DataSet> {
  const full: TreeSpec = { kind: 'tree', ...spec };
  const known = loadManifest(root, full);
  if (known) return dataSet(root, known);
  await rm(root, { recursive: true, force: true });
  const dir = join(root, CONTENT_FOLDER);
  const folders = folderLayout(spec.folders);
  for (const folder of folders) await mkdir(join(dir, folder), { recursive: true });
  const pool = randomBytes(POOL_BYTES);
  const random = seededRandom(spec.files * 7919 + spec.folders);
  const files: ManifestFile[] = [];
  const jobs: Array<{ rel: string; size: number; offset: number; index: number }> = [];
  for (let i = 0; i < spec.files; i += 1) {
    const size = spec.minBytes + Math.floor(random() * (spec.maxBytes - spec.minBytes + 1));
    const folder = folders[i % folders.length] as string;
    jobs.push({ rel: `${folder}/f${String(i).padStart(6, '0')}.bin`, size, offset: Math.floor(random() * (POOL_BYTES - size)), index: i });
  }
  await runPool(jobs, WRITE_CONCURRENCY, async (job) => {
    const bytes = Buffer.from(pool.subarray(job.offset, job.offset + job.size));
    // A unique head: no two files share content, as in a real tree.
    bytes.write(`file ${job.index} `, 0, 'latin1');
    await writeFile(join(dir, job.rel), bytes);
    const at = Date.now() / 1000 - AT_REST_SECONDS - job.index;
    await utimes(join(dir, job.rel), at, at);
    files.push({ rel: job.rel, size: job.size, sha256: createHash('sha256').update(bytes).digest('hex') });
  });
  files.sort((a, b) => (a.rel < b.rel ? -1 : 1));
  const manifest: Manifest = { spec: full, folders, files };
  await saveManifest(root, manifest);
  return dataSet(root, manifest);
}

/** `files` files of `bytes` random bytes each, under `root`/ws. */
export async function ensureBigFiles(root: string, spec: Omit<BigSpec, 'kind'>): Promise<DataSet> {
  const full: BigSpec = { kind: 'big', ...spec };
  const known = loadManifest(root, full);
  if (known) return dataSet(root, known);
  await rm(root, { recursive: true, force: true });
  const dir = join(root, CONTENT_FOLDER);
  await mkdir(dir, { recursive: true });
  const files: ManifestFile[] = [];
  for (let i = 0; i < spec.files; i += 1) {
    const rel = `large-${i}.bin`;
    const hash = createHash('sha256');
    const out = createWriteStream(join(dir, rel));
    for (let done = 0; done < spec.bytes; ) {
      const chunk = randomBytes(Math.min(8 * 1024 * 1024, spec.bytes - done));
      hash.update(chunk);
      done += chunk.length;
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    const at = Date.now() / 1000 - AT_REST_SECONDS;
    await utimes(join(dir, rel), at, at);
    files.push({ rel, size: spec.bytes, sha256: hash.digest('hex') });
  }
  const manifest: Manifest = { spec: full, folders: [], files };
  await saveManifest(root, manifest);
  return dataSet(root, manifest);
}

/** Checks that `dir` holds every file of the set with the right bytes; returns what differs. */
export async function verifyCopy(dir: string, set: DataSet): Promise<{ ok: boolean; missing: number; wrong: number }> {
  let missing = 0;
  let wrong = 0;
  await runPool(set.files, 8, async (f) => {
    try {
      const { checksum } = await hashFile(join(dir, f.rel), { sizeHint: f.size });
      if (checksum !== f.sha256) wrong += 1;
    } catch {
      missing += 1;
    }
  });
  return { ok: missing === 0 && wrong === 0, missing, wrong };
}

/**
 * Reads every file of the set once, so that the first timed run reads it from the page cache as
 * the later ones do: this VM pages out memory untouched for a minute (DAMON, see docs/benchmarking.md),
 * and the first upload run of the 2 GiB file spent 4.5–5.9 s hashing it from disk, the second 2.1 s.
 */
export async function warmPageCache(set: DataSet): Promise<void> {
  for (const file of set.files) {
    const stream = createReadStream(join(set.dir, file.rel), { highWaterMark: 1024 * 1024 });
    for await (const chunk of stream) void chunk;
  }
}
