/**
 * What every case gets: the sizes of this run (full or --quick), where to put things, the shared
 * service (started once, on first use), fixtures one case leaves for another, and a log.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceClient } from '../../main/service-client/index.js';
import { benchClient } from './api.js';
import type { ChildOptions } from './asset-sync.js';
import type { CaseResult } from './measure.js';
import { startServiceProcess, type ServiceProcess, type Tenant } from './service-process.js';

export interface Sizes {
  /** Cases 1 and 2: a tree of small files. */
  small: { files: number; folders: number; minBytes: number; maxBytes: number };
  /** Case 3: the tree that is rescanned, and how many rescans per tool (they are cheap). */
  rescan: { files: number; folders: number; minBytes: number; maxBytes: number; runs: number };
  /** Case 4: one large file, and a few medium ones. */
  large: { bytes: number };
  medium: { files: number; bytes: number };
  /** Case 5: samples of each kind; poll interval in seconds (absent: the default). */
  latency: { fileBytes: number; samples: number; pollSeconds?: number };
  /**
   * Case 6: workspaces of these many assets of `bytes` each, `perFolder` to a folder; the first
   * sync is a download up to `downloadUpTo` assets, above it a sync over the same files on disk.
   */
  scale: { assets: number[]; bytes: number; perFolder: number; downloadUpTo: number };
  /** Case 7: a tree of small files, synced with a service this many ms away. */
  wan: { files: number; folders: number; minBytes: number; maxBytes: number; latencyMs: number };
}

const KiB = 1024;
const MiB = 1024 * KiB;

export const FULL: Sizes = {
  small: { files: 10_000, folders: 200, minBytes: 4 * KiB, maxBytes: 64 * KiB },
  rescan: { files: 100_000, folders: 1_000, minBytes: 1 * KiB, maxBytes: 16 * KiB, runs: 5 },
  large: { bytes: 2048 * MiB },
  medium: { files: 3, bytes: 256 * MiB },
  latency: { fileBytes: 1 * MiB, samples: 20 },
  scale: { assets: [100_000, 1_000_000], bytes: 512, perFolder: 100, downloadUpTo: 100_000 },
  wan: { files: 1_000, folders: 20, minBytes: 4 * KiB, maxBytes: 64 * KiB, latencyMs: 50 },
};

export const QUICK: Sizes = {
  small: { files: 300, folders: 20, minBytes: 4 * KiB, maxBytes: 64 * KiB },
  rescan: { files: 5_000, folders: 100, minBytes: 1 * KiB, maxBytes: 16 * KiB, runs: 3 },
  large: { bytes: 64 * MiB },
  medium: { files: 3, bytes: 16 * MiB },
  latency: { fileBytes: 1 * MiB, samples: 2, pollSeconds: 5 },
  scale: { assets: [2_000], bytes: 512, perFolder: 50, downloadUpTo: 100_000 },
  wan: { files: 100, folders: 5, minBytes: 4 * KiB, maxBytes: 64 * KiB, latencyMs: 50 },
};

/** What can be measured; `--tools` picks some (Asset Sync always runs). */
export const TOOLS = ['curl', 'rclone', 'syncthing', 'find'] as const;
export type Tool = (typeof TOOLS)[number];

export interface SharedService {
  service: ServiceProcess;
  tenant: Tenant;
  client: ServiceClient;
}

export class BenchContext {
  /** Fixtures between cases, e.g. the workspace the upload case filled, reused by the download case. */
  readonly fixtures = new Map<string, unknown>();
  private shared: Promise<SharedService> | null = null;
  private counter = 0;

  constructor(
    readonly sizes: Sizes,
    readonly quick: boolean,
    readonly runs: number,
    /** This invocation's scratch folder (removed at the end unless --keep). */
    readonly runDir: string,
    /** Generated data sets, kept between invocations. */
    readonly setsDir: string,
    readonly profileDir: string | undefined,
    readonly log: (line: string) => void,
    private readonly trace: boolean,
    private readonly tools: ReadonlySet<Tool>,
  ) {}

  uses(tool: Tool): boolean {
    return this.tools.has(tool);
  }

  /** How Asset Sync children run: profiled (`--profile`), their timeline logged (`--trace`). */
  get child(): ChildOptions {
    return { profileDir: this.profileDir, ...(this.trace ? { trace: this.log } : {}) };
  }

  /** A fresh path below the run folder. */
  async scratch(name: string): Promise<string> {
    this.counter += 1;
    const path = join(this.runDir, `${String(this.counter).padStart(3, '0')}-${name}`);
    await mkdir(path, { recursive: true });
    return path;
  }

  /** The service with the demo tenant, started on first use. */
  service(): Promise<SharedService> {
    this.shared ??= (async () => {
      const service = await startServiceProcess({ dataDir: join(this.runDir, 'service'), demo: true, profileDir: this.profileDir });
      if (!service.tenant) throw new Error('the service printed no demo tenant');
      return { service, tenant: service.tenant, client: benchClient(service, service.tenant) };
    })();
    return this.shared;
  }

  async close(): Promise<void> {
    if (!this.shared) return;
    const { service, client } = await this.shared;
    await client.close();
    await service.stop();
  }
}

export type BenchCase = (ctx: BenchContext) => Promise<CaseResult>;

export async function removeDir(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true });
}

/** Bytes of a SQLite file with its WAL and shared-memory files. */
export async function sqliteBytes(file: string): Promise<number> {
  let total = 0;
  for (const suffix of ['', '-wal', '-shm']) total += await stat(`${file}${suffix}`).then((s) => s.size, () => 0);
  return total;
}
