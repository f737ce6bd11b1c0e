/**
 * `asset-sync workspaces add <id>` asks the real local service whether the account has the
 * workspace: an id it does not have is refused, naming the ones it has; with the service out of
 * reach or no key on this computer, the workspace is added with a warning that it was not checked.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type DemoInfo, type RunningService } from '../../service/index.js';
import { runCli } from './cli-helpers.js';

let service: RunningService;
let demo: DemoInfo;
let base: string;
let credentials: Record<string, string>;

beforeAll(async () => {
  service = await startService();
  demo = await service.seedDemo();
  base = mkdtempSync(join(tmpdir(), 'asset-sync-ws-add-'));
  credentials = { ASSET_SYNC_API_KEY: demo.user.apiKey, ASSET_SYNC_API_SECRET: demo.user.apiSecret };
});

afterAll(async () => {
  await service?.stop();
  rmSync(base, { recursive: true, force: true });
});

const freshHome = (): string => mkdtempSync(join(base, 'home-'));
const configured = (home: string): { workspaces?: { id: string }[] } | null =>
  existsSync(join(home, 'config.json')) ? (JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as { workspaces?: { id: string }[] }) : null;

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('workspaces add', () => {
  it('adds a workspace the account has, by name', async () => {
    const home = freshHome();
    const result = await runCli(['workspaces', 'add', demo.workspaceId, '--base-url', service.url, '--account', demo.accountId], { env: { ASSET_SYNC_HOME: home, ...credentials } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Added workspace Spring Campaign (${demo.workspaceId}).`);
    expect(configured(home)?.workspaces).toEqual([{ id: demo.workspaceId, excluded: [] }]);
  });

  it('refuses an id the account does not have, naming it and the ids it has, and leaves the config alone', async () => {
    const home = freshHome();
    const env = { ASSET_SYNC_HOME: home, ...credentials };
    // The service and account come from the config file, as after `asset-sync login`.
    writeFileSync(join(home, 'config.json'), JSON.stringify({ baseUrl: service.url, accountId: demo.accountId }));
    expect((await runCli(['workspaces', 'add', demo.workspaceId], { env })).code).toBe(0);
    const before = readFileSync(join(home, 'config.json'), 'utf8');
    for (const wrong of [randomUUID(), 'spring-campaign']) {
      const result = await runCli(['workspaces', 'add', wrong], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`The account has no workspace ${wrong} that you can sync.`);
      expect(result.stderr).toContain(`Its workspaces: Spring Campaign (${demo.workspaceId}).`);
      expect(result.stderr).toContain('`asset-sync workspaces` lists them');
      expect(readFileSync(join(home, 'config.json'), 'utf8')).toBe(before);
    }
  });

  it('adds the workspace with a warning when the service cannot be reached', async () => {
    const home = freshHome();
    const id = randomUUID();
    const result = await runCli(['workspaces', 'add', id, '--base-url', `http://127.0.0.1:${await closedPort()}`, '--account', demo.accountId], {
      env: { ASSET_SYNC_HOME: home, ...credentials },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Added workspace ${id}.`);
    expect(result.stderr).toContain(`warning: workspace ${id} was not checked, because the service could not be reached`);
    expect(configured(home)?.workspaces?.map((w) => w.id)).toEqual([id]);
  });

  it('adds the workspace with a warning when there is no key or no service to ask', async () => {
    const home = freshHome();
    const noKey = await runCli(['workspaces', 'add', demo.workspaceId, '--base-url', service.url, '--account', demo.accountId], { env: { ASSET_SYNC_HOME: home } });
    expect(noKey.code).toBe(0);
    expect(noKey.stderr).toContain(`workspace ${demo.workspaceId} was not checked, because this computer has no API key for the account`);
    const other = randomUUID();
    const noService = await runCli(['workspaces', 'add', other], { env: { ASSET_SYNC_HOME: freshHome() } });
    expect(noService.code).toBe(0);
    expect(noService.stderr).toContain(`workspace ${other} was not checked, because no service or account is set`);
  });
});
