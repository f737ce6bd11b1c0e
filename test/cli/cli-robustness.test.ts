/**
 * The command line as scripts and impatient people use it: a second `asset-sync` on a root
 * being synced refuses to start (the lock goes with its process, even on SIGKILL); a root
 * reached through a symlink is the same root; a reader that closes the pipe early does not stop
 * a sync; a run against a mistyped service changes nothing the file commands rely on.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type DemoInfo, type RunningService } from '../../service/index.js';
import { CLI, runCli } from './cli-helpers.js';

let service: RunningService;
let demo: DemoInfo;
let home: string;
let root: string;
let env: Record<string, string>;
let serviceArgs: string[];
const children: ChildProcess[] = [];

beforeAll(async () => {
  service = await startService();
  demo = await service.seedDemo();
  home = mkdtempSync(join(tmpdir(), 'asset-sync-lock-home-'));
  root = mkdtempSync(join(tmpdir(), 'asset-sync-lock-root-'));
  env = { ASSET_SYNC_HOME: home, ASSET_SYNC_API_KEY: demo.user.apiKey, ASSET_SYNC_API_SECRET: demo.user.apiSecret };
  serviceArgs = ['--base-url', service.url, '--account', demo.accountId, '--workspace', demo.workspaceId];
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await service?.stop();
  rmSync(home, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

/** `asset-sync sync` watching `syncRoot`, resolved once it reports its first sync done. */
async function watching(syncRoot: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, 'sync', ...serviceArgs, '--root', syncRoot], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('up to date')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`sync exited (${String(code)}) before its first sync: ${out}`)));
  });
  return child;
}

describe('one sync per root', () => {
  it('a second sync of a root being synced refuses to start; after a SIGKILL of the first, it runs at once', async () => {
    const first = await watching(root);
    const second = await runCli(['sync', '--once', ...serviceArgs, '--root', root], { env });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`Another Asset Sync is already syncing ${root}`);
    const reset = await runCli(['workspaces', 'reset', demo.workspaceId, '--root', root], { env: { ASSET_SYNC_HOME: home } });
    expect(reset.code).toBe(1);
    expect(reset.stderr).toContain('Another Asset Sync is already syncing');

    first.kill('SIGKILL');
    await once(first, 'exit');
    const after = await runCli(['sync', '--once', ...serviceArgs, '--root', root], { env });
    expect(after.stderr).toBe('');
    expect(after.code).toBe(0);
  });

  it('a root reached through a symlink is the same root: same lock, same index, no marker clash', async () => {
    const link = join(home, 'linked-root');
    symlinkSync(root, link);
    const throughLink = await runCli(['sync', '--once', ...serviceArgs, '--root', link], { env });
    expect(throughLink.code).toBe(0);
    expect(throughLink.stdout).not.toMatch(/^downloaded /m);
    const direct = await runCli(['sync', '--once', ...serviceArgs, '--root', root], { env });
    expect(direct.code).toBe(0);
    expect(direct.stdout).toContain('Everything is up to date.');
  });
});

describe('a reader that leaves early', () => {
  it('does not stop the sync: every file is uploaded, and the exit code tells the result', async () => {
    const dir = join(root, 'Spring Campaign', 'Piped');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 10; i += 1) writeFileSync(join(dir, `note-${i}.txt`), `note ${i}\n`);
    utimesSync(dir, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    for (let i = 0; i < 10; i += 1) utimesSync(join(dir, `note-${i}.txt`), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    // `asset-sync sync --once | head -0`: the pipe's reader is gone before the first line.
    const child = spawn(process.execPath, [CLI, 'sync', '--once', ...serviceArgs, '--root', root], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.destroy();
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    const check = await runCli(['sync', '--once', ...serviceArgs, '--root', root], { env });
    expect(check.code).toBe(0);
    expect(check.stdout).not.toMatch(/^uploaded /m);
  });
});

describe('a run against a mistyped service', () => {
  it('fails without changing the service the file commands use', async () => {
    const bogus = await runCli(['sync', '--once', '--base-url', 'http://127.0.0.1:1', '--account', demo.accountId, '--workspace', demo.workspaceId, '--root', root], { env });
    expect(bogus.code).toBe(1);
    const versions = await runCli(['versions', join(root, 'Spring Campaign', 'README.txt')], { env });
    expect(versions.stderr).toBe('');
    expect(versions.code).toBe(0);
    expect(versions.stdout).toContain('README.txt in Spring Campaign');
  });
});

describe('mistyped ids and flags', () => {
  it('a workspace the service does not know is named in the error', async () => {
    for (const bogus of ['not-a-workspace', '00000000-0000-4000-8000-000000000000']) {
      const result = await runCli(['sync', '--once', '--base-url', service.url, '--account', demo.accountId, '--workspace', bogus, '--root', root], { env });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(`the workspace ${bogus} does not exist in this account`);
    }
  });

  it('a config file with a value of the wrong type is named with the field and the reason, and kept', async () => {
    const file = join(home, 'mistyped-config.json');
    const text = '{"root": 5}\n';
    writeFileSync(file, text);
    const result = await runCli(['status'], { env: { ...env, ASSET_SYNC_CONFIG: file } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`The config file ${file} is invalid at "root": Invalid input: expected string, received number. Fix or delete it.`);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});

describe('a service out of reach when sync starts', () => {
  it('is waited for instead of ending the sync, until Ctrl+C', async () => {
    const child = spawn(process.execPath, [CLI, 'sync', '--base-url', 'http://127.0.0.1:1', '--account', demo.accountId, '--workspace', demo.workspaceId, '--root', root], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const exited = once(child, 'exit');
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (out.includes('The service cannot be reached')) {
          clearInterval(timer);
          resolve();
        }
      }, 50);
      void exited.then(() => {
        clearInterval(timer);
        reject(new Error(`sync ended instead of waiting: ${out}`));
      });
    });
    expect(out).toContain('trying again in');
    child.kill('SIGINT');
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    expect(out).toContain('Stopped.');
  });
});

describe('what is left out by design', () => {
  it.runIf(process.platform !== 'win32')('a symbolic link is listed as not synced, and the sync still succeeds', async () => {
    const target = mkdtempSync(join(tmpdir(), 'asset-sync-link-target-'));
    writeFileSync(join(target, 'shared.psd'), 'elsewhere');
    const link = join(root, 'Spring Campaign', 'From the NAS');
    symlinkSync(target, link);
    try {
      const run = await runCli(['sync', '--once', ...serviceArgs, '--root', root], { env });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('not synced: "From the NAS" is a symbolic link');
      expect(run.stdout).toContain('Everything is up to date');
    } finally {
      rmSync(link);
      rmSync(target, { recursive: true, force: true });
    }
  });
});
