/**
 * Integration-test helper for the sync engine: a real service on free ports, "devices" (an
 * engine with its own root, index file and service client, Joplin-style), a colleague acting on
 * the service through the same typed client, and what a user would check: the bytes on disk
 * against the service's listing, leftover temp files, anything written outside a root.
 */
import { createCipheriv, createHash } from 'node:crypto';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile, lstat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { afterEach } from 'vitest';
import type { Asset, AssetVersion, Listing } from '../../main/service-client/index.js';
import type { SyncReport } from '../../shared/engine.js';
import { SyncEngine, type EngineOptions, type EngineWorkspace } from '../../main/engine/engine.js';
import { openIndex, type SyncIndex } from '../../main/index/sync-index.js';
import { sanitizeName } from '../../main/local/paths.js';
import { MARKER_FILE_NAME, TEMP_FILE_PREFIX, TEMP_FILE_SUFFIX } from '../../main/local/own-files.js';
import { removeTreeSync, trashFilesFor } from './disk.js';
import { serviceVariant } from './service-variant.js';
import { startPrismProxy } from './prism.js';
import { newHasher, type HashAlgorithm } from '../../main/local/checksum.js';
import { createLogger, type Logger } from '../../main/logging.js';
import { ServiceClient, type RetryEvent } from '../../main/service-client/index.js';
import { startService, type DemoInfo, type DemoOptions, type FaultOptions, type RunningService, type ServiceOptions } from '../../service/index.js';

/**
 * The OS trash (freedesktop layout, which the `trash` package follows) of this test process:
 * remote deletions land here instead of the real user's trash.
 */
export const TRASH_HOME = join(tmpdir(), `asset-sync-it-trash-${process.pid}`);
process.env.XDG_DATA_HOME = TRASH_HOME;

/**
 * SHA-256 of every file in the trash that files of the tests' folders go to: the sandboxed home
 * trash, or the trash of the disk they are on when that is not the home's (`npm run
 * test:casefold` puts them on an exFAT image).
 */
export async function trashedChecksums(): Promise<string[]> {
  const dir = trashFilesFor(tmpdir(), join(TRASH_HOME, 'Trash'));
  const files = await walkFiles(dir);
  return Promise.all(files.map(async (rel) => checksumOf(await readFile(join(dir, rel)))));
}

export const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

// The variants run only services whose checksums the client reads (test/helpers/service-variant.ts).
const VARIANT_ALGORITHM: HashAlgorithm = serviceVariant().checksumAlgorithm === 'md5' ? 'md5' : 'sha256';

/**
 * The bytes' checksum as the client holds it (main/local/checksum.ts), in the algorithm of the
 * service variant the tests run against: SHA-256 hex by default, `md5:<hex>` against an MD5 service.
 */
export function checksumOf(bytes: Uint8Array | string): string {
  const hasher = newHasher(VARIANT_ALGORITHM);
  hasher.update(typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
  return hasher.digest();
}

/** Fault options with everything off but what is given. */
export const faults = (f: Partial<FaultOptions>): FaultOptions => ({ latencyMs: 0, error5xx: 0, drop: 0, truncate: 0, seed: 1, ...f });

/** Deterministic pseudo-random bytes: the AES-256-CTR keystream of a key derived from `seed`. */
export function bytesFor(seed: string, size: number): Buffer {
  const cipher = createCipheriv('aes-256-ctr', createHash('sha256').update(seed).digest(), Buffer.alloc(16));
  return cipher.update(Buffer.alloc(size));
}

export interface Credentials {
  key: string;
  secret: string;
}

export function serviceClient(
  service: RunningService | { url: string },
  accountId: string,
  credentials: Credentials,
  options: { maxAttempts?: number; onRetry?: (event: RetryEvent) => void } = {},
): ServiceClient {
  return new ServiceClient({
    baseUrl: service.url,
    accountId,
    credentials,
    baseDelayMs: 20,
    maxDelayMs: 500,
    maxAttempts: options.maxAttempts ?? 8,
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  });
}

/** Someone acting on the service from elsewhere (the colleague, or the user on another machine). */
export class RemoteActor {
  constructor(
    readonly client: ServiceClient,
    readonly workspaceId: string,
  ) {}

  /** Asks for a signed URL and PUTs the bytes: the key is ready to commit. */
  async upload(bytes: Buffer | string, fileName = 'file.bin'): Promise<{ key: string; checksum: string; size: number }> {
    const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    const checksum = checksumOf(data);
    const ticket = await this.client.requestUpload(this.workspaceId, { fileName, contentType: 'application/octet-stream', checksum, size: data.length });
    await this.client.putSignedUpload(ticket.signed_url, data, { size: data.length });
    return { key: ticket.key, checksum, size: data.length };
  }

  /** The folder at a '/'-separated path of service names, created as needed ('' is the top). */
  async folder(path: string): Promise<string | null> {
    let parent: string | null = null;
    if (path === '') return parent;
    const listing = await this.hierarchy();
    for (const name of path.split('/')) {
      const found = listing.folders.find((f) => f.parent_id === parent && f.name === name);
      parent = found ? found.id : (await this.client.createFolder(this.workspaceId, { name, parent_id: parent })).id;
    }
    return parent;
  }

  /** Creates an asset at a path of service names ("Docs/a.txt"). */
  async createFile(path: string, bytes: Buffer | string): Promise<Asset> {
    const slash = path.lastIndexOf('/');
    const folderId = await this.folder(slash < 0 ? '' : path.slice(0, slash));
    return this.createIn(folderId, path.slice(slash + 1), bytes);
  }

  async createIn(folderId: string | null, fileName: string, bytes: Buffer | string): Promise<Asset> {
    const up = await this.upload(bytes, fileName);
    return this.client.createAsset(this.workspaceId, { key: up.key, file_name: fileName, folder_id: folderId, checksum: up.checksum, size: up.size });
  }

  /** A new version on top of the asset's current one. */
  async newVersion(assetId: string, bytes: Buffer | string): Promise<AssetVersion> {
    const asset = await this.client.getAsset(this.workspaceId, assetId);
    const up = await this.upload(bytes);
    return this.client.createVersion(this.workspaceId, assetId, { key: up.key, checksum: up.checksum, size: up.size, commit_parent_id: asset.current_version_id });
  }

  hierarchy(includeDeleted = false): Promise<Listing> {
    return this.client.getHierarchy(this.workspaceId, { includeDeleted });
  }

  /** The active asset at a path of service names. */
  async assetAt(path: string): Promise<RemoteEntry> {
    const entry = (await remoteFiles(this.client, this.workspaceId)).get(path);
    if (!entry) throw new Error(`no asset at "${path}" on the service`);
    return entry;
  }

  /** The asset's versions, newest first (the reference promises no order). */
  async versions(assetId: string): Promise<AssetVersion[]> {
    return (await this.client.listVersions(this.workspaceId, assetId)).sort((a, b) => b.version_number - a.version_number);
  }
}

export interface RemoteEntry {
  path: string;
  assetId: string;
  versionId: string;
  checksum: string;
  size: number;
  lockedByUserId: string | null | undefined;
}

/** Active assets by their path of service names ("Brand/Logos/logo.svg"). */
export async function remoteFiles(client: ServiceClient, workspaceId: string): Promise<Map<string, RemoteEntry>> {
  const listing = await client.getHierarchy(workspaceId);
  const folders = new Map(listing.folders.filter((f) => f.isActive).map((f) => [f.id, f]));
  const pathOf = (folderId: string | null | undefined): string | null => {
    if (folderId === null || folderId === undefined) return '';
    const folder = folders.get(folderId);
    if (!folder) return null;
    const parent = pathOf(folder.parent_id);
    return parent === null ? null : parent === '' ? folder.name : `${parent}/${folder.name}`;
  };
  const out = new Map<string, RemoteEntry>();
  for (const a of listing.assets.filter((x) => x.isActive)) {
    const dir = pathOf(a.folder_id);
    if (dir === null) continue;
    const path = dir === '' ? a.file_name : `${dir}/${a.file_name}`;
    out.set(path, { path, assetId: a.id, versionId: a.current_version_id, checksum: a.checksum, size: a.size, lockedByUserId: a.locked_by_user_id });
  }
  return out;
}

/** Every regular file below `dir` (relative, '/'-separated), symlinks not followed. */
export async function walkFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (abs: string): Promise<void> => {
    const entries = await readdir(abs, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    for (const entry of entries) {
      const child = join(abs, entry.name);
      if (entry.isDirectory()) await visit(child);
      else out.push(relative(dir, child).split(sep).join('/'));
    }
  };
  await visit(dir);
  return out.sort();
}

/** The files a user sees in a workspace folder (the engine's marker left out), with their checksums (`checksumOf`). */
export async function localFiles(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const rel of await walkFiles(dir)) {
    if (rel === MARKER_FILE_NAME) continue;
    out.set(rel, checksumOf(await readFile(join(dir, rel))));
  }
  return out;
}

/** Leftover download/atomic-write temp files below `dir`. */
export async function tempFiles(dir: string): Promise<string[]> {
  return (await walkFiles(dir)).filter((rel) => {
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    return name.startsWith(TEMP_FILE_PREFIX) && name.endsWith(TEMP_FILE_SUFFIX);
  });
}

/** Path → checksum of the service's active assets, sorted, for whole-tree comparisons. */
export async function remoteChecksums(client: ServiceClient, workspaceId: string): Promise<Array<[string, string]>> {
  return [...(await remoteFiles(client, workspaceId)).values()].map((e): [string, string] => [e.path, e.checksum]).sort(byFirst);
}

export async function localChecksums(dir: string): Promise<Array<[string, string]>> {
  return [...(await localFiles(dir)).entries()].sort(byFirst);
}

const byFirst = (a: [string, string], b: [string, string]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** True when a report says nothing was transferred, moved or deleted. */
/** The folders on the service, as paths of names, sorted. */
export async function remoteFolders(actor: RemoteActor): Promise<string[]> {
  const listing = await actor.hierarchy();
  const byId = new Map(listing.folders.map((f) => [f.id, f]));
  const pathOf = (id: string): string => {
    const f = byId.get(id);
    if (!f) return '?';
    return f.parent_id === null ? f.name : `${pathOf(f.parent_id)}/${f.name}`;
  };
  return listing.folders.map((f) => pathOf(f.id)).sort();
}

/** The folders below `dir` but hidden ones, as sorted relative paths. */
export async function localFolders(dir: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (rel: string): Promise<void> => {
    for (const e of await readdir(rel === '' ? dir : join(dir, ...rel.split('/')), { withFileTypes: true })) {
      if (!e.isDirectory() || e.name.startsWith('.')) continue;
      const child = rel === '' ? e.name : `${rel}/${e.name}`;
      out.push(child);
      await visit(child);
    }
  };
  await visit('');
  return out.sort();
}

export function idle(report: SyncReport): boolean {
  return report.workspaces.every((w) => w.downloaded + w.uploaded + w.deleted + w.moved + w.conflicts + w.failed === 0);
}

/**
 * Runs `sync` until a run reports no problem and the next one has nothing left to do (what a
 * user waiting for the green tick sees); the last report and the number of runs are returned.
 */
export async function convergeWith(
  sync: () => Promise<SyncReport>,
  options: { maxRuns?: number; name?: string } = {},
): Promise<{ report: SyncReport; runs: number }> {
  const maxRuns = options.maxRuns ?? 8;
  let last: SyncReport | null = null;
  for (let run = 1; run <= maxRuns; run += 1) {
    const report = await sync();
    if (report.ok && last?.ok && idle(report)) return { report, runs: run };
    last = report;
  }
  throw new Error(`${options.name ?? 'the sync'} did not converge in ${maxRuns} runs: ${JSON.stringify(last)}`);
}

export const TEST_BACKOFF = { initialMs: 50, maxMs: 500 };

export interface DeviceOptions {
  workspaces?: EngineWorkspace[];
  quietMs?: number;
  credentials?: Credentials;
  engine?: Partial<Omit<EngineOptions, 'root' | 'index' | 'client' | 'logger'>>;
  /** The engine's logger (default: a silent one), e.g. `keptLogger()` to read what it said. */
  logger?: Logger;
}

export class Device {
  constructor(
    readonly name: string,
    readonly root: string,
    readonly indexFile: string,
    readonly index: SyncIndex,
    readonly client: ServiceClient,
    readonly engine: SyncEngine,
    /** The first workspace's folder under the root. */
    readonly dir: string,
    /** Every request the device's client retried, with the error that made it retry. */
    readonly retries: RetryEvent[],
  ) {}

  path(rel: string, dir = this.dir): string {
    return join(dir, ...rel.split('/'));
  }

  async write(rel: string, content: Buffer | string, dir = this.dir): Promise<void> {
    const abs = this.path(rel, dir);
    await mkdir(dirname(abs), { recursive: true });
    await writeFile(abs, content);
  }

  read(rel: string, dir = this.dir): Promise<Buffer> {
    return readFile(this.path(rel, dir));
  }

  exists(rel: string, dir = this.dir): Promise<boolean> {
    return lstat(this.path(rel, dir)).then(() => true, () => false);
  }

  sync(options: { maxRounds?: number; allowMassDelete?: boolean } = {}): Promise<SyncReport> {
    return this.engine.syncOnce(options);
  }

  /** Syncs until converged (see `convergeWith`); the last report is returned. Faults may need a few runs. */
  async converge(maxRuns = 8): Promise<SyncReport> {
    return (await convergeWith(() => this.engine.syncOnce(), { maxRuns, name: this.name })).report;
  }

  async close(): Promise<void> {
    await this.engine.stop();
    await this.client.close();
    this.index.close();
  }
}

export interface World {
  service: RunningService;
  demo: DemoInfo;
  workspaceId: string;
  /** The workspace's folder name under a device root. */
  folderName: string;
  /** Parent of every root and index file: anything written below it is accounted for. */
  home: string;
  /** The demo user (whose devices sync) acting on the service from elsewhere, for checks. */
  user: RemoteActor;
  colleague: RemoteActor;
  /** A name used before (that device closed) starts a new engine on the same root and index: a restart. */
  device(name: string, options?: DeviceOptions): Promise<Device>;
  /** Files below `home` that are neither inside a device root nor a device's index files. */
  strayFiles(): Promise<string[]>;
  close(): Promise<void>;
}

/** The fault injector of a world whose service was started with faults. */
export function injector(w: World): NonNullable<RunningService['faults']> {
  const injected = w.service.faults;
  if (!injected) throw new Error('the service was started with faults');
  return injected;
}

/** Worlds started through the returned function are closed after each test of the calling file. */
export function worlds(): (options?: Parameters<typeof startWorld>[0]) => Promise<World> {
  const open: World[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((w) => w.close()));
    await rm(TRASH_HOME, { recursive: true, force: true });
  });
  return async (options) => {
    const world = await startWorld(options);
    open.push(world);
    return world;
  };
}

export async function startWorld(options: { service?: Partial<ServiceOptions>; demo?: DemoOptions } = {}): Promise<World> {
  const service = await startService({ ...serviceVariant(), ...options.service });
  // Under ASSET_SYNC_VIA_PRISM=1 every client talks to the service through Stoplight Prism as a
  // validating proxy, and a world whose requests or answers left docs/openapi.json fails on close.
  const prism = process.env.ASSET_SYNC_VIA_PRISM === '1' ? await startPrismProxy(service.url) : undefined;
  const api = { url: prism?.url ?? service.url };
  const home = await mkdtemp(join(tmpdir(), 'asset-sync-it-'));
  const devices: Device[] = [];
  const clients: ServiceClient[] = [];
  try {
    const demo = await service.seedDemo(options.demo);
    const actor = (c: { apiKey: string; apiSecret: string }): RemoteActor => {
      const client = serviceClient(api, demo.accountId, { key: c.apiKey, secret: c.apiSecret });
      clients.push(client);
      return new RemoteActor(client, demo.workspaceId);
    };
    const user = actor(demo.user);
    const colleague = actor(demo.colleague);
    const workspace = await user.client.getWorkspace(demo.workspaceId);
    const world: World = {
      service,
      demo,
      workspaceId: demo.workspaceId,
      folderName: sanitizeName(workspace.name),
      home,
      user,
      colleague,
      async device(name, deviceOptions = {}) {
        const base = join(home, name);
        const root = join(base, 'root');
        await mkdir(root, { recursive: true });
        const indexFile = join(base, 'index.db');
        // A path that failed is retried within the test, not ten seconds later.
        const index = openIndex(indexFile, { backoff: TEST_BACKOFF });
        const retries: RetryEvent[] = [];
        const credentials = deviceOptions.credentials ?? { key: demo.user.apiKey, secret: demo.user.apiSecret };
        const client = serviceClient(api, demo.accountId, credentials, { onRetry: (event) => retries.push(event) });
        const workspaces = deviceOptions.workspaces ?? [{ id: demo.workspaceId }];
        const engine = new SyncEngine({
          root,
          workspaces,
          index,
          client,
          logger: deviceOptions.logger ?? createLogger(),
          deviceName: name,
          accountId: demo.accountId,
          quietMs: deviceOptions.quietMs ?? 100,
          pollIntervalMs: 60_000,
          ...deviceOptions.engine,
        });
        await engine.init();
        const first = engine.status().workspaces[0];
        const device = new Device(name, root, indexFile, index, client, engine, first?.folder ?? join(root, world.folderName), retries);
        devices.push(device);
        return device;
      },
      async strayFiles() {
        // Layout: <home>/<device>/root/ and <home>/<device>/index.db (plus its -wal and -shm).
        return (await walkFiles(home)).filter((rel) => !/^[^/]+\/(root\/|index\.db)/.test(rel));
      },
      async close() {
        await Promise.all(devices.map((d) => d.close().catch(() => undefined)));
        await Promise.all(clients.map((c) => c.close()));
        await prism?.close();
        await service.stop();
        removeTreeSync(home);
        const violations = prism?.violations ?? [];
        if (violations.length > 0) throw new Error(`Prism saw ${violations.length} violation(s) of docs/openapi.json: ${JSON.stringify(violations.slice(0, 5))}`);
      },
    };
    return world;
  } catch (error) {
    await prism?.close();
    await service.stop();
    removeTreeSync(home);
    throw error;
  }
}
