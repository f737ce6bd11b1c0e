/**
 * Asset Sync's side of each comparison, timed as the user meets it: `asset-sync sync --once`, the
 * built command line, in a process of its own from its start to its exit, under GNU time like the
 * peers (wall time, peak RSS, CPU seconds, minor page faults). Each run has a state folder of its
 * own (ASSET_SYNC_HOME: config file, index, logs) and the credentials in the environment, as on a
 * bare machine. What it prints is read line by line and timed, which gives the run's timeline from
 * the outside (`--trace`): when it had opened the index and started syncing, its states, the
 * first and last transfer, the summary.
 *
 * Two measurements are in-process by nature and run the engine in a child of ours instead: a no-op
 * cycle of an engine that is already running (`engineCycles`), and the scan alone (`Scanner`).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { EngineChildConfig, EngineSynced } from '../children/engine.js';
import type { ScanChildConfig, ScanChildResult } from '../children/scan.js';
import { indexPathFor } from '../../main/config.js';
import type { SyncReport } from '../../shared/engine.js';
import { builtChild } from './build.js';
import { load1, type Run } from './measure.js';
import { CLI_NODE_FLAGS, CLI_SCRIPT, ROOT, runScript, ScriptChild, TIME_BIN } from './proc.js';
import type { ServiceProcess, Tenant } from './service-process.js';

export interface SyncTarget {
  service: ServiceProcess;
  tenant: Tenant;
  /** The sync root: the workspace is synced into `<root>/<folder>`. */
  root: string;
  folder: string;
  /** This run's state folder (ASSET_SYNC_HOME): config file, index and logs. */
  home: string;
  /** `pollIntervalSeconds` of the config file (absent: the default). */
  pollSeconds?: number | undefined;
}

export interface ChildOptions {
  profileDir?: string | undefined;
  /** Gets each run's timeline (`--trace`). */
  trace?: ((line: string) => void) | undefined;
}

/** What `sync --once` reported it did, from its summary: the engine's report and the files synced. */
export type SyncCounts = Pick<SyncReport['workspaces'][number], 'downloaded' | 'uploaded' | 'deleted' | 'moved' | 'conflicts' | 'failed'> & { files: number };

export interface CliRun {
  run: Run;
  counts: SyncCounts;
  /** Seconds from the start until the command printed that it syncs: start-up, index opened. */
  startedSeconds: number | undefined;
}

/** The state folder of a run: a config file naming the service, the root and the workspace. */
function prepareHome(target: SyncTarget): NodeJS.ProcessEnv {
  mkdirSync(target.home, { recursive: true });
  mkdirSync(target.root, { recursive: true });
  const [downloads, uploads] = (process.env.BENCH_TRANSFERS ?? '').split(',').map(Number);
  const config = {
    baseUrl: target.service.baseUrl,
    accountId: target.tenant.accountId,
    root: target.root,
    deviceName: 'bench',
    workspaces: [{ id: target.tenant.workspaceId, folder: target.folder }],
    ...(target.pollSeconds !== undefined ? { pollIntervalSeconds: target.pollSeconds } : {}),
    ...(downloads ? { maxDownloads: downloads } : {}),
    ...(uploads ? { maxUploads: uploads } : {}),
  };
  writeFileSync(join(target.home, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('ASSET_SYNC_')) env[name] = value;
  return { ...env, ASSET_SYNC_HOME: target.home, ASSET_SYNC_API_KEY: target.tenant.key, ASSET_SYNC_API_SECRET: target.tenant.secret };
}

/** Where the run's index is (db; the WAL and shared-memory files beside it). */
export const indexOf = (target: SyncTarget): string => indexPathFor(target.root, { ASSET_SYNC_HOME: target.home });

/** The command's node flags as installed, and the profiler's. */
const nodeArgs = (profileDir: string | undefined): string[] => [...CLI_NODE_FLAGS, ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [])];

/** A line the command prints when a transfer is done (non-terminal output: one per file). */
const TRANSFERRED = /^(\[[^\]]*\] )?(downloaded|uploaded) /;

export function parseCounts(lines: readonly string[]): SyncCounts {
  const summary = [...lines].reverse().find((line) => /: \d+ files\b/.test(line)) ?? '';
  const count = (what: string): number => Number(new RegExp(`(\\d+) ${what}\\b`).exec(summary)?.[1] ?? 0);
  return {
    files: Number(/: (\d+) files\b/.exec(summary)?.[1] ?? 0),
    downloaded: count('downloaded'),
    uploaded: count('uploaded'),
    deleted: count('deleted'),
    moved: count('moved'),
    conflicts: count('conflict copies'),
    failed: count('failed'),
  };
}

/**
 * `asset-sync sync --once` from start to exit. Throws unless it exits 0 having said that
 * everything is up to date.
 */
export async function syncOnce(target: SyncTarget, options: ChildOptions = {}): Promise<CliRun> {
  const env = prepareHome(target);
  const timeFile = join(tmpdir(), `bench-time-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const start = process.hrtime.bigint();
  const child = spawn(TIME_BIN, ['-f', '%M %U %S %R', '-o', timeFile, process.execPath, ...nodeArgs(options.profileDir), CLI_SCRIPT, 'sync', '--once'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<[number, string]> = [];
  createInterface({ input: child.stdout }).on('line', (line) => lines.push([Number(process.hrtime.bigint() - start) / 1e9, line]));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const [code] = (await once(child, 'close')) as [number | null];
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const [kib, user, system, faults] = readFileSync(timeFile, 'utf8').trim().split('\n').pop()?.split(' ').map(Number) ?? [];
  rmSync(timeFile, { force: true });
  const text = lines.map(([, line]) => line);
  if (code !== 0 || !text.includes('Everything is up to date.')) {
    throw new Error(`asset-sync sync --once exited with ${String(code)}: ${[...text.slice(-15), stderr].join('\n').slice(-3000)}`);
  }
  const activity = lines.filter(([, line]) => TRANSFERRED.test(line));
  const first = activity[0]?.[0];
  const last = activity.at(-1)?.[0];
  const startedSeconds = lines.find(([, line]) => line.startsWith('Syncing '))?.[0];
  const cpuSeconds = (user ?? 0) + (system ?? 0);
  if (options.trace) {
    const marks: Array<[number, string]> = [
      ...(startedSeconds !== undefined ? [[startedSeconds, 'started syncing'] as [number, string]] : []),
      ...lines.filter(([, line]) => line.startsWith('status: ')),
      ...(first !== undefined && last !== undefined ? [[first, 'first transfer done'] as [number, string], [last, `last of ${activity.length} done`] as [number, string]] : []),
      [seconds, 'exit'],
    ];
    marks.sort((a, b) => a[0] - b[0]);
    options.trace(`asset-sync: ${marks.map(([t, what]) => `${t.toFixed(2)} ${what}`).join(' | ')}; CPU ${cpuSeconds.toFixed(2)} s, ${faults ?? '?'} minor faults`);
  }
  return {
    run: { seconds, rssMiB: kib !== undefined ? kib / 1024 : undefined, load: load1(), transferSeconds: first !== undefined && last !== undefined ? last - first : undefined, cpuSeconds },
    counts: parseCounts(text),
    startedSeconds,
  };
}

/** `asset-sync sync` watching (with `args`, e.g. `--ui 0`), its lines timed as they come; `stop()` ends it as Ctrl+C would. */
export class WatchingSync {
  private readonly lines: Array<{ at: bigint; text: string }> = [];
  private readonly waiters = new Set<() => void>();
  private readonly child;
  private readonly exited: Promise<number | null>;

  constructor(target: SyncTarget, options: ChildOptions = {}, args: string[] = []) {
    const env = prepareHome(target);
    this.child = spawn(process.execPath, [...nodeArgs(options.profileDir), CLI_SCRIPT, 'sync', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
    this.exited = once(this.child, 'exit').then(([code]) => code as number | null);
    createInterface({ input: this.child.stdout }).on('line', (text) => {
      this.lines.push({ at: process.hrtime.bigint(), text });
      for (const wake of this.waiters) wake();
    });
  }

  /** When a line matching `pattern` was first printed after `since` (waits for it, up to `timeoutMs`). */
  async lineAfter(since: bigint, pattern: RegExp, timeoutMs: number): Promise<bigint> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const seen = this.lines.find((line) => line.at >= since && pattern.test(line.text));
      if (seen) return seen.at;
      if (this.child.exitCode !== null) throw new Error(`asset-sync sync exited (${this.child.exitCode}) before printing ${pattern}`);
      if (Date.now() > deadline) throw new Error(`asset-sync sync printed nothing matching ${pattern} in ${timeoutMs / 1000} s`);
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, 1000);
        this.waiters.add(wake);
      });
    }
  }

  /** The text of the first line matching `pattern` printed so far. */
  firstLine(pattern: RegExp): string {
    const line = this.lines.find((l) => pattern.test(l.text.trim()));
    if (!line) throw new Error(`asset-sync sync has printed nothing matching ${pattern}`);
    return line.text.trim();
  }

  /** Peak RSS so far, MiB (VmHWM). */
  async peakRssMiB(): Promise<number | undefined> {
    const kib = Number(/VmHWM:\s+(\d+)/.exec(await readFile(`/proc/${this.child.pid}/status`, 'utf8').catch(() => ''))?.[1]);
    return Number.isFinite(kib) ? kib / 1024 : undefined;
  }

  /** SIGTERM (the command stops cleanly); resolves to its exit code. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 20_000);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}

export interface EngineTarget {
  service: ServiceProcess;
  tenant: Tenant;
  root: string;
  folder: string;
  indexPath: string;
  /** Draw thumbnails beside the sync, into this cache folder. */
  thumbnailsDir?: string | undefined;
  /** Mode "cycles": how many no-op cycles to time after the first one. */
  cycles?: number | undefined;
}

function engineEnv(target: EngineTarget, mode: EngineChildConfig['mode']): NodeJS.ProcessEnv {
  const config: EngineChildConfig = {
    mode,
    baseUrl: target.service.baseUrl,
    accountId: target.tenant.accountId,
    key: target.tenant.key,
    secret: target.tenant.secret,
    workspaceId: target.tenant.workspaceId,
    root: target.root,
    folder: target.folder,
    indexPath: target.indexPath,
    ...(target.thumbnailsDir !== undefined ? { thumbnailsDir: target.thumbnailsDir } : {}),
    ...(target.cycles !== undefined ? { cycles: target.cycles } : {}),
  };
  return { ...process.env, BENCH_ENGINE: JSON.stringify(config) };
}

/** The engine in a child of ours: `init()` + `syncOnce()` (and, in mode "cycles", more cycles). */
export async function engineInProcess(target: EngineTarget, mode: EngineChildConfig['mode'], options: ChildOptions = {}): Promise<{ run: Run; synced: EngineSynced }> {
  const synced = await runScript<EngineSynced>(builtChild('bench-engine'), [], { env: engineEnv(target, mode), profileDir: options.profileDir });
  options.trace?.(`engine: init ${synced.initSeconds.toFixed(2)} s, CPU ${synced.cpuSeconds.toFixed(2)} s, ${synced.minorFaults} minor faults; ${synced.timeline.map(([t, what]) => `${t.toFixed(2)} ${what}`).join(' | ')}`);
  if (synced.problems.count > 0) options.trace?.(`engine: ${synced.problems.count} problems on the way, e.g. ${synced.problems.first.join(' / ')}`);
  const failed = synced.report.workspaces.reduce((n, w) => n + w.failed + w.problems.length, 0);
  if (!synced.report.ok || failed > 0) throw new Error(`the engine did not converge: ${JSON.stringify(synced.report).slice(0, 2000)}`);
  const at = (what: RegExp) => synced.timeline.find(([, label]) => what.test(label))?.[0];
  const first = at(/^first transfer$/);
  const last = at(/^last of \d+ transfers done$/);
  const transferSeconds = first !== undefined && last !== undefined ? last - first : undefined;
  return { run: { seconds: synced.initSeconds + synced.syncSeconds, rssMiB: synced.rssMiB, load: load1(), transferSeconds, cpuSeconds: synced.cpuSeconds }, synced };
}

/** A process that scans the same folder on demand, as the engine rescans it every cycle. */
export class Scanner {
  private readonly child: ScriptChild;

  constructor(config: ScanChildConfig, { profileDir }: ChildOptions = {}) {
    this.child = new ScriptChild(builtChild('bench-scan'), [], { env: { ...process.env, BENCH_SCAN: JSON.stringify(config) }, profileDir, stdin: true });
  }

  async scan(): Promise<{ run: Run; result: ScanChildResult }> {
    this.child.send('scan');
    const result = await this.child.next<ScanChildResult>();
    return { run: { seconds: result.seconds, rssMiB: result.rssMiB, load: load1() }, result };
  }

  async close(): Promise<void> {
    this.child.endInput();
    await this.child.exit();
  }
}
