/**
 * `npm run demo`: the local service with demo data (kept in a temporary folder), and the engine
 * syncing its workspace into ./AssetSync-demo, watching until Ctrl+C, so anyone can edit a file
 * and see a new version appear. `npm run demo -- --once` syncs once and exits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { Command } from 'commander';
import { startService } from '../service/index.js';
import { openSession } from '../main/bootstrap.js';
import { describeError } from '../main/cli/error-report.js';
import { print, printError } from '../main/cli/output.js';
import { syncOnce, watch } from '../main/cli/sync.js';

interface DemoOptions {
  once?: boolean;
  folder: string;
}

export async function runDemo(options: DemoOptions): Promise<number> {
  // The demo's index and logs live and die with the demo, away from a real installation's.
  const home = process.env.ASSET_SYNC_HOME ? null : mkdtempSync(join(tmpdir(), 'asset-sync-demo-home-'));
  if (home) process.env.ASSET_SYNC_HOME = home;
  const service = await startService();
  try {
    const demo = await service.seedDemo();
    const root = resolve(options.folder);
    const shown = relative(process.cwd(), root) || '.';
    print('Asset Sync demo');
    print(`  service:   ${service.url} (local, its data in a temporary folder)`);
    print(`  account:   ${demo.accountId}`);
    print(`  workspace: ${demo.workspaceId} (Spring Campaign)`);
    print(`  API key:   ${demo.user.apiKey}`);
    print(`  folder:    ${root}`);
    print();
    const session = await openSession({
      baseUrl: service.url,
      accountId: demo.accountId,
      root,
      workspaces: [{ id: demo.workspaceId }],
      credentials: { key: demo.user.apiKey, secret: demo.user.apiSecret },
      pollIntervalSeconds: 5,
    });
    try {
      if (options.once) return await syncOnce(session, { allowMassDelete: false, multipleWorkspaces: false });
      print('Try it:');
      print(`  edit a file in ./${shown}/Spring Campaign/ (e.g. Campaigns/Spring/brief.md) and watch a new version appear;`);
      print('  add a file there and it is uploaded as a new asset.');
      print();
      return await watch(session, { multipleWorkspaces: false });
    } finally {
      await session.close();
    }
  } finally {
    await service.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const program = new Command('npm run demo --')
    .description('Run the local service with demo data and sync it into a folder.')
    .option('--once', 'sync once and exit')
    .option('--folder <dir>', 'where to sync', 'AssetSync-demo')
    .parse();
  try {
    process.exitCode = await runDemo(program.opts<DemoOptions>());
  } catch (error) {
    printError(`demo: ${describeError(error).message}`);
    process.exitCode = 1;
  }
}

await main();
