/**
 * Case 6, scale: a workspace of 100,000 and of 1,000,000 assets (512 bytes each, 100 to a folder),
 * generated straight into a service's database with the same files on disk
 * (children/seed-scale.ts). For each size:
 * - the first sync, which makes the synced state: up to `downloadUpTo` assets an initial download
 *   into an empty folder (`asset-sync sync --once`), above it a first sync over the same files
 *   already on disk (hash all, nothing to transfer: a million small downloads, each fsynced,
 *   would take most of an hour and measure the disk);
 * - start-up to "up to date": a fresh `asset-sync sync --once` on the synced folder, start to
 *   exit, with its peak RSS;
 * - the index's size on disk;
 * - a no-op cycle of an engine already running (in-process, warm, a full rescan: no watcher);
 * - an idle poll of a started engine whose watcher vouches for the folder (in-process): what
 *   each poll of the app costs between the full rescans (main/engine/scan-trust.ts).
 * The targets are those set for the memory redesign.
 */
import { join } from 'node:path';
import { engineInProcess, indexOf, syncOnce, type SyncCounts, type SyncTarget } from '../lib/asset-sync.js';
import { sqliteBytes, type BenchContext } from '../lib/context.js';
import { MiB, median, medianRss, medianSeconds, target, type CaseResult, type Row, type Run } from '../lib/measure.js';
import { cell, formatSeconds } from '../lib/report.js';
import { seededWorkspace } from '../lib/seeded.js';

interface Goal {
  rssMiB: number;
  startupSeconds: number;
  indexMiB: number;
  cycleSeconds: number;
}

/** The targets per size; sizes without one are measured only. */
const GOALS: Record<number, Goal> = {
  100_000: { rssMiB: 150, startupSeconds: 1, indexMiB: 40, cycleSeconds: 0.5 },
  1_000_000: { rssMiB: 600, startupSeconds: 8, indexMiB: 400, cycleSeconds: 4 },
};

/** The initial download of 100,000 small assets: its peak RSS. */
const DOWNLOAD_RSS_MIB = 300;

export async function scaleCase(ctx: BenchContext): Promise<CaseResult> {
  const results: CaseResult[] = [];
  for (const assets of ctx.sizes.scale.assets) results.push(await scaleOf(ctx, assets));
  return {
    rows: results.flatMap((r) => r.rows),
    targets: results.flatMap((r) => r.targets),
    facts: results.flatMap((r) => r.facts ?? []),
    summary: results.flatMap((r) => r.summary ?? []),
    failures: results.flatMap((r) => r.failures ?? []),
  };
}

async function scaleOf(ctx: BenchContext, assets: number): Promise<CaseResult> {
  const { bytes, perFolder, downloadUpTo } = ctx.sizes.scale;
  const count = assets.toLocaleString('en');
  const name = `scale ${count} assets`;
  const seeded = await seededWorkspace(ctx, `scale-${assets}`, { files: assets, folders: Math.max(1, Math.round(assets / perFolder)), minBytes: bytes, maxBytes: bytes });
  const download = assets <= downloadUpTo;
  const scratch = await ctx.scratch(`scale-${assets}`);
  const sync: SyncTarget = {
    service: seeded.service,
    tenant: seeded.tenant,
    root: download ? join(scratch, 'root') : seeded.treeRoot,
    folder: seeded.folder,
    home: join(scratch, 'state'),
  };
  const work = { files: assets };
  const first: Row = {
    case: name,
    tool: download ? 'Asset Sync initial download (sync --once)' : 'Asset Sync first sync over the same files on disk (sync --once, hash all)',
    runs: [],
    work,
    group: 'first',
  };
  const startup: Row = { case: name, tool: 'Asset Sync start-up to up to date (sync --once, nothing to do)', runs: [], group: 'startup' };
  const cycle: Row = { case: name, tool: 'Asset Sync no-op cycle, warm in-process (full rescan)', runs: [], group: 'cycle' };
  const idle: Row = { case: name, tool: 'Asset Sync idle poll, watching engine in-process (the watcher vouches)', runs: [], group: 'idle' };
  const started: number[] = [];
  // A phase that fails (a larger size may exhaust the machine) keeps the figures measured before it.
  const failures: string[] = [];
  try {
    ctx.log(`${name}: ${first.tool}`);
    const made = await syncOnce(sync, ctx.child);
    first.runs.push(made.run);
    const expected = download ? made.counts.downloaded : made.counts.files;
    if (expected !== assets || (!download && made.counts.downloaded + made.counts.uploaded > 0)) throw new Error(`${name}: the first sync ended with ${describe(made.counts)}`);
    for (let i = 0; i < Math.max(ctx.runs, 3); i += 1) {
      ctx.log(`${name}: start-up ${i + 1}`);
      const again = await syncOnce(sync, ctx.child);
      if (again.counts.files !== assets || transfers(again.counts) > 0) throw new Error(`${name}: the start-up was not a no-op: ${describe(again.counts)}`);
      startup.runs.push(again.run);
      if (again.startedSeconds !== undefined) started.push(again.startedSeconds);
    }
    ctx.log(`${name}: no-op cycles of a running engine`);
    const engine = await engineInProcess({ service: seeded.service, tenant: seeded.tenant, root: sync.root, folder: sync.folder, indexPath: indexOf(sync), cycles: 3 }, 'cycles', ctx.child);
    const cycles = engine.synced.cycles;
    if (!cycles) throw new Error(`${name}: the engine timed no cycles`);
    cycle.runs.push(...cycles.seconds.map((seconds): Run => ({ seconds, rssMiB: cycles.rssMiB, load: engine.run.load })));
    cycle.note = `its start-up in-process: init ${engine.synced.initSeconds.toFixed(2)} s + first cycle ${engine.synced.syncSeconds.toFixed(2)} s`;
    const polls = engine.synced.idle;
    if (!polls) throw new Error(`${name}: the engine timed no idle polls`);
    idle.runs.push(...polls.seconds.map((seconds, i): Run => ({ seconds, rssMiB: polls.rssMiB, load: engine.run.load, cpuSeconds: polls.cpuSeconds[i] })));
    idle.note = `after ${polls.warmup} cycle(s) that walked the folder while the watcher started`;
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    ctx.log(`${name}: FAILED: ${message}`);
    failures.push(`${name}: ${message}`);
  } finally {
    await seeded.service.stop();
  }
  if (started.length > 0) startup.note = `syncing began after ${formatSeconds(median(started))} (index opened)`;
  const indexBytes = await sqliteBytes(indexOf(sync));
  const indexMiB = indexBytes / MiB;
  const goal = GOALS[assets];
  const targets = goal
    ? [
        ...target(name, `start-up peak RSS ≤ ${goal.rssMiB} MiB`, [startup], () => ({ met: (medianRss(startup) ?? Infinity) <= goal.rssMiB, detail: `${(medianRss(startup) ?? 0).toFixed(0)} MiB` })),
        ...target(name, `start-up to up to date ≤ ${goal.startupSeconds} s`, [startup], () => ({ met: medianSeconds(startup) <= goal.startupSeconds, detail: formatSeconds(medianSeconds(startup)) })),
        ...target(name, `index on disk ≤ ${goal.indexMiB} MiB`, [first], () => ({ met: indexMiB <= goal.indexMiB, detail: `${indexMiB.toFixed(1)} MiB` })),
        ...target(name, `idle poll ≤ ${goal.cycleSeconds} s`, [idle], () => ({ met: medianSeconds(idle) <= goal.cycleSeconds, detail: formatSeconds(medianSeconds(idle)) })),
        ...(download && assets === 100_000
          ? target(name, `initial download peak RSS < ${DOWNLOAD_RSS_MIB} MiB`, [first], () => ({ met: (medianRss(first) ?? Infinity) < DOWNLOAD_RSS_MIB, detail: `${(medianRss(first) ?? 0).toFixed(0)} MiB` }))
          : []),
      ]
    : [];
  return {
    rows: [first, startup, cycle, idle].filter((row) => row.runs.length > 0),
    targets,
    failures,
    facts: [
      { case: name, what: 'tree on disk', value: seeded.seed.treeSeconds > 0 ? `generated in ${seeded.seed.treeSeconds.toFixed(1)} s` : 'reused from the data sets' },
      { case: name, what: 'service seeded (one transaction, prepared statements, blobs hard-linked)', value: `${seeded.seed.serviceSeconds.toFixed(1)} s` },
      { case: name, what: 'index size on disk (db + wal + shm)', value: `${indexMiB.toFixed(1)} MiB (${(indexBytes / assets).toFixed(0)} B/asset)` },
    ],
    summary: [
      {
        what: `${count} assets: ${download ? 'initial download' : 'first sync over the same files on disk'}`,
        assetSync: cell(first),
        peers: '',
      },
      {
        what: `${count} assets: start-up to up to date / index on disk / no-op cycle (warm, in-process, full rescan) / idle poll (watching)`,
        assetSync: `${cell(startup)} / ${indexMiB.toFixed(1)} MiB / ${cell(cycle, false)} / ${cell(idle, false)}`,
        peers: '',
      },
    ],
  };
}

const transfers = (c: SyncCounts): number => c.downloaded + c.uploaded + c.deleted + c.moved + c.conflicts;
const describe = (c: SyncCounts): string => `${c.files} files, ${c.downloaded} downloaded, ${c.uploaded} uploaded, ${c.deleted} deleted, ${c.moved} moved, ${c.conflicts} conflict copies, ${c.failed} failed`;
