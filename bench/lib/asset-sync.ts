/** Asset Sync's side of each comparison: the engine and the scanner run as child processes. */
import type { EngineChildConfig, EngineSynced } from '../children/engine.js';
import type { ScanChildConfig, ScanChildResult } from '../children/scan.js';
import { load1, type Run } from './measure.js';
import { runScript, ScriptChild } from './proc.js';
import type { ServiceProcess, Tenant } from './service-process.js';

export interface EngineTarget {
  service: ServiceProcess;
  tenant: Tenant;
  root: string;
  folder: string;
  indexPath: string;
  pollIntervalMs?: number | undefined;
  /** Draw thumbnails beside the sync, into this cache folder. */
  thumbnailsDir?: string | undefined;
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
    ...(target.pollIntervalMs !== undefined ? { pollIntervalMs: target.pollIntervalMs } : {}),
    ...(target.thumbnailsDir !== undefined ? { thumbnailsDir: target.thumbnailsDir } : {}),
  };
  return { ...process.env, BENCH_ENGINE: JSON.stringify(config) };
}

export interface ChildOptions {
  profileDir?: string | undefined;
  /** Gets the engine's timeline (phases, transfer window) after each run (`--trace`). */
  trace?: ((line: string) => void) | undefined;
}

/** `init()` + `syncOnce()` in a fresh process; the run's time is both together. */
export async function engineOnce(target: EngineTarget, options: ChildOptions = {}): Promise<{ run: Run; synced: EngineSynced }> {
  const synced = await runScript<EngineSynced>('bench/children/engine.ts', [], { env: engineEnv(target, 'once'), profileDir: options.profileDir });
  options.trace?.(`engine: init ${synced.initSeconds.toFixed(2)} s, CPU ${synced.cpuSeconds.toFixed(2)} s, ${synced.minorFaults} minor faults; ${synced.timeline.map(([t, what]) => `${t.toFixed(2)} ${what}`).join(' | ')}`);
  if (synced.problems.count > 0) options.trace?.(`engine: ${synced.problems.count} problems on the way, e.g. ${synced.problems.first.join(' / ')}`);
  const failed = synced.report.workspaces.reduce((n, w) => n + w.failed + w.problems.length, 0);
  if (!synced.report.ok || failed > 0) throw new Error(`the engine did not converge: ${JSON.stringify(synced.report).slice(0, 2000)}`);
  const at = (what: RegExp) => synced.timeline.find(([, label]) => what.test(label))?.[0];
  const first = at(/^first transfer$/);
  const last = at(/^last of \d+ transfers done$/);
  const transferSeconds = first !== undefined && last !== undefined ? last - first : undefined;
  return { run: { seconds: synced.initSeconds + synced.syncSeconds, rssMiB: synced.rssMiB, load: load1(), transferSeconds }, synced };
}

/** An engine that converged once and now watches and polls, until `stop()`. */
export async function engineWatching(target: EngineTarget, { profileDir }: ChildOptions = {}): Promise<{ synced: EngineSynced; stop(): Promise<number> }> {
  const child = new ScriptChild('bench/children/engine.ts', [], { env: engineEnv(target, 'watch'), profileDir });
  try {
    const synced = await child.next<EngineSynced>();
    await child.next<{ event: 'watching' }>();
    return {
      synced,
      async stop() {
        const stopped = await child.finish<{ rssMiB: number }>();
        await child.exit();
        return stopped.rssMiB;
      },
    };
  } catch (error) {
    child.kill();
    throw error;
  }
}

/** A process that scans the same folder on demand, as the engine rescans it every cycle. */
export class Scanner {
  private readonly child: ScriptChild;

  constructor(config: ScanChildConfig, { profileDir }: ChildOptions = {}) {
    this.child = new ScriptChild('bench/children/scan.ts', [], { env: { ...process.env, BENCH_SCAN: JSON.stringify(config) }, profileDir, stdin: true });
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

/** One scan in a fresh process (what a start of the app does first). */
export async function scanInFreshProcess(config: ScanChildConfig, options: ChildOptions = {}): Promise<{ run: Run; result: ScanChildResult }> {
  const scanner = new Scanner(config, options);
  try {
    return await scanner.scan();
  } finally {
    await scanner.close();
  }
}
