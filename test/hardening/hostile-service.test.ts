/**
 * The real engine (index, client, executor) against a service that answers with generated
 * garbage and hostility (hostile-scenarios.ts). Whatever it sends, the user gets a clear error
 * instead of a crash, nothing is written outside the root, nothing synced is lost, and no file
 * on disk holds bytes that were not verified against a checksum.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncEngine } from '../../main/engine/engine.js';
import { placeRemoteTree, treeFromListing } from '../../main/engine/remote-tree.js';
import { openIndex, type SyncIndex } from '../../main/index/sync-index.js';
import { MARKER_FILE_NAME, TEMP_FILE_PREFIX, WORKSPACE_TRASH_DIR } from '../../main/local/own-files.js';
import { MAX_PATH_BYTES, sanitizeName } from '../../main/local/paths.js';
import { createLogger } from '../../main/logging.js';
import { ServiceClient, isServiceError } from '../../main/service-client/index.js';
import { ListingAnswer } from '../../main/service-client/ours.js';
import type { SyncReport } from '../../shared/engine.js';
import { TEST_BACKOFF, sha256, walkFiles } from '../helpers/engine.js';
import { startHostileServers, type HostileServers } from './hostile-server.js';
import { ACCOUNT_ID, BASELINE_PATHS, CREDENTIALS, KNOWN_HOSTILE, WORKSPACE_ID, WORKSPACE_NAME, currentChecksums, listedChecksums, needsRestart, scenarioArb, scriptFor, type Scenario } from './hostile-scenarios.js';

const CANARIES: Record<string, string> = {
  'canary.txt': 'a file beside the sync root: never touched\n',
  x: 'what "../../x" would reach from the workspace folder\n',
  'abs': 'what "/abs" would be next to\n',
};

interface Running {
  engine: SyncEngine;
  close(): Promise<void>;
}

async function startDevice(servers: HostileServers, root: string, index: SyncIndex): Promise<Running> {
  const client = new ServiceClient({
    baseUrl: servers.url,
    accountId: ACCOUNT_ID,
    credentials: CREDENTIALS,
    maxAttempts: 2,
    baseDelayMs: 1,
    maxDelayMs: 10,
    timeoutMs: 10_000,
  });
  const engine = new SyncEngine({
    root,
    workspaces: [{ id: WORKSPACE_ID }],
    index,
    client,
    logger: createLogger(),
    deviceName: 'hostile-test',
    accountId: ACCOUNT_ID,
    quietMs: 0,
    pollIntervalMs: 600_000,
  });
  const close = async (): Promise<void> => {
    await engine.stop();
    await client.close();
  };
  try {
    await engine.init();
  } catch (error) {
    await close();
    throw error;
  }
  return { engine, close };
}

/** Files a user sees under `dir`: not our marker, temp files or fallback trash. */
async function visibleFiles(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const rel of await walkFiles(dir)) {
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    if (name === MARKER_FILE_NAME || name.startsWith(TEMP_FILE_PREFIX) || rel.split('/').includes(WORKSPACE_TRASH_DIR)) continue;
    out.set(rel, sha256(await readFile(join(dir, rel))));
  }
  return out;
}

function expectClearReport(report: SyncReport): void {
  const problems = report.workspaces.flatMap((w) => w.problems);
  if (!report.ok) expect(problems.length, 'a failed sync says why').toBeGreaterThan(0);
  for (const problem of problems) {
    expect(problem.message.length).toBeGreaterThan(0);
    // Bounded whatever the service sent: a path may be long, nothing else may.
    expect(problem.message.length, problem.message.slice(0, 200)).toBeLessThan(2000 + (problem.path?.length ?? 0));
    expect(problem.message).not.toMatch(/\n\s+at /);
  }
}

async function runCase(servers: HostileServers, scenario: Scenario): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'asset-sync-hostile-'));
  const state = await mkdtemp(join(tmpdir(), 'asset-sync-hostile-index-'));
  const root = join(home, 'root');
  await mkdir(root);
  for (const [name, text] of Object.entries(CANARIES)) await writeFile(join(home, name), text);
  const ctx = { mainUrl: servers.url, otherUrl: servers.otherUrl, canary: join(home, 'canary.txt') };
  servers.script = scriptFor(null, ctx);
  servers.received.length = 0;
  const index = openIndex(join(state, 'index.db'), { backoff: TEST_BACKOFF });
  let device: Running | null = null;
  try {
    device = await startDevice(servers, root, index);
    expect((await device.engine.syncOnce()).ok, 'the baseline syncs').toBe(true);
    const before = await visibleFiles(join(root, WORKSPACE_NAME));
    expect(before.size).toBe(2);

    servers.script = scriptFor(scenario, ctx);
    if (needsRestart(scenario)) {
      await device.close();
      device = null;
      device = await startDevice(servers, root, index).catch((error: unknown) => {
        expect(isServiceError(error), `start fails with a ServiceError, not ${String(error)}`).toBe(true);
        return null;
      });
    }
    if (device) expectClearReport(await device.engine.syncOnce());

    // Nothing outside the root: the canaries as they were, and the root.
    expect((await readdir(home)).sort()).toEqual([...Object.keys(CANARIES), 'root'].sort());
    for (const [name, text] of Object.entries(CANARIES)) expect(await readFile(join(home, name), 'utf8')).toBe(text);

    // Nothing lost, nothing unverified.
    const listed = listedChecksums(scenario);
    const now = await visibleFiles(root);
    const kept = new Set(now.values());
    const wsNow = await visibleFiles(join(root, WORKSPACE_NAME));
    const current = currentChecksums(scenario);
    for (const [path, checksum] of before) {
      // Kept (maybe moved), or replaced by the verified bytes of the asset's new version.
      const replacement = current.get(BASELINE_PATHS.get(path) ?? '');
      const replaced = replacement !== undefined && replacement !== checksum && kept.has(replacement);
      expect(kept.has(checksum) || replaced, `the bytes of ${path} are still in the root`).toBe(true);
      const at = wsNow.get(path);
      if (at !== undefined && at !== checksum) expect(listed.has(at), `${path} was replaced by verified bytes only`).toBe(true);
    }
    const known = new Set([...before.values(), ...listed]);
    for (const [path, checksum] of now) expect(known.has(checksum), `${path} holds verified bytes`).toBe(true);

    // The user changed nothing: whatever the service said, the device wrote nothing to it.
    const writes = servers.received.filter((r) => r.method !== 'GET' && r.path !== '/auth/token');
    expect(writes).toEqual([]);
  } finally {
    await device?.close();
    index.close();
    await rm(home, { recursive: true, force: true });
    await rm(state, { recursive: true, force: true });
  }
}

let servers: HostileServers;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

beforeAll(async () => {
  servers = await startHostileServers(scriptFor(null, { mainUrl: '', otherUrl: '', canary: '' }));
  process.on('unhandledRejection', onUnhandled);
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await servers.close();
});

describe('a hostile service', () => {
  it('gets clear errors: no crash, no write outside the root, no local loss, no unverified bytes', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        await runCase(servers, scenario);
        expect(unhandled).toEqual([]);
      }),
      { numRuns: 40, seed: 20_240_611, examples: KNOWN_HOSTILE.map((scenario): [Scenario] => [scenario]) },
    );
  }, 240_000);

  it('places a tree 10,000 folders deep only as deep as a disk can hold, and says what it left out', () => {
    const folders = Array.from({ length: 10_000 }, (_, i) => ({ id: `f${i}`, workspace_id: 'w', parent_id: i === 0 ? null : `f${i - 1}`, name: 'deep-folder', sequence: 1, isActive: true }));
    const bottom = { id: 'a-bottom', folder_id: 'f9999', name: 'x', file_name: 'x', current_version_id: 'v', version_number: 1, checksum: sha256(''), size: 0, sequence: 1, isActive: true };
    const placed = placeRemoteTree(treeFromListing(ListingAnswer.parse({ workspace_id: 'w', sequence: 1, folders, assets: [bottom] })));
    expect(placed.folders.size).toBe(Math.floor((MAX_PATH_BYTES + 1) / 'deep-folder/'.length));
    for (const folder of placed.folders.values()) expect(Buffer.byteLength(folder.path)).toBeLessThanOrEqual(MAX_PATH_BYTES);
    expect([...placed.unplaced]).toEqual(['a-bottom']);
  });

  it('never gives a service item the name of one of its own files', () => {
    for (const name of ['.assetsync', '.AssetSync', '.assetsyncignore', '.assetsync-trash', '.assetsync-0011223344556677.part']) {
      expect(sanitizeName(name)).toBe(`_${name}`);
      expect(sanitizeName(sanitizeName(name))).toBe(sanitizeName(name));
    }
  });
});
