/**
 * The real engine (index, client, executor) against a service that answers with generated
 * garbage and hostility (hostile-scenarios.ts). Whatever it sends, the user gets a clear error
 * instead of a crash, nothing is written outside the root, nothing synced is lost, no file on
 * disk holds bytes that were not verified against a checksum, and the bearer token and the API
 * secret reach the API origin only (neither the blob origin nor where it redirects).
 *
 * Each run draws a fresh seed and prints it: HOSTILE_SEED=n replays a run.
 */
import { randomInt } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncEngine } from '../../main/engine/engine.js';
import { openIndex, type SyncIndex } from '../../main/index/sync-index.js';
import { MARKER_FILE_NAME, TEMP_FILE_PREFIX, WORKSPACE_TRASH_DIR } from '../../main/local/own-files.js';
import { createLogger } from '../../main/logging.js';
import { ServiceClient, isServiceError } from '../../main/service-client/index.js';
import type { SyncReport } from '../../shared/engine.js';
import { TEST_BACKOFF, sha256, walkFiles } from '../helpers/engine.js';
import { startHostileServers, type HostileServers, type Received } from './hostile-server.js';
import {
  ACCOUNT_ID,
  BASELINE,
  BASELINE_PATHS,
  CREDENTIALS,
  ESCAPING_NAMES,
  KNOWN_HOSTILE,
  TOKEN,
  WORKSPACE_ID,
  WORKSPACE_NAME,
  currentChecksums,
  intendedBytes,
  listedChecksums,
  needsRestart,
  scenarioArb,
  scriptFor,
  sizeCheckedAssets,
  type AssetSpec,
  type Scenario,
} from './hostile-scenarios.js';

const seed = Number(process.env.HOSTILE_SEED ?? randomInt(2 ** 31));
// Printed before anything runs: a run that hangs or crashes the worker still tells its seed.
console.log(`hostile-service: HOSTILE_SEED=${seed} replays this run`);

const CANARIES: Record<string, string> = {
  'canary.txt': 'a file beside the sync root: never touched\n',
  x: 'what "../../x" would reach from the workspace folder\n',
  'abs': 'what "/abs" would be next to\n',
  f: 'what "x/../../../f" would overwrite from the workspace folder\n',
};
/**
 * Levels between the case's temp folder and the home that holds the root and the canaries:
 * a name climbing up to five levels from the workspace folder lands inside the temp folder,
 * where the walk after the sync finds it.
 */
const ABOVE_HOME = ['a', 'b', 'c'];

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

/**
 * Every entry below `top` (files, folders, links; links not followed) that is neither inside
 * `root`, nor a folder on the way down to it, nor one of `kept` (absolute paths).
 */
async function strayEntries(top: string, root: string, kept: ReadonlySet<string>): Promise<string[]> {
  const stray: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const abs = join(dir, entry.name);
      if (abs === root || kept.has(abs)) continue;
      if (entry.isDirectory() && root.startsWith(`${abs}${sep}`)) await visit(abs);
      else stray.push(relative(top, abs).split(sep).join('/') + (entry.isDirectory() ? '/' : ''));
    }
  };
  await visit(top);
  return stray.sort();
}

/** Requests that carried a credential (bearer token, API key or secret, or any cookie) to an origin other than the API's. */
function credentialsAwayFromApi(received: readonly Received[]): string[] {
  const secrets = [TOKEN, CREDENTIALS.key, CREDENTIALS.secret];
  const leaks: string[] = [];
  for (const r of received) {
    if (r.origin === 'api') continue;
    const where = `${r.method} ${r.url} on the ${r.origin} origin`;
    for (const name of ['authorization', 'proxy-authorization', 'cookie']) if (r.headers[name] !== undefined) leaks.push(`${where}: a ${name} header`);
    const carried = [r.url, r.body, ...Object.values(r.headers).flat()].join('\n');
    for (const secret of secrets) if (carried.includes(secret)) leaks.push(`${where}: ${secret}`);
  }
  return leaks;
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

/** What a case leaves for a test's own checks, before its folders are removed. */
interface CaseResult {
  /** The workspace folder's visible files after the hostile sync, with their SHA-256. */
  workspace: Map<string, string>;
  /** The workspace folder itself. */
  workspaceDir: string;
  /** The hostile sync's report; null when the device could not even start. */
  report: SyncReport | null;
  received: readonly Received[];
}

/**
 * Syncs the benign baseline, then meets `scenario`, and checks what a user would: no crash, an
 * error that says what happened, nothing outside the root, nothing lost, no unverified bytes,
 * no credential beyond the API origin, nothing written to the service.
 */
async function runCase(servers: HostileServers, scenario: Scenario, check?: (result: CaseResult) => void | Promise<void>, syncs = 1): Promise<void> {
  const top = await mkdtemp(join(tmpdir(), 'asset-sync-hostile-'));
  const home = join(top, ...ABOVE_HOME);
  const state = join(top, 'state');
  const root = join(home, 'root');
  await mkdir(root, { recursive: true });
  await mkdir(state);
  for (const [name, text] of Object.entries(CANARIES)) await writeFile(join(home, name), text);
  const ctx = { apiUrl: servers.url, blobUrl: servers.blobUrl, otherUrl: servers.otherUrl, canary: join(home, 'canary.txt') };
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
    let report: SyncReport | null = null;
    for (let n = 0; device && n < syncs; n += 1) {
      report = await device.engine.syncOnce();
      expectClearReport(report);
    }

    // Nothing outside the root: the canaries as they were, and nothing else up to the top.
    const canaries = new Set(Object.keys(CANARIES).map((name) => join(home, name)));
    expect(await strayEntries(top, root, new Set([...canaries, state])), 'written outside the sync root').toEqual([]);
    for (const [name, text] of Object.entries(CANARIES)) expect(await readFile(join(home, name), 'utf8')).toBe(text);

    // Nothing lost, nothing unverified.
    const listed = listedChecksums(scenario);
    const now = await visibleFiles(root);
    const kept = new Set(now.values());
    const wsNow = await visibleFiles(join(root, WORKSPACE_NAME));
    const current = currentChecksums(scenario);
    const sizeChecked = sizeCheckedAssets(scenario);
    for (const [path, checksum] of before) {
      // Kept (maybe moved), or replaced by the verified bytes of the asset's new version (by
      // its size alone when its checksum has no form the client knows).
      const assetId = BASELINE_PATHS.get(path) ?? '';
      const replacement = current.get(assetId);
      const replaced = (replacement !== undefined && replacement !== checksum && kept.has(replacement)) || sizeChecked.has(assetId);
      expect(kept.has(checksum) || replaced, `the bytes of ${path} are still in the root`).toBe(true);
      const at = wsNow.get(path);
      if (at !== undefined && at !== checksum) expect(listed.has(at) || sizeChecked.has(assetId), `${path} was replaced by verified bytes only (checked by size where the checksum has no known form)`).toBe(true);
    }
    const known = new Set([...before.values(), ...listed]);
    const checkedSizes = new Set(sizeChecked.values());
    for (const [path, checksum] of now) {
      const bySize = checkedSizes.has((await stat(join(root, path))).size);
      expect(known.has(checksum) || bySize, `${path} holds bytes that match no checksum or size the service announced`).toBe(true);
    }

    // The bearer token and the API key and secret went to the API origin only.
    expect(credentialsAwayFromApi(servers.received), 'credentials sent beyond the API origin').toEqual([]);

    // The user changed nothing: whatever the service said, the device wrote nothing to it.
    const writes = servers.received.filter((r) => r.method !== 'GET' && r.url !== '/auth/token');
    expect(writes.map((r) => `${r.method} ${r.url}`)).toEqual([]);

    await check?.({ workspace: wsNow, workspaceDir: join(root, WORKSPACE_NAME), report, received: [...servers.received] });
  } finally {
    await device?.close();
    index.close();
    await rm(top, { recursive: true, force: true });
  }
}

let servers: HostileServers;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

beforeAll(async () => {
  servers = await startHostileServers(scriptFor(null, { apiUrl: '', blobUrl: '', otherUrl: '', canary: '' }));
  process.on('unhandledRejection', onUnhandled);
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await servers.close();
});

/** A new top-level asset with honest bytes, checksum and size. */
const honestAsset = (id: string, name: string, over: Partial<AssetSpec> = {}): AssetSpec => ({
  id,
  folderId: null,
  name,
  versionId: 'v-1',
  size: 2000,
  seed: id,
  checksumMode: 'honest',
  sizeMode: 'honest',
  blob: 'ok',
  ...over,
});

describe(`a hostile service (HOSTILE_SEED=${seed})`, () => {
  it('gets clear errors: no crash, no write outside the root, no local loss, no unverified bytes', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        await runCase(servers, scenario);
        expect(unhandled).toEqual([]);
      }),
      { numRuns: 40, seed, examples: KNOWN_HOSTILE.map((scenario): [Scenario] => [scenario]) },
    );
  }, 240_000);

  it('places files whose names leave their folder only once joined inside that folder, under a safe name', async () => {
    const names = ESCAPING_NAMES;
    const assets = names.map((name, i) => honestAsset(`esc-${i}`, name));
    // As folder names too: a folder that resolves outside would take its files with it.
    const folders = names.map((name, i) => ({ id: `esc-folder-${i}`, parentId: null, name }));
    const inFolders = folders.map((f, i) => honestAsset(`esc-in-${i}`, 'inside.txt', { folderId: f.id }));
    const empty = names.map((name, i) => ({ id: `esc-empty-${i}`, parentId: null, name }));
    for (const via of ['hierarchy', { feed: 'page' }] as const) {
      const listing = { folders: [...folders, ...empty], assets: [...assets, ...inFolders], deepChain: false };
      await runCase(servers, { token: 'ok', user: 'ok', workspace: 'ok', listing, via }, async ({ workspace, workspaceDir, report }) => {
        expect(report?.ok, JSON.stringify(report?.workspaces[0]?.problems.slice(0, 3))).toBe(true);
        const byChecksum = new Map([...workspace].map(([path, checksum]) => [checksum, path]));
        for (const asset of assets) {
          const path = byChecksum.get(sha256(intendedBytes(asset)));
          expect(path, `${JSON.stringify(asset.name)} was placed`).toBeDefined();
          expect(path, `${JSON.stringify(asset.name)} is a file of the workspace folder itself`).not.toMatch(/\//);
        }
        for (const asset of inFolders) {
          const path = byChecksum.get(sha256(intendedBytes(asset)));
          expect(path, `the file in folder ${asset.folderId} was placed`).toBeDefined();
          expect(path?.split('/'), `the file in folder ${asset.folderId} is one folder down`).toHaveLength(2);
        }
        // Every folder, the empty ones too, is a folder of the workspace folder itself.
        const made = (await readdir(workspaceDir, { withFileTypes: true })).filter((e) => e.isDirectory() && e.name !== WORKSPACE_TRASH_DIR);
        expect(made).toHaveLength(BASELINE.folders.length + folders.length + empty.length);
      });
    }
    expect(unhandled).toEqual([]);
  }, 60_000);

  it('never places bytes other than the announced ones, even under an honest checksum, size and ETag, and says why', async () => {
    // Each lie and what the user is told about it.
    const lies: Array<[AssetSpec['blob'], RegExp]> = [
      ['wrong-bytes', /the bytes received hash to [0-9a-f]{64}, not [0-9a-f]{64}/],
      ['wrong-bytes-etag', /the bytes received hash to/],
      ['flipped-byte', /the bytes received hash to/],
      ['elsewhere-wrong-bytes', /the bytes received hash to/],
      ['etag-lie', /the service serves [0-9a-f]{64} for etag-lie.bin, not the expected [0-9a-f]{64}/],
      ['shorter', /the body ended at byte 1000 of 2000/],
      ['longer', /the service sent more than the 2000 bytes announced/],
      ['cut', /the connection broke at byte \d+ of 2000/],
    ];
    const assets = lies.map(([blob], i) => honestAsset(`lie-${i}`, `${blob}.bin`, { blob }));
    // A new version of a synced file, whose bytes lie: the user's copy must stay as it was.
    const logo = BASELINE.assets.find((a) => a.id === 'a-2') as AssetSpec;
    assets.push({ ...logo, versionId: 'v-2', seed: 'logo, second version', blob: 'wrong-bytes-etag' });
    const scenario: Scenario = { token: 'ok', user: 'ok', workspace: 'ok', listing: { folders: [], assets, deepChain: false }, via: { feed: 'page' } };
    await runCase(servers, scenario, ({ workspace, report }) => {
      expect([...workspace.keys()].sort()).toEqual(['Docs/notes.txt', 'logo.bin']);
      expect(workspace.get('logo.bin')).toBe(sha256(intendedBytes(logo)));
      const problems = report?.workspaces[0]?.problems ?? [];
      for (const asset of assets) expect(problems.map((p) => p.path), `the failure of ${asset.name} is reported`).toContain(asset.name);
      for (const [blob, why] of lies) expect(problems.find((p) => p.path === `${blob}.bin`)?.message).toMatch(why);
    });
    expect(unhandled).toEqual([]);
  });

  it('resumes a large download cut off mid-body from an origin that ignores Range: the whole body again, placed once', async () => {
    const big = honestAsset('big', 'big.mov', { size: 1_300_000, blob: 'cut-once' });
    const scenario: Scenario = { token: 'ok', user: 'ok', workspace: 'ok', listing: { folders: [], assets: [big], deepChain: false }, via: { feed: 'page' } };
    await runCase(
      servers,
      scenario,
      ({ workspace, received }) => {
        expect(workspace.get('big.mov')).toBe(sha256(intendedBytes(big)));
        const asked = received.filter((r) => r.origin === 'blob' && r.url.startsWith('/blob/big--'));
        expect(asked.map((r) => r.headers.range)).toEqual([undefined, expect.stringMatching(/^bytes=[1-9]\d*-$/)]);
      },
      2,
    );
    expect(unhandled).toEqual([]);
  });

  it('sends the bearer token and the API secret to the API origin only, not to the blob origin nor where it redirects', async () => {
    const assets = [honestAsset('to-blob', 'plain.bin'), honestAsset('via-302', 'via-302.bin', { blob: 'ok-302' }), honestAsset('elsewhere', 'elsewhere.bin', { blob: 'redirect-elsewhere' })];
    const scenario: Scenario = { token: 'ok', user: 'ok', workspace: 'ok', listing: { folders: [], assets, deepChain: false }, via: 'hierarchy' };
    await runCase(servers, scenario, ({ workspace, report, received }) => {
      expect(report?.ok).toBe(true);
      expect(workspace.get('elsewhere.bin')).toBe(sha256(intendedBytes(assets[2] as AssetSpec)));
      // The check above (in runCase) looked at requests that were made: to each origin.
      const origins = new Set(received.map((r) => r.origin));
      expect([...origins].sort()).toEqual(['api', 'blob', 'other']);
      expect(received.filter((r) => r.origin === 'api' && r.headers.authorization === `Bearer ${TOKEN}`).length).toBeGreaterThan(0);
      expect(received.some((r) => r.origin === 'api' && r.body.includes(CREDENTIALS.secret))).toBe(true);
    });
    expect(unhandled).toEqual([]);
  });
});
