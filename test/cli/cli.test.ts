/**
 * The `asset-sync` command line, run as a child process against the real local service, on a
 * "bare machine": no config file, no keychain, credentials in the environment only.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset, AssetVersion } from '../helpers/served.js';
import { accountRef, KeychainSecretStore } from '../../main/secrets/secret-store.js';
import { signIn, type Session } from '../helpers/service.js';
import { startService, type DemoInfo, type RunningService } from '../../service/index.js';
import { filesBelow, runCli, sha256 } from './cli-helpers.js';
import { indexPathFor } from '../../main/config.js';
import { fromReviewRequest } from '../../main/engine/review-poller.js';
import { openIndex } from '../../main/index/sync-index.js';
import { ServiceClient } from '../../main/service-client/index.js';

let service: RunningService;
let demo: DemoInfo;
let dana: Session;
let home: string;
let root: string;
let env: Record<string, string>;
let serviceArgs: string[];

/** The demo as the service has it: path in the workspace → checksum of the current version. */
async function remoteFiles(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const id of demo.assetIds) {
    const asset = (await dana.api<Asset>('GET', `/workspaces/assets/${id}`)).json;
    const path = asset.file_location ? `${asset.file_location}/${asset.file_name}` : asset.file_name;
    out.set(path, asset.currentVersion?.checksum ?? '');
  }
  return out;
}

async function versionsOf(assetId: string): Promise<AssetVersion[]> {
  return (await dana.api<AssetVersion[]>('GET', `/workspaces/assets/${assetId}/versions`)).json;
}

/** The demo's fourth asset has four versions (1 + i % 4). */
const PALETTE = 'Brand/Colors/palette.ase';
const workspaceDir = (): string => join(root, 'Spring Campaign');

beforeAll(async () => {
  service = await startService();
  demo = await service.seedDemo();
  dana = await signIn(service.url, { accountId: demo.accountId, workspaceId: demo.workspaceId, ...demo.user });
  home = mkdtempSync(join(tmpdir(), 'asset-sync-cli-home-'));
  root = mkdtempSync(join(tmpdir(), 'asset-sync-cli-root-'));
  env = { ASSET_SYNC_HOME: home, ASSET_SYNC_API_KEY: demo.user.apiKey, ASSET_SYNC_API_SECRET: demo.user.apiSecret };
  serviceArgs = ['--base-url', service.url, '--account', demo.accountId];
});

afterAll(async () => {
  await service?.stop();
  rmSync(home, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

describe('asset-sync on a bare machine', () => {
  it('sync --once mirrors every demo asset and exits 0', async () => {
    const result = await runCli(['sync', '--once', ...serviceArgs, '--workspace', demo.workspaceId, '--root', root], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`downloaded ${PALETTE}`);
    expect(result.stdout).toContain('Everything is up to date.');
    expect(filesBelow(workspaceDir())).toEqual(await remoteFiles());
  });

  it('a second sync --once changes nothing', async () => {
    const before = statSync(join(workspaceDir(), PALETTE)).mtimeMs;
    const result = await runCli(['sync', '--once', ...serviceArgs, '--workspace', demo.workspaceId, '--root', root], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/^(downloaded|uploaded|deleted|moved|created) /m);
    expect(statSync(join(workspaceDir(), PALETTE)).mtimeMs).toBe(before);
    expect(filesBelow(workspaceDir())).toEqual(await remoteFiles());
  });

  it('status --json tells the last sync without syncing', async () => {
    const result = await runCli(['status', '--json', '--root', root], { env: { ASSET_SYNC_HOME: home } });
    expect(result.code).toBe(0);
    const status = JSON.parse(result.stdout) as { state: string; workspaces: Array<{ id: string; state: string; files: number; lastSyncAt: string | null; problems: unknown[] }>; activity: Array<{ kind: string; path: string }> };
    expect(status.state).toBe('up-to-date');
    expect(status.workspaces).toHaveLength(1);
    expect(status.workspaces[0]).toMatchObject({ id: demo.workspaceId, state: 'up-to-date', files: demo.assetIds.length, behind: 0, interrupted: 0, problems: [] });
    expect(status.workspaces[0]?.lastSyncAt).not.toBeNull();
    expect(status.activity.some((a) => a.kind === 'downloaded')).toBe(true);

    const human = await runCli(['status', '--root', root], { env: { ASSET_SYNC_HOME: home } });
    expect(human.stdout).toContain('State: up to date');
  });

  it('versions lists the versions of a local file, newest first, marking the current one', async () => {
    const remote = await versionsOf(demo.assetIds[3] ?? '');
    const file = join(workspaceDir(), PALETTE);
    // Only the credentials: the service and account come from what the sync remembered.
    const json = await runCli(['versions', file, '--json', '--root', root], { env });
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.stdout) as { versions: Array<{ number: number; checksum: string; current: boolean; local: boolean; parent: number | null }> };
    expect(listed.versions.map((v) => v.number)).toEqual([4, 3, 2, 1]);
    expect(listed.versions.map((v) => v.checksum)).toEqual([...remote].sort((a, b) => b.version_number - a.version_number).map((v) => v.checksum));
    expect(listed.versions[0]).toMatchObject({ current: true, local: true, parent: 3 });
    expect(listed.versions[3]).toMatchObject({ current: false, parent: null });

    const human = await runCli(['versions', file], { env });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Rafael Reviewer');
    expect(human.stdout).toContain('Dana Designer');
    for (const v of remote) expect(human.stdout).toContain(v.checksum.slice(0, 12));
  });

  it('restore --version 1 commits version 1 again as a new version and updates the local file', async () => {
    const file = join(workspaceDir(), PALETTE);
    const before = await versionsOf(demo.assetIds[3] ?? '');
    const v1 = before.find((v) => v.version_number === 1);
    const result = await runCli(['restore', file, '--version', '1', ...serviceArgs], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // The sync that brings the restored version down shows what it transfers.
    expect(result.stdout).toContain('Syncing Spring Campaign to bring it down');
    expect(result.stdout).toContain(`downloaded ${PALETTE}`);
    const after = await versionsOf(demo.assetIds[3] ?? '');
    expect(after).toHaveLength(before.length + 1);
    const newest = after.reduce((a, b) => (b.version_number > a.version_number ? b : a));
    expect(newest.version_number).toBe(5);
    expect(newest.checksum).toBe(v1?.checksum);
    expect(newest.commit_parent_id).toBe(before.find((v) => v.version_number === 4)?.id);
    expect(sha256(readFileSync(file))).toBe(v1?.checksum);
    // History is kept: every earlier version is still there.
    expect(after.filter((v) => !v.deleted).map((v) => v.version_number).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('save-version writes the exact bytes of a version and never overwrites a file', async () => {
    const file = join(workspaceDir(), PALETTE);
    const v2 = (await versionsOf(demo.assetIds[3] ?? '')).find((v) => v.version_number === 2);
    const target = join(home, 'palette-v2.ase');
    const saved = await runCli(['save-version', file, '--version', '2', '--to', target], { env });
    expect(saved.code).toBe(0);
    expect(sha256(readFileSync(target))).toBe(v2?.checksum);

    writeFileSync(target, 'mine');
    const refused = await runCli(['save-version', file, '--version', '3', '--to', target], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('already exists');
    expect(readFileSync(target, 'utf8')).toBe('mine');

    const forced = await runCli(['save-version', file, '--version', '2', '--to', target, '--force'], { env });
    expect(forced.code).toBe(0);
    expect(sha256(readFileSync(target))).toBe(v2?.checksum);

    // Never over the synced file itself, even with --force: that is what restore is for.
    const before = readFileSync(file);
    const itself = await runCli(['save-version', file, '--version', '2', '--to', file, '--force'], { env });
    expect(itself.code).toBe(2);
    expect(itself.stderr).toContain('asset-sync restore');
    expect(readFileSync(file)).toEqual(before);

    // A folder that is not there is named, in words.
    const nowhere = await runCli(['save-version', file, '--version', '2', '--to', join(home, 'no-such-folder', 'x.ase')], { env });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('no-such-folder does not exist');
    expect(nowhere.stderr).not.toContain('.part');
  });

  it('reviews lists the review requests and change requests of the demo', async () => {
    const json = await runCli(['reviews', '--json', ...serviceArgs], { env });
    expect(json.code).toBe(0);
    const reviews = JSON.parse(json.stdout) as { reviewRequests: Array<{ from: string; message: string }>; changeRequests: Array<{ status: string }> };
    expect(reviews.reviewRequests).toHaveLength(3);
    expect(reviews.reviewRequests.every((r) => r.from === 'Rafael Reviewer')).toBe(true);
    expect(reviews.changeRequests.map((c) => c.status)).toEqual(['rejected', 'rejected']);

    const human = await runCli(['reviews', ...serviceArgs], { env });
    expect(human.stdout).toContain('Review requests (3):');
    expect(human.stdout).toContain('Could you review this before Friday?');
  });

  it('reviews marks the requests not yet read in the app on this computer', async () => {
    type Listed = { reviewRequests: Array<{ message: string; read?: boolean }>; changeRequests: Array<{ read?: boolean }> };
    const before = JSON.parse((await runCli(['reviews', '--json', ...serviceArgs, '--root', root], { env })).stdout) as Listed;
    expect(before.reviewRequests.map((r) => r.read)).toEqual([false, false, false]);

    // "Mark as read" in the app writes the index of this sync folder.
    const client = new ServiceClient({ baseUrl: service.url, accountId: demo.accountId, credentials: { key: demo.user.apiKey, secret: demo.user.apiSecret } });
    const [first] = (await client.listReviewRequests()).map(fromReviewRequest);
    await client.close();
    const index = openIndex(indexPathFor(root, { ASSET_SYNC_HOME: home }));
    index.notifications.markItemsRead([first!]);
    index.close();

    const after = JSON.parse((await runCli(['reviews', '--json', ...serviceArgs, '--root', root], { env })).stdout) as Listed;
    expect(after.reviewRequests.filter((r) => r.read === true).map((r) => r.message)).toEqual([first!.message]);
    const human = await runCli(['reviews', ...serviceArgs, '--root', root], { env });
    expect(human.stdout.match(/\(new\)/g)).toHaveLength(2 + after.changeRequests.length);
  });

  it('without credentials, says how to provide them and exits 2', async () => {
    const result = await runCli(['sync', '--once', ...serviceArgs, '--workspace', demo.workspaceId, '--root', root], { env: { ASSET_SYNC_HOME: home } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ASSET_SYNC_API_KEY');
    expect(result.stderr).toContain('asset-sync login');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('with a wrong secret, says the key was rejected without printing any secret', async () => {
    const wrong = 'sk_wrong_0123456789abcdef';
    const result = await runCli(['sync', '--once', ...serviceArgs, '--workspace', demo.workspaceId, '--root', root], {
      env: { ...env, ASSET_SYNC_API_SECRET: wrong },
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('rejected the API key (401)');
    const output = result.stdout + result.stderr;
    expect(output).not.toContain(wrong);
    expect(output).not.toContain(demo.user.apiSecret);
    expect(output).not.toMatch(/\n\s+at /);
  });

  it('usage mistakes exit 2 with what to do', async () => {
    const noRoot = await runCli(['sync', '--once', ...serviceArgs, '--workspace', demo.workspaceId], { env });
    expect(noRoot.code).toBe(2);
    expect(noRoot.stderr).toContain('--root');
    const badRate = await runCli(['sync', '--once', ...serviceArgs, '--workspace', demo.workspaceId, '--root', root, '--bandwidth-limit', 'fast'], { env });
    expect(badRate.code).toBe(2);
    expect(badRate.stderr).toContain('--bandwidth-limit');
    const unknown = await runCli(['frobnicate'], { env });
    expect(unknown.code).toBe(2);
  });
});

describe('asset-sync with a config file', () => {
  it('login checks the key and saves the service, never the secret; workspaces add makes sync need no options', async () => {
    const configHome = mkdtempSync(join(tmpdir(), 'asset-sync-cli-config-'));
    // Beside Asset Sync's own folder, not in it: a sync folder there is refused.
    const syncRoot = join(mkdtempSync(join(tmpdir(), 'asset-sync-cli-config-root-')), 'AssetSync');
    try {
      const login = await runCli(['login', ...serviceArgs, '--key', demo.user.apiKey, '--secret', demo.user.apiSecret], { env: { ASSET_SYNC_HOME: configHome } });
      expect(login.stdout).toContain('Signed in as Dana Designer');
      // Stored in the keychain where there is one; otherwise told how to use the environment.
      if (login.code === 0) await new KeychainSecretStore().delete(accountRef(service.url, demo.accountId));
      else expect(login.stderr).toContain('ASSET_SYNC_API_SECRET');
      const config = readFileSync(join(configHome, 'config.json'), 'utf8');
      expect(JSON.parse(config)).toMatchObject({ baseUrl: service.url, accountId: demo.accountId });
      expect(config).not.toContain(demo.user.apiSecret);

      const configured = { ASSET_SYNC_HOME: configHome, ASSET_SYNC_API_KEY: demo.user.apiKey, ASSET_SYNC_API_SECRET: demo.user.apiSecret };
      const add = await runCli(['workspaces', 'add', demo.workspaceId, '--root', syncRoot, '--exclude', 'Photography'], { env: configured });
      expect(add.code).toBe(0);
      const list = await runCli(['workspaces', '--json'], { env: configured });
      expect(JSON.parse(list.stdout)).toEqual([{ id: demo.workspaceId, name: 'Spring Campaign', synced: true, folder: null, excluded: ['Photography'] }]);

      const sync = await runCli(['sync', '--once'], { env: configured });
      expect(sync.code).toBe(0);
      const local = filesBelow(join(syncRoot, 'Spring Campaign'));
      const expected = new Map([...(await remoteFiles())].filter(([path]) => !path.startsWith('Photography/')));
      expect(local).toEqual(expected);

      const remove = await runCli(['workspaces', 'remove', demo.workspaceId], { env: configured });
      expect(remove.code).toBe(0);
      expect(JSON.parse(readFileSync(join(configHome, 'config.json'), 'utf8'))).toMatchObject({ workspaces: [] });
    } finally {
      rmSync(configHome, { recursive: true, force: true });
      rmSync(dirname(syncRoot), { recursive: true, force: true });
    }
  });
});
