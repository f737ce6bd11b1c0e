/**
 * A service whose checksums are in a form no client can know (`--checksum opaque`: the form of a
 * multipart upload's ETag, neither hex of a known length nor base64 of one): the command line
 * still syncs, checking each download by its size, and `status` says the checksums could not be
 * verified. A body of the wrong size, complete or cut off, is still refused: nothing of it
 * becomes the file.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type DemoInfo, type RunningService } from '../../service/index.js';
import { readServiceChecksum } from '../../main/local/checksum.js';
import { faults } from '../helpers/engine.js';
import { signIn } from '../helpers/service.js';
import { filesBelow, runCli, sha256 } from './cli-helpers.js';

const UNVERIFIED = 'The service\'s checksums are in a form Asset Sync does not know';

let service: RunningService;
let demo: DemoInfo;
const injected = faults({});
const dirs: string[] = [];
const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  service = await startService({ checksumAlgorithm: 'opaque', faults: injected });
  demo = await service.seedDemo();
}, 60_000);

afterAll(async () => {
  await service?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Current {
  fileName: string;
  key: string;
  size: number;
}

/** The current version of every active asset, as the service keeps it. */
const currentVersions = (): Current[] =>
  service.db
    .prepare(
      `SELECT a.file_name AS fileName, v.key AS key, v.size AS size FROM assets a JOIN asset_versions v ON v.id = a.current_version_id
       WHERE a.workspace_id = ? AND a.is_active = 1 ORDER BY a.file_name`,
    )
    .all(demo.workspaceId) as Current[];

const blobPath = (key: string): string => join(service.dataDir, 'blobs', key);

async function syncOnce(root: string, home: string) {
  const env = { ASSET_SYNC_HOME: home, ASSET_SYNC_API_KEY: demo.user.apiKey, ASSET_SYNC_API_SECRET: demo.user.apiSecret };
  const synced = await runCli(['sync', '--once', '--base-url', service.url, '--account', demo.accountId, '--workspace', demo.workspaceId, '--root', root], { env });
  const status = await runCli(['status', '--json', '--root', root], { env });
  return { synced, status };
}

/** Synced files by name (the demo's names are unique across folders), with the SHA-256 of their bytes. */
const syncedByName = (root: string): Map<string, string> =>
  new Map([...filesBelow(root)].map(([path, digest]) => [path.split('/').pop() ?? path, digest]));

describe('a service whose checksums no client can read', () => {
  it('answers checksums the client reads as of no known algorithm', async () => {
    const session = await signIn(service.url, { accountId: demo.accountId, workspaceId: demo.workspaceId, ...demo.user });
    const versions = (await session.api<Array<{ checksum: string }>>('GET', `/workspaces/assets/${demo.assetIds[0] ?? ''}/versions`)).json;
    expect(versions.length).toBeGreaterThan(0);
    for (const version of versions) expect(readServiceChecksum(version.checksum).form, version.checksum).toBeNull();
  });

  it('syncs every file checked by its size, says in status that checksums were not verified, and refuses a body of the wrong size', async () => {
    const current = currentVersions();
    expect(current.length).toBeGreaterThan(2);
    const expected = new Map(current.map((v) => [v.fileName, sha256(readFileSync(blobPath(v.key)))]));
    // On the service's disk one blob is a byte short and one a byte long: each body arrives whole, at the wrong size.
    const [short, long] = current;
    if (short === undefined || long === undefined) throw new Error('no asset');
    const originals = new Map([short, long].map((v) => [v.key, readFileSync(blobPath(v.key))]));
    const shortBytes = originals.get(short.key) ?? Buffer.alloc(0);
    writeFileSync(blobPath(short.key), shortBytes.subarray(0, shortBytes.length - 1));
    writeFileSync(blobPath(long.key), Buffer.concat([originals.get(long.key) ?? Buffer.alloc(0), Buffer.from('!')]));

    const root = tempDir('asset-sync-opaque-root-');
    const home = tempDir('asset-sync-opaque-home-');
    const first = await syncOnce(root, home);
    expect(first.synced.stdout + first.synced.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    const got = syncedByName(root);
    expect(got.has(short.fileName), `${short.fileName} was written from a body one byte short`).toBe(false);
    expect(got.has(long.fileName), `${long.fileName} was written from a body one byte long`).toBe(false);
    for (const [name, digest] of expected) if (name !== short.fileName && name !== long.fileName) expect(got.get(name), name).toBe(digest);
    expect(first.status.code).toBe(0);
    expect(first.status.stdout).toContain(UNVERIFIED);

    // With their bytes back, they arrive.
    for (const [key, bytes] of originals) writeFileSync(blobPath(key), bytes);
    await syncOnce(root, home);
    expect(syncedByName(root)).toEqual(expected);
  });

  it('refuses bodies cut off mid-way, then syncs them whole', async () => {
    const expected = new Map(currentVersions().map((v) => [v.fileName, sha256(readFileSync(blobPath(v.key)))]));
    const root = tempDir('asset-sync-opaque-cut-root-');
    const home = tempDir('asset-sync-opaque-cut-home-');
    injected.truncate = 1;
    try {
      await syncOnce(root, home);
    } finally {
      injected.truncate = 0;
    }
    expect(filesBelow(root).size, 'files written from bodies cut off').toBe(0);
    const second = await syncOnce(root, home);
    expect(syncedByName(root)).toEqual(expected);
    expect(second.status.stdout).toContain(UNVERIFIED);
    expect(existsSync(root)).toBe(true);
  });
});
