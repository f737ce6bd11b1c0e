/**
 * Fills a service data folder with one tenant and N small assets spread over folders, through
 * the service's own domain functions (fast: no HTTP), before the service starts on that folder.
 * Only the scale case uses it: its subject is the engine with 100,000 assets, not the upload.
 * Configured by BENCH_SEED (JSON, see SeedConfig); answers one JSON line (SeedResult).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { BlobStore } from '../../service/blob/store.js';
import { UrlSigner } from '../../service/blob/signer.js';
import { DEFAULT_OPTIONS } from '../../service/config.js';
import type { ServiceContext } from '../../service/context.js';
import { openServiceDb } from '../../service/db/open.js';
import { createTenant } from '../../service/demo/seed.js';
import { createAsset } from '../../service/domain/assets.js';
import { storeBlob } from '../../service/domain/blobs.js';
import { createFolder } from '../../service/domain/folders.js';
import { TokenAuthority } from '../../service/http/auth.js';
import { createFailedAuthGuard } from '../../service/http/failed-auth.js';
import { folderLayout } from '../lib/dataset.js';

export interface SeedConfig {
  dataDir: string;
  assets: number;
  folders: number;
  /** Each asset's size; small, so the case measures bookkeeping rather than bytes. */
  bytes: number;
}

export interface SeedResult {
  accountId: string;
  workspaceId: string;
  key: string;
  secret: string;
  assets: number;
  seconds: number;
}

const BATCH = 500;

const config = JSON.parse(process.env.BENCH_SEED ?? '{}') as SeedConfig;
const start = process.hrtime.bigint();
const db = openServiceDb(join(config.dataDir, 'service.db'));
// The service is not running: the signer and token authority are only there to complete the context.
const secret = randomBytes(32).toString('hex');
const ctx: ServiceContext = {
  db,
  blobs: new BlobStore(join(config.dataDir, 'blobs')),
  signer: new UrlSigner(secret, () => '', DEFAULT_OPTIONS.signedUrlTtlSeconds),
  tokens: new TokenAuthority(db, secret, DEFAULT_OPTIONS.tokenTtlSeconds, createFailedAuthGuard(false)),
  options: DEFAULT_OPTIONS,
};
const tenant = createTenant(ctx, { name: 'Scale Bench' });
const actor = { userId: tenant.user.userId, workspaceId: tenant.workspaceId };
const folderIds = new Map<string, string | null>([['', null]]);
for (const path of folderLayout(config.folders)) {
  const slash = path.lastIndexOf('/');
  folderIds.set(path, createFolder(db, actor, { name: path.slice(slash + 1), parent_id: folderIds.get(slash < 0 ? '' : path.slice(0, slash)) ?? null }).id);
}
const folders = [...folderIds.values()].slice(1);
for (let first = 0; first < config.assets; first += BATCH) {
  const count = Math.min(BATCH, config.assets - first);
  const blobs = await Promise.all(Array.from({ length: count }, (_v, i) => {
    const name = `f${String(first + i).padStart(6, '0')}.bin`;
    return storeBlob(ctx, randomBytes(config.bytes), { fileName: name, contentType: 'application/octet-stream', userId: actor.userId, workspaceId: actor.workspaceId })
      .then((blob) => ({ name, blob, folderId: folders[(first + i) % folders.length] ?? null }));
  }));
  db.transaction(() => {
    for (const { name, blob, folderId } of blobs) createAsset(db, actor, { key: blob.key, file_name: name, folder_id: folderId, checksum: blob.checksum });
  })();
}
db.close();
const result: SeedResult = {
  accountId: tenant.accountId,
  workspaceId: tenant.workspaceId,
  key: tenant.user.apiKey,
  secret: tenant.user.apiSecret,
  assets: config.assets,
  seconds: Number(process.hrtime.bigint() - start) / 1e9,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
