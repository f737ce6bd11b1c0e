/**
 * One Asset Sync engine in its own process, wired as the app wires it (index, service client,
 * silent logger, engine with default settings), so its time and peak RSS are its own.
 * Configured by the BENCH_ENGINE environment variable (JSON, see EngineChildConfig); answers in
 * JSON lines on stdout:
 *   mode "once":  init + syncOnce → { event: "synced", initSeconds, syncSeconds, report, rssMiB,
 *                 timeline, problems } (EngineSynced)
 *   mode "watch": the same, then `start()` → { event: "watching" }; on SIGTERM stops and answers
 *                 { event: "stopped", rssMiB }.
 */
import { SyncEngine } from '../../main/engine/engine.js';
import { openIndex } from '../../main/index/sync-index.js';
import { createLogger } from '../../main/logging.js';
import { MediaService } from '../../main/media/media-service.js';
import { ServiceClient } from '../../main/service-client/index.js';
import type { SyncReport } from '../../shared/engine.js';

export interface EngineChildConfig {
  mode: 'once' | 'watch';
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
}

const rssMiB = (): number => process.resourceUsage().maxRSS / 1024;
const cpuSeconds = (): number => {
  const { user, system } = process.cpuUsage();
  return Number(((user + system) / 1e6).toFixed(2));
};
const seconds = (since: bigint): number => Number(process.hrtime.bigint() - since) / 1e9;
const say = (value: object): void => void process.stdout.write(`${JSON.stringify(value)}\n`);

const config = JSON.parse(process.env.BENCH_ENGINE ?? '{}') as EngineChildConfig;
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
say({ event: 'synced', initSeconds, syncSeconds, report, rssMiB: syncRss, cpuSeconds: syncCpu, minorFaults: process.resourceUsage().minorPageFault, timeline: timeline.sort((a, b) => a[0] - b[0]), problems, ...(pictures ? { pictures } : {}) } satisfies EngineSynced);

if (config.mode === 'watch') {
  process.once('SIGTERM', () => {
    void close().then(() => {
      say({ event: 'stopped', rssMiB: rssMiB() });
      process.exit(0);
    });
  });
  await engine.start();
  say({ event: 'watching' });
} else {
  await close();
}
