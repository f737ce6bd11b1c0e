/**
 * A service of its own holding a large workspace whose files are also on disk (children/
 * seed-scale.ts): the rescan and scale cases. The tree is kept among the data sets and reused;
 * the service's folder is this run's.
 */
import { join } from 'node:path';
import type { SeedConfig, SeedResult, TreeSpec } from '../children/seed-scale.js';
import { builtChild } from './build.js';
import type { BenchContext } from './context.js';
import { runScript } from './proc.js';
import { startServiceProcess, type ServiceProcess, type Tenant } from './service-process.js';

export interface SeededWorkspace {
  service: ServiceProcess;
  tenant: Tenant & { userId: string };
  /** The tree's root: its files are in `<treeRoot>/ws`, as the workspace holds them. */
  treeRoot: string;
  folder: string;
  seed: SeedResult;
}

export async function seededWorkspace(ctx: BenchContext, name: string, tree: TreeSpec): Promise<SeededWorkspace> {
  const dataDir = await ctx.scratch(`${name}-service`);
  const treeRoot = join(ctx.setsDir, `tree-${tree.files}-${tree.folders}-${tree.minBytes}-${tree.maxBytes}`);
  ctx.log(`${name}: a tree of ${tree.files.toLocaleString('en')} files and a service holding them`);
  const config: SeedConfig = { dataDir, treeRoot, tree };
  const seed = await runScript<SeedResult>(builtChild('bench-seed'), [], { env: { ...process.env, BENCH_SEED: JSON.stringify(config) } });
  ctx.log(`${name}: tree ${seed.treeSeconds > 0 ? `made in ${seed.treeSeconds.toFixed(1)} s` : 'reused'}, service seeded in ${seed.serviceSeconds.toFixed(1)} s`);
  const service = await startServiceProcess({ dataDir, demo: false, profileDir: ctx.profileDir });
  return {
    service,
    tenant: { accountId: seed.accountId, workspaceId: seed.workspaceId, key: seed.key, secret: seed.secret, userId: seed.userId },
    treeRoot,
    folder: 'ws',
    seed,
  };
}
