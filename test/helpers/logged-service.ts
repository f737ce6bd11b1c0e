/**
 * The service in its own process, as built, with its request log on (`service/cli.ts --log`), so a test
 * counts the requests an engine sent by route, from the service's own log, over real HTTP; and
 * one run of the app against it (its own index connection, client and engine, as a fresh
 * process has).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { SyncEngine, type EngineOptions } from '../../main/engine/engine.js';
import { openIndex, type SyncIndex } from '../../main/index/sync-index.js';
import { sanitizeName } from '../../main/local/paths.js';
import { createLogger, type Logger } from '../../main/logging.js';
import { ServiceClient } from '../../main/service-client/index.js';
import type { SyncReport } from '../../shared/engine.js';
import { RemoteActor, TEST_BACKOFF, TRASH_HOME, convergeWith } from './engine.js';

/** The service's command line as built (Vitest's global setup builds dist/node, test/build-first.ts). */
const SERVICE = fileURLToPath(new URL('../../dist/node/service.js', import.meta.url));
export const HIERARCHY = 'GET /workspaces/folders/hierarchy';
export const CHANGES = 'GET /workspaces/changes';

export interface CliInfo {
  base_url: string;
  account_id: string;
  workspace_id: string;
  api_key: string;
  api_secret: string;
  colleague: { api_key: string; api_secret: string };
}

export class LoggedService {
  private barriers = 0;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly info: CliInfo,
    /** In the order the service logged them, as "METHOD /path". */
    readonly requests: readonly string[],
    private readonly barrierSeen: Array<() => void>,
  ) {}

  static async start(): Promise<LoggedService> {
    const child = spawn(process.execPath, ['--enable-source-maps', SERVICE, '--port', '0', '--blob-port', '0', '--demo', '--json', '--log'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const requests: string[] = [];
    const barrierSeen: Array<() => void> = [];
    const info = await new Promise<CliInfo>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the service exited (${code}) before it listened`)));
      createInterface({ input: child.stdout }).on('line', (line) => {
        const record = parseLine(line);
        if (record && typeof record.base_url === 'string') resolve(record as unknown as CliInfo);
        const request = record && requestOf(record);
        if (request?.startsWith('GET /log-barrier-')) barrierSeen.shift()?.();
        else if (request) requests.push(request);
      });
    });
    return new LoggedService(child, info, requests, barrierSeen);
  }

  /** Every request sent before this call is in `requests` once it resolves (the log is in order). */
  async settled(): Promise<void> {
    const logged = new Promise<void>((resolve) => this.barrierSeen.push(resolve));
    await fetch(`${this.info.base_url}/log-barrier-${(this.barriers += 1)}`).then((res) => res.text());
    await logged;
  }

  /** How many requests of `route` were logged from index `from` on. */
  count(route: string, from = 0): number {
    return this.requests.slice(from).filter((r) => r === route).length;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

function parseLine(line: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function requestOf(record: Record<string, unknown>): string | null {
  const req = record.req as { method?: string; url?: string } | undefined;
  if (record.msg !== 'incoming request' || !req?.method || !req.url) return null;
  return `${req.method} ${req.url.split('?')[0]}`;
}

export class AppRun {
  private constructor(
    readonly index: SyncIndex,
    readonly client: ServiceClient,
    readonly engine: SyncEngine,
  ) {}

  static async start(
    service: LoggedService,
    home: string,
    options: { logger?: Logger; engine?: Pick<EngineOptions, 'fullListingIntervalMs'>; excluded?: string[] } = {},
  ): Promise<AppRun> {
    const { info } = service;
    const index = openIndex(join(home, 'index.db'), { backoff: TEST_BACKOFF });
    const client = new ServiceClient({ baseUrl: info.base_url, accountId: info.account_id, credentials: { key: info.api_key, secret: info.api_secret }, baseDelayMs: 20, maxDelayMs: 500 });
    const engine = new SyncEngine({
      root: join(home, 'root'),
      workspaces: [{ id: info.workspace_id, ...(options.excluded ? { excluded: options.excluded } : {}) }],
      index,
      client,
      logger: options.logger ?? createLogger(),
      deviceName: 'laptop',
      accountId: info.account_id,
      quietMs: 100,
      pollIntervalMs: 60_000,
      ...options.engine,
    });
    await engine.init();
    return new AppRun(index, client, engine);
  }

  converge(): Promise<{ report: SyncReport; runs: number }> {
    return convergeWith(() => this.engine.syncOnce(), { name: 'the engine' });
  }

  async stop(): Promise<void> {
    await this.engine.stop();
    await this.client.close();
    this.index.close();
  }
}

export interface LoggedWorld {
  service: LoggedService;
  /** The app's home: its index and its sync root (`<home>/root`). */
  home: string;
  /** The workspace's folder under the root. */
  dir: string;
  user: RemoteActor;
  colleague: RemoteActor;
}

/**
 * Per test: a logged service, an app home and the two demo users acting on the service.
 * `cleanup` runs newest first after each test; tests add their app runs to it.
 */
export function loggedWorlds(prefix: string): { setUp: () => Promise<LoggedWorld>; cleanup: Array<() => Promise<void>> } {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
    await rm(TRASH_HOME, { recursive: true, force: true });
  });
  const setUp = async (): Promise<LoggedWorld> => {
    const service = await LoggedService.start();
    cleanup.push(() => service.stop());
    const home = await mkdtemp(join(tmpdir(), prefix));
    cleanup.push(() => rm(home, { recursive: true, force: true }));
    await mkdir(join(home, 'root'));
    const { info } = service;
    const actor = (key: string, secret: string): RemoteActor => {
      const client = new ServiceClient({ baseUrl: info.base_url, accountId: info.account_id, credentials: { key, secret }, baseDelayMs: 20, maxDelayMs: 500 });
      cleanup.push(() => client.close());
      return new RemoteActor(client, info.workspace_id);
    };
    const user = actor(info.api_key, info.api_secret);
    const colleague = actor(info.colleague.api_key, info.colleague.api_secret);
    const name = (await user.client.getWorkspace(info.workspace_id)).name;
    return { service, home, dir: join(home, 'root', sanitizeName(name)), user, colleague };
  };
  return { setUp, cleanup };
}
