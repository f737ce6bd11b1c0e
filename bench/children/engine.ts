/**
 * One Asset Sync engine in its own process, wired as the app wires it (index, service client,
 * silent logger, engine with default settings), for what can only be measured inside a running
 * engine; everything else is timed as `asset-sync sync --once` (bench/lib/asset-sync.ts).
 * Configured by the BENCH_ENGINE environment variable (JSON, see EngineChildConfig); answers one
 * JSON line on stdout (EngineSynced):
 *   mode "once":   init + syncOnce, optionally with the app's media service drawing thumbnails;
 *   mode "cycles": the same, then `cycles` more syncOnce calls, each timed: the no-op cycle of an
 *                  engine that is already running, each a full rescan (no watcher runs); then the
 *                  engine is started (watching, as the app runs) and `cycles` idle polls are timed,
 *                  once the watcher vouches for the folder and they no longer walk it.
 */
import { SyncEngine } from '../../main/engine/engine.js';
import { growHeapSlowly } from '../../main/heap-growth.js';
import { openIndex } from '../../main/index/sync-index.js';
import { createLogger } from '../../main/logging.js';
import { MediaService } from '../../main/media/media-service.js';
import { ServiceClient } from '../../main/service-client/index.js';
import type { SyncReport } from '../../shared/engine.js';

export interface EngineChildConfig {
  mode: 'once' | 'cycles';
  baseUrl: string;
  accountId: string;
  key: string;
  secret: string;
  workspaceId: string;
  root: string;
  folder: string;
  indexPath: string;
  /** Absent: the engine's default. */
  pollIntervalMs?: number;
  /** Draw thumbnails of the files the sync brings down, as the app does, into this cache folder. */
  thumbnailsDir?: string;
  /** Mode "cycles": how many cycles after the first (default 3). */
  cycles?: number;
}

export interface EngineSynced {
  event: 'synced';
  initSeconds: number;
  syncSeconds: number;
  report: SyncReport;
  rssMiB: number;
  /** CPU seconds this process used (user + system, all its threads), init and sync together. */
  cpuSeconds: number;
  /**
   * Minor page faults of this process: memory it touched that was not mapped yet. On a VM that
   * hands freed pages back to its host each one may fault on the host too (bench/lib/settle.ts).
   */
  minorFaults: number;
  /** Where the time went: [seconds since start, what began] for each phase and the transfer window. */
  timeline: Array<[number, string]>;
  /** Problems reported on the way (even if a later round fixed them): count and the first few. */
  problems: { count: number; first: string[] };
  /** With thumbnails: seconds from the start until every file's grid picture existed, and how many. */
  pictures?: { doneSeconds: number; drawn: number; files: number; cacheMiB: number };
  /** Mode "cycles": seconds of each cycle after the first, and the peak RSS after them. */
  cycles?: { seconds: number[]; rssMiB: number };
  /**
   * Mode "cycles": the idle polls of the started engine that did not walk the folder (seconds,
   * CPU seconds each), how many cycles it took the watcher to be trusted, and the peak RSS after.
   */
  idle?: { seconds: number[]; cpuSeconds: number[]; warmup: number; rssMiB: number };
}

const rssMiB = (): number => process.resourceUsage().maxRSS / 1024;
const cpuSeconds = (): number => {
  const { user, system } = process.cpuUsage();
  return Number(((user + system) / 1e6).toFixed(2));
};
const seconds = (since: bigint): number => Number(process.hrtime.bigint() - since) / 1e9;
const say = (value: object): void => void process.stdout.write(`${JSON.stringify(value)}\n`);

const config = JSON.parse(process.env.BENCH_ENGINE ?? '{}') as EngineChildConfig;
// As openSession does for the app and the command line.
growHeapSlowly();
const index = openIndex(config.indexPath);
const client = new ServiceClient({ baseUrl: config.baseUrl, accountId: config.accountId, credentials: { key: config.key, secret: config.secret }, userAgent: 'asset-sync-bench' });
const engine = new SyncEngine({
  root: config.root,
  workspaces: [{ id: config.workspaceId, folder: config.folder }],
  index,
  client,
  logger: createLogger(),
  deviceName: 'bench',
  accountId: config.accountId,
  ...(config.pollIntervalMs !== undefined ? { pollIntervalMs: config.pollIntervalMs } : {}),
  ...transferLimits(process.env.BENCH_TRANSFERS),
});

/** `BENCH_TRANSFERS=8,4`: other transfer limits than the defaults, to compare them. */
function transferLimits(value: string | undefined): { maxDownloads?: number; maxUploads?: number } {
  const [down, up] = (value ?? '').split(',').map(Number);
  return { ...(down ? { maxDownloads: down } : {}), ...(up ? { maxUploads: up } : {}) };
}

const media = config.thumbnailsDir ? new MediaService({ dir: config.thumbnailsDir }) : null;
media?.use({ index, client, engine });

const started = process.hrtime.bigint();
const timeline: Array<[number, string]> = [];
const mark = (what: string): void => void timeline.push([Number(seconds(started).toFixed(3)), what]);
let lastState = '';
engine.on('status', (status) => {
  const state = status.workspaces[0]?.state ?? '';
  if (state !== lastState) mark((lastState = state));
});
const problems = { count: 0, first: [] as string[] };
engine.on('problem', (p) => {
  problems.count += 1;
  if (problems.first.length < 5) problems.first.push(`${p.kind} ${p.path ?? ''}: ${p.message}`);
});
const transfers = new Set<string>();
let lastTransferDone = 0;
engine.on('transfer', (t) => {
  if (t.state === 'active' && !transfers.has(t.id)) {
    transfers.add(t.id);
    if (transfers.size === 1) mark('first transfer');
  }
  if (t.state === 'done') lastTransferDone = seconds(started);
});

const close = async (): Promise<void> => {
  await media?.close();
  await engine.stop();
  await client.close();
  index.close();
};

await engine.init();
const initSeconds = seconds(started);
const syncStarted = process.hrtime.bigint();
const report = await engine.syncOnce();
const syncSeconds = seconds(syncStarted);
if (transfers.size > 0) timeline.push([Number(lastTransferDone.toFixed(3)), `last of ${transfers.size} transfers done`]);
mark('converged');
// Sync time and RSS are taken before waiting for the pictures: what the sync cost with them running beside it.
const syncRss = rssMiB();
const syncCpu = cpuSeconds();
let pictures: EngineSynced['pictures'];
if (media) {
  await media.idle();
  const files = [...index.base.load(config.workspaceId).files.values()];
  const drawn = files.filter((f) => media.hasPicture(f.checksum)).length;
  pictures = { doneSeconds: seconds(started), drawn, files: files.length, cacheMiB: Number((media.cache.totalBytes / 1024 / 1024).toFixed(1)) };
  mark(`${drawn} pictures drawn`);
}
let cycles: EngineSynced['cycles'];
let idle: EngineSynced['idle'];
if (config.mode === 'cycles') {
  const times: number[] = [];
  for (let i = 0; i < (config.cycles ?? 3); i += 1) {
    const cycleStarted = process.hrtime.bigint();
    const again = await engine.syncOnce();
    times.push(seconds(cycleStarted));
    const work = again.workspaces.reduce((n, w) => n + w.downloaded + w.uploaded + w.deleted + w.moved + w.conflicts, 0);
    if (work !== 0 || !again.ok) throw new Error(`cycle ${i + 2} was not a no-op: ${JSON.stringify(again).slice(0, 500)}`);
  }
  cycles = { seconds: times, rssMiB: rssMiB() };
  idle = await idlePolls(config.cycles ?? 3);
}

/**
 * The engine started as the app runs it, watching the folder; cycles run until the watcher is
 * ready and vouches for it (a cycle that skips its scan never reports "scanning"), then
 * `count` of those are timed.
 */
async function idlePolls(count: number): Promise<NonNullable<EngineSynced['idle']>> {
  let scanned = false;
  engine.on('status', (status) => {
    if (status.workspaces[0]?.state === 'scanning') scanned = true;
  });
  await engine.start();
  const seconds: number[] = [];
  const cpu: number[] = [];
  let warmup = 0;
  while (seconds.length < count) {
    scanned = false;
    const cycleStarted = process.hrtime.bigint();
    const cpuBefore = process.cpuUsage();
    const again = await engine.syncOnce();
    const took = Number(process.hrtime.bigint() - cycleStarted) / 1e9;
    const used = process.cpuUsage(cpuBefore);
    if (!again.ok) throw new Error(`an idle poll was not a no-op: ${JSON.stringify(again).slice(0, 500)}`);
    if (scanned) {
      warmup += 1;
      if (warmup > 60) throw new Error('the watcher never vouched for the folder: every idle poll walked it');
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    seconds.push(took);
    cpu.push(Number(((used.user + used.system) / 1e6).toFixed(3)));
  }
  return { seconds, cpuSeconds: cpu, warmup, rssMiB: rssMiB() };
}
say({ event: 'synced', initSeconds, syncSeconds, report, rssMiB: syncRss, cpuSeconds: syncCpu, minorFaults: process.resourceUsage().minorPageFault, timeline: timeline.sort((a, b) => a[0] - b[0]), problems, ...(pictures ? { pictures } : {}), ...(cycles ? { cycles } : {}), ...(idle ? { idle } : {}) } satisfies EngineSynced);
await close();
