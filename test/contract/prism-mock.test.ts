/**
 * The command line against Stoplight Prism mocking the reference's operations and ours from
 * docs/openapi.json, with answers generated from the schemas (optional fields left out at random,
 * a seed per run, printed for replay): `workspaces`, `reviews`, `status`, `versions <file>` and
 * one `sync --once` never crash, whatever the document allows, and the list commands
 * (`workspaces`, `reviews`) succeed, skipping only the items they cannot use. A crash is a stack
 * trace or a JavaScript error name in the output; a refusal in words, with exit code 1 or 2, is
 * an answer. Every request the client sends is checked against the document by Prism as well.
 *
 * The reference marks no field required, so a generated workspace often has no `id`: the client
 * cannot sync it and says so. `sync --once` is given the id of the workspace the mock serves
 * (Prism generates the same answer to a path for the same seed), as a user passes one
 * `workspaces` listed; when that answer holds one, the sync must read the listing and go on from
 * there. `versions <file>` asks the mock about a file first synced from the local service, so
 * its asset and versions are read from generated answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../service/index.js';
import { startPrismMock, type RunningPrism } from '../helpers/prism.js';
import { filesBelow, runCli, type CliResult } from '../cli/cli-helpers.js';

/**
 * Two seeds in every run: 11 serves a workspace without an id; 20 a workspace with one, and an
 * asset with its id and current version. `ASSET_SYNC_MOCK_SEEDS=1,2,3,…` runs others.
 */
const SEEDS = (process.env.ASSET_SYNC_MOCK_SEEDS ?? '11,20').split(',').map(Number);
const ACCOUNT = '11111111-1111-4111-8111-111111111111';
/** The workspace `sync --once` asks for when the mock's has no id. */
const NO_WORKSPACE = '22222222-2222-4222-8222-222222222222';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CRASH = /\n\s+at .+:\d+:\d+\)?\n|\b(TypeError|ReferenceError|RangeError|SyntaxError|ZodError)\b|Unhandled|Cannot read propert/;

const dirs: string[] = [];
const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

let service: RunningService | undefined;
/** A sync folder holding one file synced from the local service, for `versions <file>`. */
let synced: { home: string; root: string; file: string };

beforeAll(async () => {
  service = await startService();
  const demo = await service.seedDemo();
  const home = tempDir('asset-sync-mock-synced-home-');
  const root = tempDir('asset-sync-mock-synced-root-');
  const env = { ASSET_SYNC_HOME: home, ASSET_SYNC_API_KEY: demo.user.apiKey, ASSET_SYNC_API_SECRET: demo.user.apiSecret };
  const first = await runCli(['sync', '--once', '--base-url', service.url, '--account', demo.accountId, '--workspace', demo.workspaceId, '--root', root], { env });
  if (first.code !== 0) throw new Error(`the first sync from the local service failed: ${first.stderr}`);
  const [file] = [...filesBelow(root).keys()].sort();
  if (file === undefined) throw new Error('the first sync brought no file');
  synced = { home, root, file: join(root, file) };
  await service.stop();
  service = undefined;
}, 60_000);

afterAll(async () => {
  await service?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const expectNoCrash = (what: string, result: CliResult): void => {
  const output = `${result.stdout}\n${result.stderr}`;
  expect(output, `${what} crashed`).not.toMatch(CRASH);
  expect([0, 1, 2], `${what} exited ${result.code}: ${output.slice(0, 400)}`).toContain(result.code);
};

/** The mock's answer to `GET <path>` (the same for the same seed, whoever asks). */
async function mockAnswer(prism: RunningPrism, path: string): Promise<Record<string, unknown>> {
  const answer = await fetch(`${prism.url}${path}`, { headers: { authorization: 'Bearer mock', 'x-account-id': ACCOUNT, 'x-workspace-id': NO_WORKSPACE } });
  return (await answer.json()) as Record<string, unknown>;
}

const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
/** An id the client can call the service with (main/service-client/records.ts: `requiredId`). */
const isId = (value: unknown): boolean => typeof value === 'string' && value.length > 0 && value.length <= 200;

/** The id of the workspace the mock's `GET /workspaces` serves, in either shape the reference shows; undefined without one. */
async function mockWorkspaceId(prism: RunningPrism): Promise<string | undefined> {
  const body = await mockAnswer(prism, '/workspaces');
  const candidates = (Array.isArray(body.workspaces) ? body.workspaces : [body]) as Array<{ id?: unknown }>;
  return candidates.map((w) => w.id).find(isUuid);
}

describe.each(SEEDS)('the command line against a Prism mock (seed %i)', (seed) => {
  it('reads workspaces, reviews, status and versions, and syncs once, without crashing', async () => {
    const prism: RunningPrism = await startPrismMock(seed);
    try {
      const home = tempDir('asset-sync-mock-home-');
      const root = tempDir('asset-sync-mock-root-');
      const env = { ASSET_SYNC_HOME: home, ASSET_SYNC_API_KEY: 'ak_mock', ASSET_SYNC_API_SECRET: 'sk_mock' };
      const mock = ['--base-url', prism.url, '--account', ACCOUNT];
      const workspaceId = await mockWorkspaceId(prism);
      const runs: Array<[string, string[], Record<string, string>]> = [
        ['workspaces', ['workspaces', '--json', ...mock], env],
        ['reviews', ['reviews', '--json', ...mock], env],
        ['sync --once', ['sync', '--once', ...mock, '--workspace', workspaceId ?? NO_WORKSPACE, '--root', root], env],
        ['status', ['status', '--json', '--root', root], env],
        ['versions', ['versions', synced.file, '--json', '--base-url', prism.url], { ...env, ASSET_SYNC_HOME: synced.home }],
      ];
      const results = new Map<string, CliResult>();
      const requests = new Map<string, string[]>();
      for (const [what, args, runEnv] of runs) {
        const before = prism.requests.length;
        const result = await runCli(args, { env: runEnv });
        results.set(what, result);
        requests.set(what, prism.requests.slice(before));
        expectNoCrash(`${what} (seed ${seed})`, result);
        // Every list answer the document allows is read: what cannot be used is skipped, not fatal.
        if (what === 'workspaces' || what === 'reviews') expect(result.code, `${what} (seed ${seed}): ${result.stderr.slice(0, 400)}`).toBe(0);
      }

      const syncRequests = requests.get('sync --once') ?? [];
      const listingRead = syncRequests.some((r) => r.startsWith('GET /workspaces/folders/hierarchy 200'));
      const downloads = new Set(syncRequests.filter((r) => / \/workspaces\/assets\/.+\/download/.test(r))).size;
      // The asset `versions` read, asked again: the mock answers a path the same for the same seed.
      const assetPath = (requests.get('versions') ?? []).map((r) => /^GET (\/workspaces\/assets\/[^/ ]+) /.exec(r)?.[1]).find(Boolean);
      const asset = assetPath === undefined ? {} : await mockAnswer(prism, assetPath);
      const assetUsable = isId(asset.id) && isId(asset.current_version_id);
      const versionsAsked = (requests.get('versions') ?? []).some((r) => /^GET \/workspaces\/assets\/[^/]+\/versions /.test(r));
      console.log(
        `seed ${seed}: workspace ${workspaceId ?? 'without id'}; sync --once exit ${results.get('sync --once')?.code}, listing ${listingRead ? 'read' : 'not reached'}, ` +
          `${downloads} downloads tried; asset ${assetUsable ? 'with' : 'lacking'} its id or current version, versions exit ${results.get('versions')?.code}`,
      );
      if (workspaceId === undefined) {
        // A workspace without an id cannot be synced: the client says so in words, before any listing.
        expect(results.get('sync --once')?.stderr).toMatch(/GET \/workspaces|does not exist/);
      } else {
        expect(listingRead, `sync --once (seed ${seed}) read no listing: ${syncRequests.join(', ')}`).toBe(true);
      }
      expect(versionsAsked, `versions (seed ${seed}) asked no versions: ${(requests.get('versions') ?? []).join(', ')}`).toBe(true);
      // An asset without its id or current version cannot be shown as the file's; one with them is, with every version that reads.
      if (assetUsable) expect(results.get('versions')?.code, `versions (seed ${seed}): ${results.get('versions')?.stderr.slice(0, 400)}`).toBe(0);
      // The mock's own answers may stray from the document (its generator skips some keywords): only requests count here.
      expect(prism.violations.filter((v) => v.message.startsWith('request')), 'requests the client sent outside the document').toEqual([]);
    } finally {
      await prism.close();
    }
  }, 180_000);
});
