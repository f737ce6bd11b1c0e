/**
 * What the executor tests share: the real local service, a fresh demo workspace per test (so
 * tests never see each other's files), a real index on disk, a real workspace folder, and
 * helpers to put assets on the service and describe files the way the planner does.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { ActivityItem, Problem } from '../../shared/engine.js';
import { sequenceNumber, type Asset } from '../../main/service-client/index.js';
import { openIndex, type SyncIndex } from '../../main/index/sync-index.js';
import { hashFile } from '../../main/local/hash.js';
import { readStamp } from '../../main/local/stamp.js';
import { removeTreeSync } from '../helpers/disk.js';
import { ServiceClient, type ServiceClientOptions } from '../../main/service-client/index.js';
import type { ExecutorDeps } from '../../main/sync/executor/execute-plan.js';
import type { LocalFile, RemoteFile } from '../../main/model/views.js';
import { TransferQueue } from '../../main/sync/transfer-queue.js';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startService, type DemoInfo, type RunningService, type ServiceOptions } from '../../service/index.js';

export const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

/** Deterministic pseudo-random bytes. */
export function bytesOf(size: number, seed: string): Buffer {
  const out = Buffer.alloc(size);
  let block = createHash('sha256').update(seed).digest();
  for (let at = 0; at < size; at += block.length) {
    block.copy(out, at);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

/** Options of a client signed in as `who`, quick to give up (tests want failures fast). */
export function clientOptions(service: RunningService, accountId: string, who: { apiKey: string; apiSecret: string }): ServiceClientOptions {
  return { baseUrl: service.url, accountId, credentials: { key: who.apiKey, secret: who.apiSecret }, baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 2 };
}

export interface Harness {
  service: RunningService;
  demo: DemoInfo;
  ws: string;
  client: ServiceClient;
  /** Rafael, the colleague: a second client writing to the same workspace. */
  colleague: ServiceClient;
  root: string;
  /** A folder outside the root (where nothing may ever be written). */
  outside: string;
  index: SyncIndex;
  queue: TransferQueue;
  deps: ExecutorDeps;
  problems: Problem[];
  activity: ActivityItem[];
  suppressed: string[];
  /** Another run of the app on the same index and folder (after a crash, say). */
  depsWith(overrides: Partial<ExecutorDeps>): ExecutorDeps;
  close(): Promise<void>;
}

export interface SetUpOptions {
  assets?: number;
  queue?: TransferQueue;
  /** The folder to make the workspace folder in (another disk, say); the index stays in the temp folder. */
  rootParent?: string;
}

/** A fresh workspace (its own demo account, `assets` seeded assets), folder and index. */
export async function setUp(service: RunningService, options: SetUpOptions = {}): Promise<Harness> {
  const demo = await service.seedDemo({ assets: options.assets ?? 0 });
  const dir = mkdtempSync(path.join(tmpdir(), 'executor-test-'));
  const root = options.rootParent === undefined ? path.join(dir, 'workspace') : mkdtempSync(path.join(options.rootParent, 'workspace-'));
  const outside = path.join(dir, 'outside');
  if (options.rootParent === undefined) mkdirSync(root);
  mkdirSync(outside);
  const index = openIndex(path.join(dir, 'index.db'));
  index.workspaces.add({ id: demo.workspaceId, accountId: demo.accountId, name: 'Test', localPath: root });
  const client = new ServiceClient(clientOptions(service, demo.accountId, demo.user));
  const colleague = new ServiceClient(clientOptions(service, demo.accountId, demo.colleague));
  const queue = options.queue ?? new TransferQueue({ maxDownloads: 4, maxUploads: 2 });
  const problems: Problem[] = [];
  const activity: ActivityItem[] = [];
  const suppressed: string[] = [];
  const deps: ExecutorDeps = {
    workspaceId: demo.workspaceId,
    root,
    index,
    client,
    queue,
    folderIds: new Map([['', null]]),
    logger: pino({ level: 'silent' }),
    suppress: (rel) => suppressed.push(rel),
    onActivity: (item) => activity.push(item),
    onProblem: (p) => problems.push(p),
    deviceName: 'Test-Box',
    now: () => new Date(Date.UTC(2024, 2, 5, 14, 7, 9)),
    // Tests never fill the user's real trash: this stands in for an OS without one.
    trash: () => Promise.reject(new Error('no system trash here')),
  };
  return {
    service,
    demo,
    ws: demo.workspaceId,
    client,
    colleague,
    root,
    outside,
    index,
    queue,
    deps,
    problems,
    activity,
    suppressed,
    depsWith: (overrides) => ({ ...deps, ...overrides }),
    async close() {
      await Promise.all([client.close(), colleague.close()]);
      index.close();
      removeTreeSync(dir);
      if (options.rootParent !== undefined) removeTreeSync(root);
    },
  };
}

/** Puts bytes on the service as a new asset (as another client would). */
export async function putAsset(
  client: ServiceClient,
  ws: string,
  input: { name: string; bytes: Buffer; folderId?: string | null },
): Promise<Asset> {
  const checksum = sha256(input.bytes);
  const ticket = await client.requestUpload(ws, { fileName: input.name, contentType: 'application/octet-stream', checksum, size: input.bytes.length });
  await client.putSignedUpload(ticket.signed_url, input.bytes);
  return client.createAsset(ws, { key: ticket.key, file_name: input.name, folder_id: input.folderId ?? null, checksum, size: input.bytes.length });
}

/** Commits bytes as a new version of an asset, on top of `parentId`. */
export async function putVersion(client: ServiceClient, ws: string, assetId: string, bytes: Buffer, parentId: string): Promise<string> {
  const checksum = sha256(bytes);
  const ticket = await client.requestUpload(ws, { fileName: 'v.bin', contentType: 'application/octet-stream', checksum, size: bytes.length });
  await client.putSignedUpload(ticket.signed_url, bytes);
  return (await client.createVersion(ws, assetId, { key: ticket.key, checksum, size: bytes.length, commit_parent_id: parentId })).id;
}

/** Active assets of the workspace named `fileName`. */
export async function assetsNamed(h: Pick<Harness, 'client' | 'ws'>, fileName: string): Promise<Array<{ id: string; checksum: string }>> {
  const listing = await h.client.getHierarchy(h.ws);
  return listing.assets.filter((a) => a.file_name === fileName).map((a) => ({ id: a.id, checksum: a.checksum }));
}

/** The asset as the planner sees it, placed at `relPath`. */
export async function remoteFileOf(client: ServiceClient, ws: string, assetId: string, relPath: string): Promise<RemoteFile> {
  const asset = await client.getAsset(ws, assetId);
  const version = asset.currentVersion;
  if (!version) throw new Error('the asset came without its current version');
  return {
    path: relPath,
    assetId: asset.id,
    folderId: asset.folder_id ?? null,
    versionId: asset.current_version_id,
    versionNumber: version.version_number,
    checksum: version.checksum,
    size: version.size,
    lockedByUserId: asset.locked_by_user_id ?? null,
    sequence: sequenceNumber(typeof asset.sequence === 'number' || typeof asset.sequence === 'string' ? asset.sequence : undefined),
  };
}

/** Writes a file in the workspace and describes it as the scanner would. */
export async function writeLocal(root: string, relPath: string, bytes: Buffer | string): Promise<LocalFile> {
  const abs = path.join(root, relPath);
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(abs, bytes);
  const stamp = await readStamp(abs);
  const { checksum } = await hashFile(abs);
  return { path: relPath, ...stamp, checksum };
}

/**
 * One local service for a test file, and a harness per test, closed after it:
 * `const world = executorWorld(); … const h = await world.setUp();`.
 */
export function executorWorld(options?: Partial<ServiceOptions>): { readonly service: RunningService; setUp(options?: Parameters<typeof setUp>[1]): Promise<Harness> } {
  let running: RunningService | undefined;
  const open: Harness[] = [];
  const service = (): RunningService => {
    if (running === undefined) throw new Error('the service starts in beforeAll');
    return running;
  };
  beforeAll(async () => {
    running = await startService(options);
  });
  afterAll(async () => {
    await running?.stop();
  });
  afterEach(async () => {
    for (const h of open.splice(0)) await h.close();
  });
  return {
    get service() {
      return service();
    },
    async setUp(setUpOptions) {
      const h = await setUp(service(), setUpOptions);
      open.push(h);
      return h;
    },
  };
}
