/**
 * Locks and conflicts from the command line, as two users at two computers go about them:
 * `asset-sync lock` makes the file read-only on the colleague's computer until `unlock`, a lock
 * someone else holds is refused with their name, and `status` lists a conflict with the command
 * that resolves it, which `asset-sync resolve --keep mine` then does.
 */
import { lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset } from '../../shared/api/index.js';
import { startService, type DemoInfo, type RunningService } from '../../service/index.js';
import { signIn, type Session } from '../helpers/service.js';
import { runCli, sha256 } from './cli-helpers.js';

interface Computer {
  env: Record<string, string>;
  root: string;
  dir: string;
  sync: string[];
}

let service: RunningService;
let demo: DemoInfo;
let dana: Session;
let rafael: Session;
let danasLaptop: Computer;
let rafaelsDesk: Computer;
const made: string[] = [];
const FILE = 'Docs/asset-naming.md';

function computer(who: { apiKey: string; apiSecret: string }): Computer {
  const home = mkdtempSync(join(tmpdir(), 'asset-sync-locks-home-'));
  const root = mkdtempSync(join(tmpdir(), 'asset-sync-locks-root-'));
  made.push(home, root);
  return {
    env: { ASSET_SYNC_HOME: home, ASSET_SYNC_API_KEY: who.apiKey, ASSET_SYNC_API_SECRET: who.apiSecret },
    root,
    dir: join(root, 'Spring Campaign'),
    sync: ['sync', '--once', '--base-url', service.url, '--account', demo.accountId, '--workspace', demo.workspaceId, '--root', root],
  };
}

const cli = async (on: Computer, args: string[]) => runCli(args, { env: on.env });
const writable = (on: Computer, rel: string): boolean => (lstatSync(join(on.dir, rel)).mode & 0o222) !== 0;
const assetAt = async (id: string): Promise<Asset> => (await dana.api<Asset>('GET', `/workspaces/assets/${id}`)).json;

beforeAll(async () => {
  service = await startService();
  demo = await service.seedDemo();
  dana = await signIn(service.url, { accountId: demo.accountId, workspaceId: demo.workspaceId, ...demo.user });
  rafael = await signIn(service.url, { accountId: demo.accountId, workspaceId: demo.workspaceId, ...demo.colleague });
  danasLaptop = computer(demo.user);
  rafaelsDesk = computer(demo.colleague);
  expect((await cli(danasLaptop, danasLaptop.sync)).code).toBe(0);
  expect((await cli(rafaelsDesk, rafaelsDesk.sync)).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await service?.stop();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

// Each test runs the real CLI several times over: on a busy machine that takes minutes, not seconds.
describe('asset-sync lock and unlock', { timeout: 180_000 }, () => {
  it("locks a file for its user: read-only on a colleague's computer, refused to the colleague, until it is unlocked", async () => {
    const locked = await cli(danasLaptop, ['lock', join(danasLaptop.dir, FILE)]);
    expect(locked.stderr).toBe('');
    expect(locked.code).toBe(0);
    expect(locked.stdout).toContain(`Locked ${FILE}: it is read-only for everyone else`);

    expect((await cli(rafaelsDesk, rafaelsDesk.sync)).code).toBe(0);
    expect(writable(rafaelsDesk, FILE)).toBe(false);
    const refused = await cli(rafaelsDesk, ['unlock', join(rafaelsDesk.dir, FILE)]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('asset-naming.md is locked by Dana Designer: only they can unlock it');

    const unlocked = await cli(danasLaptop, ['unlock', join(danasLaptop.dir, FILE)]);
    expect(unlocked.code).toBe(0);
    expect(unlocked.stdout).toContain(`Unlocked ${FILE}`);
    const synced = await cli(rafaelsDesk, rafaelsDesk.sync);
    expect(synced.code).toBe(0);
    expect(writable(rafaelsDesk, FILE)).toBe(true);
    expect(synced.stdout).toContain(`${FILE} is unlocked: you can edit it now`);
  });

  it('tells a viewer that their role does not allow locking, and whom to ask', async () => {
    expect((await dana.api('POST', `/workspaces/members/${demo.colleague.userId}`, { body: { roles: ['viewer'] } })).status).toBe(200);
    try {
      const refused = await cli(rafaelsDesk, ['lock', join(rafaelsDesk.dir, FILE)]);
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr).toContain('Your role in this workspace does not allow locking asset-naming.md: ask a workspace admin for the editor role.');
    } finally {
      expect((await dana.api('POST', `/workspaces/members/${demo.colleague.userId}`, { body: { roles: ['editor'] } })).status).toBe(200);
    }
  });

  it('says so for a file that is not synced', async () => {
    writeFileSync(join(danasLaptop.dir, 'not-yet.txt'), 'new\n');
    const refused = await cli(danasLaptop, ['lock', join(danasLaptop.dir, 'not-yet.txt')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('not-yet.txt is not synced yet');
    rmSync(join(danasLaptop.dir, 'not-yet.txt'));
  });
});

describe('asset-sync resolve', { timeout: 180_000 }, () => {
  it('is what status names for a conflict, and keep mine makes the edit the current version', async () => {
    const listing = await dana.api<{ assets: Array<{ id: string; file_name: string }> }>('GET', '/workspaces/folders/hierarchy');
    const target = listing.json.assets.find((a) => a.file_name === 'brief.md');
    if (!target) throw new Error('the demo has no brief.md');
    const path = 'Campaigns/Spring/brief.md';
    const mine = 'the laptop brief\n';
    writeFileSync(join(danasLaptop.dir, path), mine);
    const theirs = Buffer.from('the desk brief\n');
    const ticket = await rafael.api<{ key: string; signed_url: string }>('POST', `/workspaces/upload?file_name=brief.md&content_type=text/plain&checksum=${sha256(theirs)}&size=${theirs.length}`);
    expect((await fetch(ticket.json.signed_url, { method: 'PUT', body: theirs })).status).toBe(200);
    const current = await assetAt(target.id);
    expect((await rafael.api('POST', `/workspaces/assets/${target.id}/versions`, { body: { key: ticket.json.key, checksum: sha256(theirs), commit_parent_id: current.current_version_id } })).status).toBe(201);
    expect((await cli(danasLaptop, danasLaptop.sync)).code).toBe(0);

    const status = await cli(danasLaptop, ['status', '--root', danasLaptop.root]);
    expect(status.stdout).toContain('State: needs attention');
    const hint = status.stdout.split('\n').find((line) => line.includes('asset-sync resolve'));
    const copy = /asset-sync resolve "([^"]+)" --keep mine\|theirs\|both/.exec(hint ?? '')?.[1];
    expect(copy, status.stdout).toMatch(/brief \(conflicted copy .+\)\.md$/);
    const json = JSON.parse((await cli(danasLaptop, ['status', '--json', '--root', danasLaptop.root])).stdout) as { workspaces: Array<{ conflicts: Array<{ path: string }> }> };
    expect(json.workspaces[0]?.conflicts.map((c) => c.path)).toEqual([path]);

    const resolved = await cli(danasLaptop, ['resolve', copy as string, '--keep', 'mine']);
    expect(resolved.stderr).toBe('');
    expect(resolved.code).toBe(0);
    expect(resolved.stdout).toMatch(/Kept your version of Campaigns\/Spring\/brief\.md: it is version \d+ on the service\./);
    const after = await assetAt(target.id);
    expect(after.currentVersion?.checksum).toBe(sha256(Buffer.from(mine)));
    expect(readFileSync(join(danasLaptop.dir, path), 'utf8')).toBe(mine);
    expect((await cli(danasLaptop, ['status', '--root', danasLaptop.root])).stdout).toContain('State: up to date');

    const again = await cli(danasLaptop, ['resolve', join(danasLaptop.dir, path), '--keep', 'theirs']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('has no conflict waiting');
  });
});
