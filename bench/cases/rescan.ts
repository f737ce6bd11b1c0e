/**
 * Case 3, a folder of many files that has not changed: what a start of Asset Sync costs when there
 * is nothing to do. The service holds the same files as the folder (children/seed-scale.ts).
 * - First sync over the folder: `asset-sync sync --once` with an empty index reads and hashes
 *   every file, finds each on the service with the same checksum and transfers nothing; beside
 *   Syncthing's first scan of the same folder (everything hashed).
 * - The no-op rescan: a fresh `asset-sync sync --once` on the synced folder, start to exit (start,
 *   list, scan, plan, exit), beside Syncthing's rescan (`POST /rest/db/scan`, timed until idle)
 *   and `find -printf '%s %T@'` (one stat per entry and nothing else: the floor).
 * - The scan alone in an engine that is already running, warm (statements prepared, hash cache
 *   and workers loaded): what each cycle of a running app costs. Labelled as such.
 * Each round takes the tools in another order.
 */
import { join } from 'node:path';
import { indexOf, Scanner, syncOnce, type SyncTarget } from '../lib/asset-sync.js';
import type { BenchContext } from '../lib/context.js';
import { medianSeconds, rotate, target, type CaseResult, type Row } from '../lib/measure.js';
import { runTimed } from '../lib/proc.js';
import { cell, formatSeconds, peer, peers } from '../lib/report.js';
import { seededWorkspace } from '../lib/seeded.js';
import { startSyncthing } from '../lib/syncthing.js';

const FOLDER_ID = 'bench-rescan';

export async function rescanCase(ctx: BenchContext): Promise<CaseResult> {
  const name = 'rescan';
  const { runs: rescans, ...spec } = ctx.sizes.rescan;
  const seeded = await seededWorkspace(ctx, name, spec);
  const dir = join(seeded.treeRoot, seeded.folder);
  const sync: SyncTarget = { service: seeded.service, tenant: seeded.tenant, root: seeded.treeRoot, folder: seeded.folder, home: await ctx.scratch('rescan-state') };
  const work = { files: spec.files };
  const asFirst: Row = { case: name, tool: 'Asset Sync first sync over the folder (sync --once, hash all)', runs: [], work, group: 'first' };
  const stFirst: Row = { case: name, tool: 'Syncthing first scan', runs: [], work, group: 'first' };
  const asFresh: Row = { case: name, tool: 'Asset Sync no-op (sync --once, fresh process)', runs: [], work };
  const st: Row = { case: name, tool: 'Syncthing rescan', runs: [], work };
  const find: Row = { case: name, tool: "find -printf '%s %T@'", runs: [], work };
  const asWarm: Row = { case: name, tool: 'Asset Sync scan alone, warm in-process', runs: [], work, group: 'warm' };

  const scratch = await ctx.scratch('rescan');
  const syncthing = ctx.uses('syncthing') ? await startSyncthing(join(scratch, 'syncthing')) : undefined;
  let scanner: Scanner | undefined;
  let hashed = 0;
  try {
    ctx.log('rescan: Asset Sync first sync over the folder');
    const first = await syncOnce(sync, ctx.child);
    asFirst.runs.push(first.run);
    noTransfers(first.counts, spec.files, 'the first sync');
    if (syncthing) {
      ctx.log('rescan: Syncthing first scan');
      stFirst.runs.push({ ...(await syncthing.addFolder(FOLDER_ID, dir, spec.files)), rssMiB: await syncthing.peakRssMiB() });
    }
    // On the index the first sync left: the scanner's own first scan (cache and workers loading,
    // as once at an app's start) is not timed; its later scans are the running engine's.
    scanner = new Scanner({ dir, indexPath: indexOf(sync), workspaceId: seeded.tenant.workspaceId }, ctx.child);
    hashed = (await scanner.scan()).result.hashed;
    const warmScanner = scanner;

    const tools: Array<(i: number) => Promise<void>> = [
      async () => {
        const again = await syncOnce(sync, ctx.child);
        noTransfers(again.counts, spec.files, 'a no-op sync');
        asFresh.runs.push(again.run);
      },
      async () => {
        if (syncthing) st.runs.push({ ...(await syncthing.rescan(FOLDER_ID)), rssMiB: await syncthing.peakRssMiB() });
      },
      async () => {
        if (ctx.uses('find')) find.runs.push(await runTimed('find', [dir, '-printf', '%s %T@\n']));
      },
      async () => {
        const again = await warmScanner.scan();
        hashed = Math.max(hashed, again.result.hashed);
        asWarm.runs.push(again.run);
      },
    ];
    // Rescans are cheap: a few more rounds than the other cases steady the medians.
    const rounds = Math.max(ctx.runs, rescans);
    for (let i = 0; i < rounds; i += 1) {
      ctx.log(`rescan round ${i + 1}/${rounds}`);
      for (const tool of rotate(tools, i)) await tool(i);
    }
  } finally {
    await scanner?.close();
    await syncthing?.stop();
    await seeded.service.stop();
  }
  asWarm.note = `hashed=${hashed}`;
  if (find.runs.length > 0) asFresh.note = `${(medianSeconds(asFresh) / medianSeconds(find)).toFixed(1)}x find`;

  const faster = (a: Row, b: Row) => ({ met: medianSeconds(a) < medianSeconds(b), detail: `${formatSeconds(medianSeconds(a))}, ${(medianSeconds(a) / medianSeconds(b)).toFixed(2)}x the time of ${b.tool}` });
  const ratio = (): number => medianSeconds(asWarm) / medianSeconds(find);
  return {
    rows: [asFirst, stFirst, asFresh, st, find, asWarm],
    targets: [
      ...target(name, 'no-op sync --once faster than a Syncthing rescan', [asFresh, st], () => faster(asFresh, st)),
      ...target(name, 'first sync faster than Syncthing\'s first scan', [asFirst, stFirst], () => faster(asFirst, stFirst)),
      ...target(name, 'warm scan reads nothing (hashed=0)', [asWarm], () => ({ met: hashed === 0, detail: `hashed=${hashed}` })),
      ...target(name, 'warm scan within 2x of find', [asWarm, find], () => ({ met: ratio() <= 2, detail: `${ratio().toFixed(2)}x find` })),
    ],
    summary: [
      {
        what: `no-op rescan, ${spec.files.toLocaleString('en')} files`,
        assetSync: `${cell(asFresh)} (sync --once, fresh process); scan alone, warm in-process: ${cell(asWarm, false)}`,
        peers: peers(['Syncthing rescan', st], ['find', find]),
      },
      {
        what: `first sync / first scan, ${spec.files.toLocaleString('en')} files`,
        assetSync: `${cell(asFirst)} (hashes every file)`,
        peers: peer('Syncthing first scan', stFirst),
      },
    ],
  };
}

function noTransfers(counts: { files: number; downloaded: number; uploaded: number }, files: number, what: string): void {
  if (counts.files !== files || counts.downloaded + counts.uploaded > 0) {
    throw new Error(`rescan: ${what} was not a no-op: ${counts.files} files, ${counts.downloaded} downloaded, ${counts.uploaded} uploaded`);
  }
}
