/**
 * The command line against Stoplight Prism mocking the reference's operations and ours from
 * docs/openapi.json, with answers generated from the schemas (optional fields left out at random,
 * a seed per run, printed for replay): `workspaces`, `reviews`, `status` and one `sync --once`
 * never crash, whatever the document allows, and the list commands (`workspaces`, `reviews`)
 * succeed, skipping only the items they cannot use. A crash is a stack trace or a JavaScript error
 * name in the output; a refusal in words, with exit code 1 or 2, is an answer. Every request the
 * client sends is checked against the document by Prism as well.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startPrismMock, type RunningPrism } from '../helpers/prism.js';
import { runCli, type CliResult } from '../cli/cli-helpers.js';

/** Two seeds in every run; `ASSET_SYNC_MOCK_SEEDS=1,2,3,…` runs more. */
const SEEDS = (process.env.ASSET_SYNC_MOCK_SEEDS ?? '11,23').split(',').map(Number);
const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const WORKSPACE = '22222222-2222-4222-8222-222222222222';
const CRASH = /\n\s+at .+:\d+:\d+\)?\n|\b(TypeError|ReferenceError|RangeError|SyntaxError|ZodError)\b|Unhandled|Cannot read propert/;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const expectNoCrash = (what: string, result: CliResult): void => {
  const output = `${result.stdout}\n${result.stderr}`;
  expect(output, `${what} crashed`).not.toMatch(CRASH);
  expect([0, 1, 2], `${what} exited ${result.code}: ${output.slice(0, 400)}`).toContain(result.code);
};

describe.each(SEEDS)('the command line against a Prism mock (seed %i)', (seed) => {
  it('reads workspaces, reviews and status, and syncs once, without crashing', async () => {
    const prism: RunningPrism = await startPrismMock(seed);
    try {
      const home = mkdtempSync(join(tmpdir(), 'asset-sync-mock-home-'));
      const root = mkdtempSync(join(tmpdir(), 'asset-sync-mock-root-'));
      dirs.push(home, root);
      const env = { ASSET_SYNC_HOME: home, ASSET_SYNC_API_KEY: 'ak_mock', ASSET_SYNC_API_SECRET: 'sk_mock' };
      const service = ['--base-url', prism.url, '--account', ACCOUNT];
      const runs: Array<[string, string[]]> = [
        ['workspaces', ['workspaces', '--json', ...service]],
        ['reviews', ['reviews', '--json', ...service]],
        ['sync --once', ['sync', '--once', ...service, '--workspace', WORKSPACE, '--root', root]],
        ['status', ['status', '--json', '--root', root]],
      ];
      for (const [what, args] of runs) {
        const result = await runCli(args, { env });
        expectNoCrash(`${what} (seed ${seed})`, result);
        // Every list answer the document allows is read: what cannot be used is skipped, not fatal.
        if (what === 'workspaces' || what === 'reviews') expect(result.code, `${what} (seed ${seed}): ${result.stderr.slice(0, 400)}`).toBe(0);
      }
      // The mock's own answers may stray from the document (its generator skips some keywords): only requests count here.
      expect(prism.violations.filter((v) => v.message.startsWith('request')), 'requests the client sent outside the document').toEqual([]);
    } finally {
      await prism.close();
    }
  }, 120_000);
});
