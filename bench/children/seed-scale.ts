/**
 * A tree of N files and a service holding the same N files as assets, made without HTTP, for the
 * cases that need a workspace larger than the API could fill in a bench (rescan: 100,000 files;
 * scale: 100,000 and 1,000,000 assets). Configured by BENCH_SEED (JSON, see SeedConfig); answers
 * one JSON line (SeedResult).
 *
 * How it is fast enough for a million:
 * - The tree: each file's bytes are a slice of one 16 MiB pool drawn from a seeded PRNG, with the
 *   file's number written at its start (no two files alike), so the tree is the same every time
 *   and its checksums are known without reading it back. It is generated once into the data sets
 *   folder (a stamp file names the spec it was made for) and reused, dated an hour back like a
 *   tree at rest.
 * - The blobs: each blob is a hard link to its file in the tree, not a copy (the service never
 *   writes a stored blob, and the bench never changes the tree).
 * - The records: the tenant comes from the service's own domain function; the folders and the
 *   assets are inserted in one transaction with prepared statements, the same rows
 *   `createFolder` and `createAsset` write (upload, asset, version 1, its history entry), each
 *   with the next workspace sequence, and the workspace's sequence set once at the end. The
 *   domain functions took a transaction, a name check and a sequence update per asset. The
 *   transaction gets a page cache of up to 1 GiB, as large as the records of a million assets.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BlobStore } from '../../service/blob/store.js';
import { UrlSigner } from '../../service/blob/signer.js';
import { DEFAULT_OPTIONS } from '../../service/config.js';
import type { ServiceContext } from '../../service/context.js';
import { assetTypeFor } from '../../service/db/reference-data.js';
import { openServiceDb } from '../../service/db/open.js';
import { createTenant } from '../../service/demo/seed.js';
import { TokenAuthority } from '../../service/http/auth.js';
import { createFailedAuthGuard } from '../../service/http/failed-auth.js';
import { nameKey, newBlobKey, newId } from '../../service/http/ids.js';
import { seededRandom } from '../../shared/random.js';
import { AT_REST_SECONDS, folderLayout } from '../lib/dataset.js';

export interface TreeSpec {
  files: number;
  folders: number;
  minBytes: number;
  maxBytes: number;
}

export interface SeedConfig {
  /** The service's data folder (the service is started on it afterwards). */
  dataDir: string;
  /** Where the tree lives: its files are in `<treeRoot>/ws`. */
  treeRoot: string;
  tree: TreeSpec;
}

export interface SeedResult {
  accountId: string;
  workspaceId: string;
  userId: string;
  key: string;
  secret: string;
  files: number;
  bytes: number;
  /** Seconds spent generating the tree (0 when it was reused). */
  treeSeconds: number;
  /** Seconds spent on the service's records and blobs. */
  serviceSeconds: number;
}

const POOL_BYTES = 16 * 1024 * 1024;
const FOLDER = 'ws';

interface TreeFile {
  rel: string;
  name: string;
  folder: string;
  bytes: Buffer;
}

/** The files of a spec, in order: the same bytes for the same spec on every call. */
function* treeFiles(spec: TreeSpec): Generator<TreeFile> {
  const random = seededRandom(spec.files * 7919 + spec.folders * 31 + spec.maxBytes);
  const pool = Buffer.alloc(POOL_BYTES);
  for (let i = 0; i < POOL_BYTES; i += 4) pool.writeUInt32LE(Math.floor(random() * 2 ** 32), i);
  const folders = folderLayout(spec.folders);
  for (let i = 0; i < spec.files; i += 1) {
    const size = spec.minBytes + Math.floor(random() * (spec.maxBytes - spec.minBytes + 1));
    const offset = Math.floor(random() * (POOL_BYTES - size));
    const bytes = Buffer.from(pool.subarray(offset, offset + size));
    bytes.write(`file ${i} `, 0, 'latin1');
    const folder = folders[i % folders.length] as string;
    const name = `f${String(i).padStart(7, '0')}.bin`;
    yield { rel: `${folder}/${name}`, name, folder, bytes };
  }
}

/** Generates the tree unless the stamp says it is there for this spec. */
function ensureTree(root: string, spec: TreeSpec): number {
  const stamp = join(root, 'tree.json');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === JSON.stringify(spec)) return 0;
  const start = process.hrtime.bigint();
  rmSync(root, { recursive: true, force: true });
  const dir = join(root, FOLDER);
  for (const folder of folderLayout(spec.folders)) mkdirSync(join(dir, folder), { recursive: true });
  const at = Date.now() / 1000 - AT_REST_SECONDS;
  for (const file of treeFiles(spec)) {
    const path = join(dir, file.rel);
    writeFileSync(path, file.bytes);
    utimesSync(path, at, at);
  }
  writeFileSync(stamp, JSON.stringify(spec));
  return Number(process.hrtime.bigint() - start) / 1e9;
}

const config = JSON.parse(process.env.BENCH_SEED ?? '{}') as SeedConfig;
const treeSeconds = ensureTree(config.treeRoot, config.tree);

const started = process.hrtime.bigint();
const db = openServiceDb(join(config.dataDir, 'service.db'));
const blobs = join(config.dataDir, 'blobs');
// The service is not running: the signer and token authority only complete the context.
const secret = randomBytes(32).toString('hex');
const ctx: ServiceContext = {
  db,
  blobs: new BlobStore(blobs),
  signer: new UrlSigner(secret, () => '', DEFAULT_OPTIONS.signedUrlTtlSeconds),
  tokens: new TokenAuthority(db, secret, DEFAULT_OPTIONS.tokenTtlSeconds, createFailedAuthGuard(false)),
  options: DEFAULT_OPTIONS,
};
// One transaction touches every page of the tables and their indexes (random ids): with SQLite's
// default 2 MiB cache it spilled and re-read pages through the WAL, 48 GB of writes for a million.
db.pragma('cache_size = -1048576');
const tenant = createTenant(ctx, { name: 'Scale Bench' });
const { workspaceId, accountId } = tenant;
const userId = tenant.user.userId;

const insertFolder = db.prepare(
  `INSERT INTO folders (id, workspace_id, parent_id, name, name_key, created_by_user_id, sequence, created_at, updated_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const insertUpload = db.prepare(
  `INSERT INTO uploads (key, workspace_id, account_id, user_id, file_name, content_type, checksum, size, stored, created_at, stored_at)
   VALUES (?, ?, NULL, ?, ?, 'application/octet-stream', ?, ?, 1, ?, ?)`,
);
const insertAsset = db.prepare(
  `INSERT INTO assets (id, workspace_id, folder_id, name, file_name, name_key, asset_type_id, status_id, created_by_user_id,
    current_version_id, sequence, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?)`,
);
const insertVersion = db.prepare(
  `INSERT INTO asset_versions (id, asset_id, version_number, commit_parent_id, created_by_user_id, thumbnail_file_id, name, description,
    key, size, checksum, content_type, sequence, created_at) VALUES (?, ?, 1, NULL, ?, NULL, ?, NULL, ?, ?, ?, 'application/octet-stream', ?, ?)`,
);
const insertHistory = db.prepare(
  `INSERT INTO asset_history (id, asset_id, workspace_id, user_id, action, details, sequence, created_at) VALUES (?, ?, ?, ?, 'created', ?, ?, ?)`,
);

let sequence = (db.prepare('SELECT sequence FROM workspaces WHERE id = ?').get(workspaceId) as { sequence: number }).sequence;
let bytes = 0;
db.transaction(() => {
  const at = new Date().toISOString();
  const folderIds = new Map<string, string | null>([['', null]]);
  for (const path of folderLayout(config.tree.folders)) {
    const slash = path.lastIndexOf('/');
    const id = newId();
    const name = path.slice(slash + 1);
    insertFolder.run(id, workspaceId, folderIds.get(slash < 0 ? '' : path.slice(0, slash)) ?? null, name, nameKey(name), userId, (sequence += 1), at, at);
    folderIds.set(path, id);
  }
  const treeDir = join(config.treeRoot, FOLDER);
  for (const file of treeFiles(config.tree)) {
    const key = newBlobKey();
    const checksum = createHash('sha256').update(file.bytes).digest('hex');
    linkSync(join(treeDir, file.rel), join(blobs, key));
    const assetId = newId();
    const versionId = newId();
    sequence += 1;
    insertUpload.run(key, workspaceId, userId, file.name, checksum, file.bytes.length, at, at);
    insertAsset.run(assetId, workspaceId, folderIds.get(file.folder) ?? null, file.name, file.name, nameKey(file.name), assetTypeFor(file.name), userId, versionId, sequence, at, at);
    insertVersion.run(versionId, assetId, userId, file.name, key, file.bytes.length, checksum, sequence, at);
    insertHistory.run(newId(), assetId, workspaceId, userId, JSON.stringify({ version_id: versionId, file_name: file.name }), sequence, at);
    bytes += file.bytes.length;
  }
  db.prepare('UPDATE workspaces SET sequence = ? WHERE id = ?').run(sequence, workspaceId);
})();
db.close();

const result: SeedResult = {
  accountId,
  workspaceId,
  userId,
  key: tenant.user.apiKey,
  secret: tenant.user.apiSecret,
  files: config.tree.files,
  bytes,
  treeSeconds,
  serviceSeconds: Number(process.hrtime.bigint() - started) / 1e9,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
