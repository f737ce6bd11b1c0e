/**
 * `asset-sync sync --once` on a workspace nothing changed in since the last run replays the quiet
 * cycle the index kept (main/engine/quiet-start.ts), as its debug log says, and a run after a
 * change syncs it: the real command line against the real local service.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type DemoInfo, type RunningService } from '../../service/index.js';
import { filesBelow, runCli } from './cli-helpers.js';

const REPLAYED = 'nothing changed since the quiet cycle the index kept';

let service: RunningService;
let demo: DemoInfo;
let dir: string;

beforeAll(async () => {
  service = await startService();
  demo = await service.seedDemo();
  dir = mkdtempSync(join(tmpdir(), 'cli-quiet-start-'));
});

afterAll(async () => {
  await service?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('sync --once, run again on an unchanged workspace', () => {
  it('replays the kept quiet cycle, and a run after an edit uploads it', async () => {
    const home = join(dir, 'home');
    const root = join(dir, 'root');
    const env = { ASSET_SYNC_HOME: home, ASSET_SYNC_API_KEY: demo.user.apiKey, ASSET_SYNC_API_SECRET: demo.user.apiSecret, ASSET_SYNC_LOG_LEVEL: 'debug' };
    const sync = async (): Promise<{ replays: number; stdout: string }> => {
      const result = await runCli(['sync', '--once', '--base-url', service.url, '--account', demo.accountId, '--workspace', demo.workspaceId, '--root', root], { env });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Everything is up to date.');
      return { replays: readFileSync(join(home, 'logs', 'asset-sync.1.log'), 'utf8').split(REPLAYED).length - 1, stdout: result.stdout };
    };
    expect((await sync()).replays).toBe(0);
    expect((await sync()).replays).toBe(1);
    expect((await sync()).replays).toBe(2);
    const folder = join(root, 'Spring Campaign');
    const [edited = ''] = [...filesBelow(folder).keys()];
    writeFileSync(join(folder, edited), 'edited while no sync ran\n');
    const afterEdit = await sync();
    expect(afterEdit.stdout).toContain(`uploaded ${edited}`);
    expect(afterEdit.replays).toBe(2);
    expect((await sync()).replays).toBe(3);
  });
});
