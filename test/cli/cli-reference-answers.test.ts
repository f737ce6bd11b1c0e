/**
 * The read commands against the real local service answering in the other ways the reference
 * allows: `GET /accounts/workspaces` (whose payload the reference does not show) not there, so the
 * workspaces come from `GET /users/permissions`; optional strings sent empty, sequences as
 * strings, fields no client knows in every record, lists in reverse order, MD5 checksums.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type DemoInfo, type RunningService } from '../../service/index.js';
import { faults } from '../helpers/engine.js';
import { runCli } from './cli-helpers.js';

let service: RunningService;
let demo: DemoInfo;
let home: string;
let env: Record<string, string>;
let serviceArgs: string[];

beforeAll(async () => {
  service = await startService({
    faults: faults({ routes: [{ method: 'GET', path: '/accounts/workspaces', answer: 404 }] }),
    checksumAlgorithm: 'md5',
    absentFields: 'empty',
    sequenceType: 'string',
    extraFields: 'some',
    arrayOrder: 'reversed',
  });
  demo = await service.seedDemo();
  home = mkdtempSync(join(tmpdir(), 'asset-sync-cli-ref-'));
  env = { ASSET_SYNC_HOME: home, ASSET_SYNC_API_KEY: demo.user.apiKey, ASSET_SYNC_API_SECRET: demo.user.apiSecret };
  serviceArgs = ['--base-url', service.url, '--account', demo.accountId];
});

afterAll(async () => {
  await service?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('read commands against answers the reference allows', () => {
  it('workspaces lists the account\'s workspaces from GET /users/permissions when GET /accounts/workspaces is not there', async () => {
    const result = await runCli(['workspaces', '--json', ...serviceArgs], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const listed = JSON.parse(result.stdout) as Array<{ id: string; name: string }>;
    expect(listed.map((w) => w.id)).toEqual([demo.workspaceId]);
    expect(service.faults?.counts.route).toBeGreaterThan(0);
  });

  it('reviews reads every review request and change request', async () => {
    const result = await runCli(['reviews', '--json', ...serviceArgs], { env });
    expect(result.code).toBe(0);
    const reviews = JSON.parse(result.stdout) as { reviewRequests: unknown[]; changeRequests: Array<{ status: string }> };
    expect(reviews.reviewRequests).toHaveLength(3);
    expect(reviews.changeRequests.map((c) => c.status)).toEqual(['rejected', 'rejected']);
  });
});
