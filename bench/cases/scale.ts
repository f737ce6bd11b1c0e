/**
 * Case 6, scale: a workspace of 100,000 assets (seeded with the service's domain functions
 * before it starts, see children/seed-scale.ts). The engine first downloads everything, then is
 * started again on the synced folder: start-up time (init + the first, no-op cycle), peak RSS,
 * and the index's size on disk.
 */
import { join } from 'node:path';
import type { SeedConfig, SeedResult } from '../children/seed-scale.js';
import { engineOnce } from '../lib/asset-sync.js';
import { sqliteBytes, type BenchContext } from '../lib/context.js';
import { MiB, medianRss, medianSeconds, type CaseResult, type Row } from '../lib/measure.js';
import { runScript } from '../lib/proc.js';
import { startServiceProcess } from '../lib/service-process.js';

export async function scaleCase(ctx: BenchContext): Promise<CaseResult> {
  const sizes = ctx.sizes.scale;
  const name = `scale ${sizes.assets.toLocaleString('en')} assets`;
  const dataDir = await ctx.scratch('scale-service');
  ctx.log(`scale: seeding ${sizes.assets} assets`);
  const seedConfig: SeedConfig = { dataDir, assets: sizes.assets, folders: sizes.folders, bytes: sizes.bytes };
  const seed = await runScript<SeedResult>('bench/children/seed-scale.ts', [], { env: { ...process.env, BENCH_SEED: JSON.stringify(seedConfig) } });
  const service = await startServiceProcess({ dataDir, demo: false, profileDir: ctx.profileDir });
  const tenant = { accountId: seed.accountId, workspaceId: seed.workspaceId, key: seed.key, secret: seed.secret };
  const root = await ctx.scratch('scale-root');
  const target = { service, tenant, root, folder: 'ws', indexPath: join(root, 'index.db') };
  const work = { files: sizes.assets };
  const initial: Row = { case: name, tool: 'Asset Sync initial download', runs: [], work };
  const startup: Row = { case: name, tool: 'Asset Sync start-up (init + no-op cycle)', runs: [], group: 'startup' };
  try {
    ctx.log('scale: initial download');
    const first = await engineOnce(target, ctx.child);
    initial.runs.push(first.run);
    const downloaded = first.synced.report.workspaces.reduce((n, w) => n + w.downloaded, 0);
    if (downloaded !== sizes.assets) throw new Error(`scale: ${downloaded} of ${sizes.assets} assets downloaded`);
    for (let i = 0; i < Math.max(ctx.runs, 2); i += 1) {
      ctx.log(`scale: start-up ${i + 1}`);
      const again = await engineOnce(target, ctx.child);
      const work = again.synced.report.workspaces.reduce((n, w) => n + w.downloaded + w.uploaded + w.deleted + w.moved + w.conflicts, 0);
      if (work !== 0) throw new Error(`scale: the start-up cycle was not a no-op (${work} actions)`);
      startup.runs.push(again.run);
      startup.note = `init ${again.synced.initSeconds.toFixed(2)} s + cycle ${again.synced.syncSeconds.toFixed(2)} s`;
    }
  } finally {
    await service.stop();
  }
  const indexBytes = await sqliteBytes(target.indexPath);
  return {
    rows: [initial, startup],
    targets: [],
    facts: [
      { case: name, what: 'service seeded (domain functions)', value: `${seed.seconds.toFixed(1)} s` },
      { case: name, what: 'index size on disk (db + wal + shm)', value: `${(indexBytes / MiB).toFixed(1)} MiB (${(indexBytes / sizes.assets).toFixed(0)} B/asset)` },
      { case: name, what: 'start-up: median time, peak RSS', value: `${medianSeconds(startup).toFixed(2)} s, ${(medianRss(startup) ?? 0).toFixed(0)} MiB` },
    ],
  };
}
