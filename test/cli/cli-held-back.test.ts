/**
 * Syncs the engine holds back to protect files, told and undone from the command line: a
 * workspace folder whose `.assetsync` marker is gone (sync refuses; `asset-sync workspaces reset`
 * lets the next sync merge the folder by content, deleting nothing), and the mass-delete brake
 * (`status` says so, with what to do, until the deletions are confirmed).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset } from '../helpers/served.js';
import { startService, type DemoInfo, type RunningService } from '../../service/index.js';
import { signIn, type Session } from '../helpers/service.js';
import { filesBelow, runCli } from './cli-helpers.js';

let service: RunningService;
let demo: DemoInfo;
let dana: Session;
let home: string;
let root: string;
let env: Record<string, string>;
let syncArgs: string[];

const workspaceDir = (): string => join(root, 'Spring Campaign');
const PALETTE = 'Brand/Colors/palette.ase';
const README = 'README.txt';

beforeAll(async () => {
  service = await startService();
  demo = await service.seedDemo();
  dana = await signIn(service.url, { accountId: demo.accountId, workspaceId: demo.workspaceId, ...demo.user });
  home = mkdtempSync(join(tmpdir(), 'asset-sync-reset-home-'));
  root = mkdtempSync(join(tmpdir(), 'asset-sync-reset-root-'));
  env = { ASSET_SYNC_HOME: home, ASSET_SYNC_API_KEY: demo.user.apiKey, ASSET_SYNC_API_SECRET: demo.user.apiSecret };
  syncArgs = ['sync', '--once', '--base-url', service.url, '--account', demo.accountId, '--workspace', demo.workspaceId, '--root', root];
});

afterAll(async () => {
  await service?.stop();
  rmSync(home, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

async function liveAssets(): Promise<Asset[]> {
  const assets: Asset[] = [];
  for (const id of demo.assetIds) assets.push((await dana.api<Asset>('GET', `/workspaces/assets/${id}`)).json);
  return assets.filter((a) => !a.deleted_at);
}

describe('a sync that is held back', () => {
  it('is left alone, and workspaces reset lets the next sync merge it without deleting anything', async () => {
    expect((await runCli(syncArgs, { env })).code).toBe(0);
    const assetsBefore = (await liveAssets()).length;

    // The marker goes, and the user changes things meanwhile.
    unlinkSync(join(workspaceDir(), '.assetsync'));
    unlinkSync(join(workspaceDir(), PALETTE));
    writeFileSync(join(workspaceDir(), 'new-notes.txt'), 'written while the marker was gone\n');
    const blocked = await runCli(syncArgs, { env });
    expect(blocked.code).not.toBe(0);
    expect(blocked.stdout + blocked.stderr).toContain(`asset-sync workspaces reset ${demo.workspaceId}`);
    expect((await liveAssets()).length).toBe(assetsBefore);

    const reset = await runCli(['workspaces', 'reset', demo.workspaceId, '--root', root], { env: { ASSET_SYNC_HOME: home } });
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain('nothing is deleted on either side');

    const merged = await runCli(syncArgs, { env });
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
    // The file removed while unguarded comes back instead of being deleted on the service.
    expect(existsSync(join(workspaceDir(), PALETTE))).toBe(true);
    expect((await liveAssets()).length).toBe(assetsBefore);
    expect(merged.stdout).toContain('uploaded new-notes.txt');
    expect(readFileSync(join(workspaceDir(), 'new-notes.txt'), 'utf8')).toBe('written while the marker was gone\n');
    expect(readdirSync(workspaceDir())).toContain('.assetsync');
    expect(existsSync(join(workspaceDir(), README))).toBe(true);

    const again = await runCli(syncArgs, { env });
    expect(again.code).toBe(0);
    expect(again.stdout).not.toMatch(/^(downloaded|uploaded|deleted|moved|created) /m);
  });

  it('reset of a workspace never synced into the folder says so and changes nothing', async () => {
    const other = mkdtempSync(join(tmpdir(), 'asset-sync-reset-other-'));
    try {
      const result = await runCli(['workspaces', 'reset', demo.workspaceId, '--root', other], { env: { ASSET_SYNC_HOME: home } });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Nothing was synced');
      expect(readdirSync(other)).toEqual([]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('status tells a sync held back by the mass-delete brake, and what to do, until it is resolved', async () => {
    expect((await runCli(syncArgs, { env })).code).toBe(0);
    const files = [...filesBelow(workspaceDir()).keys()];
    for (const rel of files.slice(0, Math.ceil(files.length * 0.7))) unlinkSync(join(workspaceDir(), ...rel.split('/')));
    expect((await runCli(syncArgs, { env })).code).toBe(1);

    const held = await runCli(['status', '--json', '--root', root], { env: { ASSET_SYNC_HOME: home } });
    const report = JSON.parse(held.stdout) as { state: string; workspaces: Array<{ problems: Array<{ path: string | null; code: string; hint?: string }> }> };
    expect(report.state).toBe('attention');
    const brake = report.workspaces[0]?.problems.find((p) => p.code === 'brake');
    expect(brake?.path).toBeNull();
    expect(brake?.hint).toContain('--allow-mass-delete');
    const words = await runCli(['status', '--root', root], { env: { ASSET_SYNC_HOME: home } });
    expect(words.stdout).toContain('State: needs attention');

    expect((await runCli([...syncArgs, '--allow-mass-delete'], { env })).code).toBe(0);
    const after = JSON.parse((await runCli(['status', '--json', '--root', root], { env: { ASSET_SYNC_HOME: home } })).stdout) as { state: string };
    expect(after.state).toBe('up-to-date');
  });
});
