/**
 * `npm run soak`: the crash soak (two-way churn while the sync process is SIGKILLed at random
 * moments, at least 50 times) and the fault matrix (one run per kind of injected fault, and
 * one with all of them), each checked by test/helpers/verify.ts once converged. A CI-sized
 * part of it runs in `npm test` (test/hardening/soak.test.ts).
 *
 *   npm run soak                        a fresh seed (printed)
 *   npm run soak -- --seed 1234         replays the choices of that seed
 *   npm run soak -- --only crash|faults --kills 80
 *
 * Exits 1 when anything failed.
 */
import { Command, InvalidArgumentError } from 'commander';
import { crashSoak, faultMatrix, runFaultCell, type ChurnPlan, type FaultCellResult } from '../test/helpers/soak.js';

const MiB = 1024 * 1024;

const integer = (value: string): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number');
  return n;
};

const program = new Command('soak')
  .description('Crash soak and fault matrix for the sync engine')
  .option('--seed <n>', 'seed of every random choice (default: a fresh one, printed)', integer)
  .option('--kills <n>', 'SIGKILLs in the crash soak', integer, 50)
  .option('--only <part>', 'run only "crash" or "faults"')
  .parse();

const opts = program.opts<{ seed?: number; kills: number; only?: string }>();
if (opts.only !== undefined && opts.only !== 'crash' && opts.only !== 'faults') program.error('--only takes "crash" or "faults"');
const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
const log = (line: string): void => console.log(`  ${line}`);

/** Files from 64 bytes to 256 KiB, a fifth of them from 1 to 8 MiB. */
const churn: ChurnPlan = {
  demoAssets: 24,
  opsPerRun: [2, 6],
  spacingMs: 500,
  sizes: { largeShare: 0.2, largeMaxBytes: 8 * MiB, smallMaxBytes: 256 * 1024 },
};

console.log(`soak seed ${seed} (replay: npm run soak -- --seed ${seed})`);
const started = Date.now();
let failures = 0;

if (opts.only !== 'faults') {
  console.log(`\ncrash soak: ${opts.kills} kills with two-way churn`);
  const r = await crashSoak({ ...churn, seed, kills: opts.kills, killAfterMs: [200, 2500], bandwidthLimit: 4 * MiB, log });
  const local = r.churn.local;
  const remote = r.churn.remote;
  console.log(`\ncrash soak summary (seed ${r.seed})`);
  console.log(`  runs: ${r.runs} (${r.convergeRuns} of them to converge after the churn)`);
  const during = r.killedDuring;
  console.log(`  kills: ${r.kills} (journal at the kill: ${during.download} with a download open, ${during.upload} with an upload, ${during.other} other, ${during.nothing} empty)`);
  console.log(`  edits: ${r.edits.local} local, ${r.edits.remote} remote (${r.edits.superseded} overwritten or deleted by the user before the sync saw them, ${r.edits.unconfirmed} unconfirmed)`);
  console.log(`  local ops: ${local.create} creates, ${local.edit} edits, ${local.rename} renames, ${local.renameFolder} folder renames, ${local.delete} deletes`);
  console.log(`  remote ops: ${remote.upload} uploads, ${remote.version} versions, ${remote.move} renames/moves, ${remote.renameFolder} folder renames, ${remote.delete} soft deletes; ${r.churn.clashes} edits of one file on both sides at once; ${r.churn.skipped} ops lost a race`);
  const v = r.verified;
  console.log(`  files verified: ${v.files} (${v.conflictedCopies} conflicted copies); edits found: ${v.found}/${v.required}; versions checked: ${v.versions} of ${v.assets} assets`);
  console.log(`  failures: ${r.verified.failures.length}`);
  for (const f of r.verified.failures) console.log(`    - ${f}`);
  failures += r.verified.failures.length;
}

if (opts.only !== 'crash') {
  console.log('\nfault matrix');
  const results: FaultCellResult[] = [];
  for (const cell of faultMatrix(seed)) {
    results.push(await runFaultCell(cell, { ...churn, opsPerRun: [6, 10], seed, rounds: 5, log }));
  }
  const rows = [
    ['fault', 'runs', 'faults injected', 'files verified', 'edits found', 'failures'],
    ...results.map((r) => [r.name, String(r.runs), r.injected, String(r.verified.files), `${r.verified.found}/${r.verified.required}`, String(r.verified.failures.length)]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  console.log('');
  for (const row of rows) console.log(`  ${row.map((cellText, i) => cellText.padEnd(widths[i]!)).join('  ')}`);
  for (const r of results) for (const f of r.verified.failures) console.log(`    ${r.name}: ${f}`);
  failures += results.reduce((sum, r) => sum + r.verified.failures.length, 0);
}

console.log(`\nseed ${seed}, ${Math.round((Date.now() - started) / 1000)} s, failures: ${failures}`);
process.exitCode = failures === 0 ? 0 : 1;
