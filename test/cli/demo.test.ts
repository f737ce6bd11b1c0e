/** `npm run demo -- --once`: a fresh folder gets the demo workspace, synced from a local service. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { DEMO, filesBelow, runNode } from './cli-helpers.js';

const cwd = mkdtempSync(join(tmpdir(), 'asset-sync-demo-cwd-'));

afterAll(() => rmSync(cwd, { recursive: true, force: true }));

it('syncs the demo workspace into ./AssetSync-demo and exits', async () => {
  const result = await runNode([DEMO, '--once'], { cwd });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(/service: +http:\/\/127\.0\.0\.1:\d+/);
  expect(result.stdout).toMatch(/API key: +ak_/);
  expect(result.stdout).toContain(join(cwd, 'AssetSync-demo'));
  expect(result.stdout).toContain('Everything is up to date.');
  const files = filesBelow(join(cwd, 'AssetSync-demo', 'Spring Campaign'));
  expect(files.size).toBe(24);
  expect(files.has('Campaigns/Spring/brief.md')).toBe(true);
});
