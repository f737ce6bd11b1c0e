import { randomBytes } from 'node:crypto';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_OPTIONS, type ServiceOptions } from './config.js';
import type { ServiceContext } from './context.js';
import type { Db } from './db/db.js';
import { openServiceDb } from './db/open.js';
import { BlobStore } from './blob/store.js';
import { UrlSigner } from './blob/signer.js';
import { createBlobServer } from './blob/server.js';
import { TokenAuthority } from './http/auth.js';
import { createFailedAuthGuard } from './http/failed-auth.js';
import { createFaultInjector, type FaultInjector } from './http/faults.js';
import { createApiServer } from './app.js';
import { createTenant, seedDemo, type DemoInfo, type DemoOptions, type Tenant } from './demo/seed.js';

export type { ServiceOptions, FaultOptions } from './config.js';
export type { DemoInfo, DemoOptions, Tenant } from './demo/seed.js';

export interface RunningService {
  /** Base URL of the API, e.g. http://127.0.0.1:4010 */
  url: string;
  /** Origin of signed URLs (the blob server). */
  blobUrl: string;
  dataDir: string;
  db: Db;
  faults?: FaultInjector | undefined;
  /** Seeds the demo account, user, workspace and assets; returns ids and credentials. */
  seedDemo(options?: DemoOptions): Promise<DemoInfo>;
  /** Another account with one user, one API key and one empty workspace (isolation tests). */
  createTenant(name: string, tierId?: string): Tenant;
  stop(): Promise<void>;
}

/** Starts the local Asset Collaboration Service: the API origin and the blob origin. */
export async function startService(partial: Partial<ServiceOptions> = {}): Promise<RunningService> {
  const options: ServiceOptions = { ...DEFAULT_OPTIONS, ...partial };
  const temporary = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'asset-service-'));
  mkdirSync(dataDir, { recursive: true });
  const db = openServiceDb(join(dataDir, 'service.db'));
  const secret = options.secret ?? loadOrCreateSecret(db);
  const blobs = new BlobStore(join(dataDir, 'blobs'), options.checksumAlgorithm);
  let blobOrigin = '';
  const signer = new UrlSigner(secret, () => blobOrigin, options.signedUrlTtlSeconds);
  const faults = options.faults ? createFaultInjector(options.faults) : undefined;
  const tokens = new TokenAuthority(db, secret, options.tokenTtlSeconds, createFailedAuthGuard(options.failedAuthLimit));
  const ctx: ServiceContext = { db, blobs, signer, tokens, options, faults };

  const blobServer = createBlobServer({ db, store: blobs, signer, errorShape: options.errorShape, maxUploadBytes: options.maxUploadBytes, faults, checksumAlgorithm: options.checksumAlgorithm });
  blobServer.listen(options.blobPort, options.host);
  await once(blobServer, 'listening');
  blobOrigin = `http://${options.host}:${(blobServer.address() as AddressInfo).port}`;

  const api = await createApiServer(ctx);
  await api.listen({ port: options.port, host: options.host });
  const url = `http://${options.host}:${(api.server.address() as AddressInfo).port}`;

  let stopped = false;
  return {
    url,
    blobUrl: blobOrigin,
    dataDir,
    db,
    faults,
    seedDemo: (demoOptions) => seedDemo(ctx, demoOptions),
    createTenant: (name, tierId) => createTenant(ctx, tierId === undefined ? { name } : { name, tierId }),
    async stop() {
      if (stopped) return;
      stopped = true;
      blobServer.closeAllConnections();
      await Promise.all([api.close(), new Promise<void>((resolve) => blobServer.close(() => resolve()))]);
      await blobs.settle();
      db.close();
      // Retried: a blob being read when its connection was cut may take a moment to close, and
      // a FUSE disk answers ENOTEMPTY for a folder holding an open file. Not rmSync: its retries
      // block the event loop, and a stream with a read in flight closes its file only once the
      // loop has taken that read's completion.
      if (temporary) await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/** The signing secret lives with the data, so a restarted service still honours its tokens and URLs. */
function loadOrCreateSecret(db: Db): string {
  db.exec('CREATE TABLE IF NOT EXISTS service_secret (id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT NOT NULL)');
  const row = db.prepare('SELECT value FROM service_secret WHERE id = 1').get() as { value: string } | undefined;
  if (row) return row.value;
  const value = randomBytes(32).toString('hex');
  db.prepare('INSERT INTO service_secret (id, value) VALUES (1, ?)').run(value);
  return value;
}
