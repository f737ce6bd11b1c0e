/**
 * Folders `asset-sync` refuses to sync into, run as a user would against the real local service:
 * the top of the disk, the home folder, system folders, Asset Sync's own folder, and folders
 * inside or around another sync root. Each is refused before anything is written, with why and
 * what to do, and exit code 2 (a usage mistake).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type DemoInfo, type RunningService } from '../../service/index.js';
import { runCli, type CliResult } from './cli-helpers.js';

let service: RunningService;
let demo: DemoInfo;
let base: string;
let state: string;
let env: Record<string, string>;
let serviceArgs: string[];

beforeAll(async () => {
  service = await startService();
  demo = await service.seedDemo();
  base = mkdtempSync(join(tmpdir(), 'asset-sync-roots-'));
  state = join(base, 'state');
  env = { ASSET_SYNC_HOME: state, ASSET_SYNC_API_KEY: demo.user.apiKey, ASSET_SYNC_API_SECRET: demo.user.apiSecret };
  serviceArgs = ['--base-url', service.url, '--account', demo.accountId, '--workspace', demo.workspaceId];
});

afterAll(async () => {
  await service?.stop();
  rmSync(base, { recursive: true, force: true });
});

const syncInto = (root: string, extraEnv: Record<string, string> = {}): Promise<CliResult> => runCli(['sync', '--once', ...serviceArgs, '--root', root], { env: { ...env, ...extraEnv } });

function expectRefused(result: CliResult, root: string, why: string): void {
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`${root} cannot be the sync folder: ${why}`);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stdout).not.toContain('Syncing');
}

describe('sync refuses an unsafe sync folder', () => {
  it('the top of the disk and system folders', async () => {
    expectRefused(await syncInto('/'), '/', 'it is the top of a disk');
    expectRefused(await syncInto('/etc'), '/etc', 'it is a system folder');
    expectRefused(await syncInto('/usr/share/assets'), '/usr/share/assets', 'it is inside the system folder /usr');
    expectRefused(await syncInto('/var'), '/var', 'it is a system folder');
    // Nothing was made for them: no index, no log.
    expect(existsSync(state) ? readdirSync(state).filter((name) => name.startsWith('index-')) : []).toEqual([]);
  });

  it('the home folder, and a folder holding it, and says where to sync instead', async () => {
    const home = join(base, 'people', 'me');
    mkdirSync(home, { recursive: true });
    const atHome = await syncInto(home, { HOME: home });
    expectRefused(atHome, home, 'it is your home folder');
    expect(atHome.stderr).toContain(`such as ${join(home, 'Asset Sync')}`);
    expectRefused(await syncInto(join(base, 'people'), { HOME: home }), join(base, 'people'), `it holds your home folder (${home})`);
    expectRefused(await syncInto(join(home, '.config', 'assets'), { HOME: home }), join(home, '.config', 'assets'), `it is inside ${join(home, '.config')}`);
    expect(readdirSync(home)).toEqual([]);
  });

  it("Asset Sync's own folder, or one holding it", async () => {
    expectRefused(await syncInto(join(state, 'Assets')), join(state, 'Assets'), `it is inside Asset Sync's own folder ${state}`);
    expectRefused(await syncInto(base), base, `it holds Asset Sync's own folder ${state}`);
  });

  it('a folder inside or around another sync root of this device', async () => {
    const outer = join(base, 'work', 'Assets');
    mkdirSync(outer, { recursive: true });
    const first = await syncInto(outer);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const workspaceDir = join(outer, 'Spring Campaign');
    expect(existsSync(join(workspaceDir, '.assetsync'))).toBe(true);

    const nested = await syncInto(workspaceDir);
    expectRefused(nested, workspaceDir, `it is inside ${outer}, which this device syncs too`);
    expect(nested.stderr).toContain('delete that index file first');
    expect(existsSync(join(workspaceDir, 'Spring Campaign'))).toBe(false);
    expectRefused(await syncInto(join(base, 'work')), join(base, 'work'), `it holds ${outer}, which this device syncs too`);
    // The same root again, however spelled, is not another one.
    expect((await syncInto(`${outer}/`)).code).toBe(0);

    // Given up: with its workspace folder gone, its stale index no longer stands in the way.
    rmSync(workspaceDir, { recursive: true, force: true });
    const around = await syncInto(join(base, 'work'));
    expect(around.stderr).toBe('');
    expect(around.code).toBe(0);
  });
});

describe('workspaces add and reset refuse an unsafe sync folder', () => {
  it('leave the config file as it was', async () => {
    const home = mkdtempSync(join(base, 'config-'));
    const added = await runCli(['workspaces', 'add', demo.workspaceId, '--root', '/'], { env: { ASSET_SYNC_HOME: home } });
    expectRefused(added, '/', 'it is the top of a disk');
    expect(existsSync(join(home, 'config.json'))).toBe(false);
    expectRefused(await runCli(['workspaces', 'reset', demo.workspaceId, '--root', '/etc'], { env: { ASSET_SYNC_HOME: home } }), '/etc', 'it is a system folder');
  });
});
