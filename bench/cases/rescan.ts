/**
 * Case 3, rescanning an unchanged tree of many files: the engine's scan path (`scanTree` with
 * the index's SQLite hash cache, warm: nothing is read), both in a long-running process (the
 * engine's steady state, one rescan per cycle) and in a fresh one (the first cycle after the app
 * starts), vs Syncthing's rescan of the same folder
 * (REST `POST /rest/db/scan`, timed until idle) vs `find -printf '%s %T@'` (the floor: one stat
 * per entry and nothing else). The first scans (everything hashed) are compared too.
 * Targets: within 3x of find (issue 5) and 2x (issue 3), faster than Syncthing, first scan
 * faster than Syncthing's.
 */
import { join } from 'node:path';
import { scanInFreshProcess, Scanner } from '../lib/asset-sync.js';
import type { BenchContext } from '../lib/context.js';
import { ensureTree } from '../lib/dataset.js';
import { medianSeconds, target, type CaseResult, type Row } from '../lib/measure.js';
import { runTimed } from '../lib/proc.js';
import { startSyncthing } from '../lib/syncthing.js';

const FOLDER_ID = 'bench-rescan';

export async function rescanCase(ctx: BenchContext): Promise<CaseResult> {
  const name = 'rescan';
  const { runs: rescans, ...spec } = ctx.sizes.rescan;
  const set = await ensureTree(join(ctx.setsDir, `rescan-${spec.files}`), spec);
  const scratch = await ctx.scratch('rescan');
  const scanConfig = { dir: set.dir, indexPath: join(scratch, 'index.db'), workspaceId: FOLDER_ID };
  const work = { files: set.files.length };
  const asFirst: Row = { case: name, tool: 'Asset Sync first scan (hash all)', runs: [], work, group: 'first' };
  const stFirst: Row = { case: name, tool: 'Syncthing first scan', runs: [], work, group: 'first' };
  const as: Row = { case: name, tool: 'Asset Sync rescan (engine process)', runs: [], work };
  const asFresh: Row = { case: name, tool: 'Asset Sync rescan (fresh process)', runs: [], work, group: 'fresh' };
  const st: Row = { case: name, tool: 'Syncthing rescan', runs: [], work };
  const find: Row = { case: name, tool: "find -printf '%s %T@'", runs: [], work };

  ctx.log('rescan: Asset Sync first scan');
  const first = await scanInFreshProcess(scanConfig, ctx.child);
  asFirst.runs.push(first.run);
  if (first.result.files !== set.files.length) throw new Error(`the scan found ${first.result.files} of ${set.files.length} files`);

  ctx.log('rescan: Syncthing first scan');
  const syncthing = await startSyncthing(join(scratch, 'syncthing'));
  const scanner = new Scanner(scanConfig, ctx.child);
  let hashed = 0;
  try {
    stFirst.runs.push({ ...(await syncthing.addFolder(FOLDER_ID, set.dir, set.files.length)), rssMiB: await syncthing.peakRssMiB() });
    // The engine process's first scan loads the hash cache and starts the scanner's workers, as
    // the app does once at start: the fresh-process row measures that. This row is the steady
    // state, so that scan is not timed.
    hashed = Math.max(hashed, (await scanner.scan()).result.hashed);
    // Rescans are cheap: a few more runs than the other cases steady the medians.
    const runs = Math.max(ctx.runs, rescans);
    for (let i = 0; i < runs; i += 1) {
      ctx.log(`rescan run ${i + 1}/${runs}`);
      const again = await scanner.scan();
      hashed = Math.max(hashed, again.result.hashed);
      as.runs.push(again.run);
      if (i < ctx.runs) {
        const fresh = await scanInFreshProcess(scanConfig, ctx.child);
        hashed = Math.max(hashed, fresh.result.hashed);
        asFresh.runs.push(fresh.run);
      }
      if (syncthing) st.runs.push({ ...(await syncthing.rescan(FOLDER_ID)), rssMiB: await syncthing.peakRssMiB() });
      if (ctx.uses('find')) find.runs.push(await runTimed('find', [set.dir, '-printf', '%s %T@\n']));
    }
  } finally {
    await scanner.close();
    await syncthing?.stop();
  }
  as.note = `hashed=${hashed}`;
  asFresh.note = find.runs.length > 0 ? `hashed=${hashed}; ${(medianSeconds(asFresh) / medianSeconds(find)).toFixed(1)}x find` : `hashed=${hashed}`;
  asFirst.note = `hashed=${first.result.hashed}`;

  const ratio = medianSeconds(as) / medianSeconds(find);
  const faster = (a: Row, b: Row) => ({ met: medianSeconds(a) < medianSeconds(b), detail: `${(medianSeconds(b) / medianSeconds(a)).toFixed(2)}x faster` });
  return {
    rows: [asFirst, stFirst, as, st, find, asFresh],
    targets: [
      ...target(name, 'rescan reads nothing (hashed=0)', [as], () => ({ met: hashed === 0, detail: `hashed=${hashed}` })),
      ...target(name, 'rescan within 3x of find (issue 5)', [as, find], () => ({ met: ratio <= 3, detail: `${ratio.toFixed(2)}x find` })),
      ...target(name, 'rescan within 2x of find (issue 3)', [as, find], () => ({ met: ratio <= 2, detail: `${ratio.toFixed(2)}x find` })),
      ...target(name, 'rescan faster than Syncthing', [as, st], () => faster(as, st)),
      ...target(name, 'first scan faster than Syncthing', [asFirst, stFirst], () => faster(asFirst, stFirst)),
    ],
  };
}
