/**
 * `npm run bench -- [--quick] [--only upload,download,large,rescan,latency,scale,wan,media] [--tools curl,rclone,syncthing,find]
 *                    [--runs N] [--scale-assets N,N] [--markdown] [--json out.json] [--data DIR] [--keep] [--profile] [--trace]`
 *
 * Asset Sync against rclone, Syncthing, curl and find on loopback, timed as the user meets it:
 * `asset-sync sync --once` of the built command line, a process from its start to its exit, like
 * each peer. The cases: initial upload and download of 10,000 small files, a folder of 100,000
 * files with nothing to do, 2 GiB and 3×256 MiB files, change latency with `asset-sync sync`
 * watching, workspaces of 100,000 and 1,000,000 assets, 1,000 small files with a service 50 ms
 * away (`wan`), and a studio's media tree with thumbnails off and on (`media`). Each case takes
 * its tools in turn, a different one first each round, prints medians and ratios, and checks the
 * copies byte for byte. `--markdown` also prints the README's table of the run. Data sets are
 * generated under bench/data (git-ignored) and reused; each invocation works in
 * bench/data/run-<time>, removed at the end unless --keep. --quick uses small sizes and takes
 * about three minutes.
 */
import { mkdir, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { downloadCase } from './cases/download.js';
import { largeCase } from './cases/large.js';
import { mediaCase } from './cases/media.js';
import { latencyCase } from './cases/latency.js';
import { rescanCase } from './cases/rescan.js';
import { scaleCase } from './cases/scale.js';
import { uploadCase } from './cases/upload.js';
import { wanCase } from './cases/wan.js';
import { BenchContext, FULL, QUICK, TOOLS, type BenchCase, type Tool } from './lib/context.js';
import { settleBriefly } from './lib/settle.js';
import type { CaseResult } from './lib/measure.js';
import { ensurePeers, peerVersions } from './lib/peers.js';
import { buildAll } from './lib/build.js';
import { ROOT } from './lib/proc.js';
import { renderMarkdown, renderReport, writeJson } from './lib/report.js';

/** In run order: the upload leaves the workspace that the download reads. */
const CASES: Record<string, BenchCase> = {
  upload: uploadCase,
  download: downloadCase,
  large: largeCase,
  rescan: rescanCase,
  latency: latencyCase,
  scale: scaleCase,
  wan: wanCase,
  media: mediaCase,
};

const caseList = (value: string): string[] => {
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of names) if (!(n in CASES)) throw new InvalidArgumentError(`unknown case "${n}" (cases: ${Object.keys(CASES).join(', ')})`);
  return names;
};
const toolList = (value: string): Tool[] => {
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of names) if (!(TOOLS as readonly string[]).includes(n)) throw new InvalidArgumentError(`unknown tool "${n}" (tools: ${TOOLS.join(', ')})`);
  return names as Tool[];
};
const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number ≥ 1');
  return n;
};
const positiveInts = (value: string): number[] => value.split(',').map((v) => positiveInt(v.trim().replace(/_/g, '')));

const options = new Command('bench')
  .description('Asset Sync against rclone, Syncthing and curl, on loopback')
  .option('--quick', 'small sizes: a smoke run of every case (about three minutes)')
  .option('--only <cases>', `comma-separated cases: ${Object.keys(CASES).join(', ')}`, caseList)
  .option('--tools <list>', `peers to measure beside Asset Sync (default all): ${TOOLS.join(', ')}; "none" for Asset Sync alone`, (v: string) => (v === 'none' ? [] : toolList(v)))
  .option('--runs <n>', 'runs per tool and case (default 2)', positiveInt, 2)
  .option('--scale-assets <list>', 'sizes of the scale case, e.g. 100000,1000000 (default: 100,000 and 1,000,000; --quick: 2,000)', positiveInts)
  .option('--markdown', "also print the README's table of this run (dated, with the machine and its load)")
  .option('--json <file>', 'also write the figures as JSON')
  .option('--data <dir>', 'where data sets and scratch folders go', join(ROOT, 'bench', 'data'))
  .option('--keep', 'keep this run\'s scratch folder')
  .option('--profile', 'run Asset Sync children and the service under node --cpu-prof (<data>/profiles)')
  .option('--trace', "log each engine run's timeline (phases, transfer window)")
  .parse()
  .opts<{ quick?: boolean; only?: string[]; tools?: Tool[]; runs: number; scaleAssets?: number[]; markdown?: boolean; json?: string; data: string; keep?: boolean; profile?: boolean; trace?: boolean }>();

const started = new Date();
const loadAtStart = loadavg();
const log = (line: string): void => {
  const t = new Date().toISOString().slice(11, 19);
  process.stderr.write(`[${t} load ${(loadavg()[0] ?? 0).toFixed(1)}] ${line}\n`);
};

const dataDir = resolve(options.data);
const runDir = join(dataDir, `run-${started.toISOString().replace(/[:.]/g, '-')}`);
const profileDir = options.profile ? join(dataDir, 'profiles') : undefined;
await mkdir(runDir, { recursive: true });
if (profileDir) await mkdir(profileDir, { recursive: true });
await ensurePeers(log);
log(await buildAll());
const peers = await peerVersions();
log(`peers: ${Object.values(peers).join(' | ')}`);

if (options.quick) settleBriefly();
const base = options.quick ? QUICK : FULL;
const sizes = options.scaleAssets ? { ...base, scale: { ...base.scale, assets: options.scaleAssets } } : base;
const ctx = new BenchContext(sizes, options.quick ?? false, options.runs, runDir, join(dataDir, 'sets'), profileDir, log, options.trace ?? false, new Set(options.tools ?? TOOLS));
const selected = options.only ?? Object.keys(CASES);
const results: CaseResult[] = [];
const failures: Array<{ case: string; error: string }> = [];
try {
  for (const name of Object.keys(CASES).filter((n) => selected.includes(n))) {
    const run = CASES[name] as BenchCase;
    log(`case ${name}: start`);
    const t0 = Date.now();
    try {
      const result = await run(ctx);
      results.push(result);
      for (const failure of result.failures ?? []) {
        failures.push({ case: name, error: failure });
        log(`case ${name}: FAILED after some figures were measured: ${failure}`);
      }
      log(`case ${name}: done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push({ case: name, error: message });
      log(`case ${name}: FAILED: ${message}`);
    }
  }
} finally {
  await ctx.close();
  if (!options.keep) await rm(runDir, { recursive: true, force: true });
}

const finished = new Date();
process.stdout.write(`\nAsset Sync benchmark (${options.quick ? 'quick' : 'full'}, ${options.runs} run(s) per tool), ${started.toISOString()}\n`);
process.stdout.write(`${renderReport(results)}\n`);
for (const f of failures) process.stdout.write(`\nFAILED ${f.case}: ${f.error.split('\n')[0]}\n`);
if (options.markdown) {
  const runs = results.flatMap((r) => r.rows.flatMap((row) => row.runs));
  const args = process.argv.slice(2).join(' ');
  process.stdout.write(`\n${renderMarkdown(results, { startedAt: started, finishedAt: finished, args, loadAtStart, loadAtEnd: loadavg(), runs })}\n`);
  for (const f of failures) process.stdout.write(`\nFailed: ${f.case}: ${f.error.split('\n')[0]}\n`);
}
if (options.json) {
  await writeJson(resolve(options.json), results, { startedAt: started.toISOString(), finishedAt: finished.toISOString(), quick: ctx.quick, runs: ctx.runs, peers, failures, loadAtStart, loadAtEnd: loadavg() });
  log(`figures written to ${options.json}`);
}
process.exitCode = failures.length > 0 ? 1 : 0;
