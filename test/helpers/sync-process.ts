/**
 * A sync run in a child process (sync-child.ts) that the caller may SIGKILL at any moment:
 * what kill -9 tests and the crash soak are made of.
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SyncReport } from '../../shared/engine.js';
import { childArgs } from './children.js';
import { TEST_BACKOFF, type World } from './engine.js';
import type { SyncChildConfig } from './sync-child.js';

export interface ChildRun {
  outcome: 'killed' | 'exited';
  code: number | null;
  report: SyncReport | null;
  stderr: string;
}

/**
 * Runs one sync in a child process; SIGKILLs it as soon as `killWhen` says so (if it is still
 * running). `killWhen` is asked every 25 ms.
 */
export async function runChild(config: SyncChildConfig, killWhen: () => Promise<boolean>): Promise<ChildRun> {
  const child = spawn(process.execPath, childArgs('sync-child'), {
    env: { ...process.env, SYNC_CHILD: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let running = true;
  void exited.then(() => (running = false));
  while (running) {
    if (await killWhen()) {
      child.kill('SIGKILL');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const { code, signal } = await exited;
  const line = stdout.trim().split('\n').pop() ?? '';
  return { outcome: signal === 'SIGKILL' ? 'killed' : 'exited', code, report: line.startsWith('{') ? (JSON.parse(line) as SyncReport) : null, stderr };
}

/** True from `ms` after its first call, i.e. after the child started. */
export const after = (ms: number): (() => Promise<boolean>) => {
  let at: number | undefined;
  return () => {
    at ??= Date.now() + ms;
    return Promise.resolve(Date.now() >= at);
  };
};

export const never = (): Promise<boolean> => Promise.resolve(false);

/** One sync in a child left to finish, for `convergeWith`: its report; a crashed child is an error. */
export async function childSync(config: SyncChildConfig): Promise<SyncReport> {
  const run = await runChild(config, never);
  if (run.report === null || (run.code !== 0 && run.code !== 2)) throw new Error(`the sync process failed (exit ${run.code}): ${run.stderr}`);
  return run.report;
}

/** The child's settings for the world's demo user, its root and index under `<home>/<device>/`. */
export async function childConfig(w: World, options: { device?: string; bandwidthLimit?: number } = {}): Promise<SyncChildConfig> {
  const device = options.device ?? 'child';
  const root = join(w.home, device, 'root');
  await mkdir(root, { recursive: true });
  return {
    baseUrl: w.service.url,
    accountId: w.demo.accountId,
    key: w.demo.user.apiKey,
    secret: w.demo.user.apiSecret,
    workspaceId: w.workspaceId,
    root,
    indexFile: join(w.home, device, 'index.db'),
    deviceName: 'killed-laptop',
    ...(options.bandwidthLimit ? { bandwidthLimit: options.bandwidthLimit } : {}),
    backoff: TEST_BACKOFF,
  };
}
