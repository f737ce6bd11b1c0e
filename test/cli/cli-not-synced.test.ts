/**
 * Files the command line does not sync are said, with why and what to do, by `sync --once` and
 * again by `status`: a name other computers cannot hold, and a name that is not valid UTF-8
 * (which the listing used to read as U+FFFD, so that the file looked gone and nothing was said).
 * SEED=n replays the random names of a failed run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type DemoInfo, type RunningService } from '../../service/index.js';
import { Rng, testSeed } from '../helpers/rng.js';
import { runCli } from './cli-helpers.js';

const seed = testSeed('cli-not-synced');

let service: RunningService;
let demo: DemoInfo;
let home: string;
let root: string;
let env: Record<string, string>;
let serviceArgs: string[];

beforeAll(async () => {
  service = await startService();
  demo = await service.seedDemo({ assets: 2 });
  home = mkdtempSync(join(tmpdir(), 'asset-sync-not-synced-home-'));
  root = mkdtempSync(join(tmpdir(), 'asset-sync-not-synced-root-'));
  env = { ASSET_SYNC_HOME: home, ASSET_SYNC_API_KEY: demo.user.apiKey, ASSET_SYNC_API_SECRET: demo.user.apiSecret };
  serviceArgs = ['--base-url', service.url, '--account', demo.accountId, '--workspace', demo.workspaceId];
});

afterAll(async () => {
  await service?.stop();
  rmSync(home, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

describe('names that are not synced', () => {
  it('are listed by sync --once and by status, with the reason and a name to rename to, a name that is not valid UTF-8 too', async () => {
    const rng = new Rng(seed, 'cli');
    expect((await runCli(['sync', '--once', ...serviceArgs, '--root', root], { env })).code).toBe(0);
    const dir = join(root, 'Spring Campaign');
    // "café.txt" as a Latin-1 disk spells it, or one of rclone's test names.
    const [bytes, shown, suggested] = rng.pick([
      [Buffer.from('caf\xe9.txt', 'latin1'), 'caf\\xE9.txt', 'café.txt'],
      [Buffer.from('file3_\x81_\xfe', 'latin1'), 'file3_\\x81_\\xFE', 'file3___þ'],
    ] as const);
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), bytes]), 'saved on an old disk');
    writeFileSync(join(dir, 'what?.txt'), 'a name Windows refuses');

    const run = await runCli(['sync', '--once', ...serviceArgs, '--root', root], { env });
    expect(run.stderr).toBe('');
    // As for any name other computers cannot hold: listed, and the run is not "up to date".
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`"${shown}" is not synced: its name is not valid UTF-8`);
    expect(run.stdout).toContain(`Rename it, for example to "${suggested}", and it syncs.`);
    expect(run.stdout).toContain('"what?.txt" is not synced: its name contains "?"');
    expect(run.stdout).not.toContain('Everything is up to date');

    const status = await runCli(['status', '--root', root], { env: { ASSET_SYNC_HOME: home } });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`"${shown}" is not synced: its name is not valid UTF-8`);
    expect(status.stdout).toContain(`Rename it, for example to "${suggested}", and it syncs.`);
    expect(status.stdout).toContain('"what?.txt" is not synced');
  });
});
