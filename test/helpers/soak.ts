/**
 * The hardening runs shared by `npm run soak` and its CI-sized part in `npm test`:
 *
 * - the crash soak: two-way churn while the sync process is SIGKILLed at random moments and
 *   restarted, then convergence without churn or kills, then `verifyConverged`;
 * - a fault cell: the same churn and checks against a service that injects one kind of fault
 *   (or several), synced in process so the client's retries can be counted.
 *
 * Everything random comes from the seed (kill delays, which operation, which file, sizes);
 * the interleaving with the running sync is timing, so a replay makes the same choices but
 * may meet the sync at other moments.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ServiceOptions } from '../../service/index.js';
import { Churner, type ChurnSizes, type ChurnStats } from './churn.js';
import { TRASH_HOME, convergeWith, faults, startWorld, type World } from './engine.js';
import { Ledger } from './ledger.js';
import { Rng } from './rng.js';
import { childConfig, childSync, runChild } from './sync-process.js';
import { verifyConverged, type Verified } from './verify.js';

export interface ChurnPlan {
  /** Demo assets the workspace starts with. */
  demoAssets: number;
  /** Churn operations per sync run (both sides together), drawn in this range. */
  opsPerRun: readonly [number, number];
  /** Longest pause before each operation. */
  spacingMs: number;
  sizes: ChurnSizes;
}

export interface CrashSoakOptions extends ChurnPlan {
  seed: number;
  kills: number;
  /** A kill comes this long after the start, drawn in this range. */
  killAfterMs: readonly [number, number];
  /** Bytes per second for the child's transfers, so that kills land mid-transfer. */
  bandwidthLimit: number;
  log?: (line: string) => void;
}

export interface CrashSoakResult {
  seed: number;
  runs: number;
  kills: number;
  /** What the killed process had in flight (its journal at the moment of the kill). */
  killedDuring: { download: number; upload: number; other: number; nothing: number };
  /** Runs without churn or kills it took to converge afterwards. */
  convergeRuns: number;
  churn: ChurnStats;
  edits: ReturnType<Ledger['counts']>;
  verified: Verified;
}

/** Every fourth run is left to finish: the sync must also get somewhere between kills. */
const UNKILLED_EVERY = 4;
/** A run left to finish that takes longer than this is killed too (and counted). */
const RUN_CAP_MS = 120_000;

export async function crashSoak(options: CrashSoakOptions): Promise<CrashSoakResult> {
  const log = options.log ?? (() => undefined);
  const rng = new Rng(options.seed);
  const kills = rng.fork('kills');
  const w = await startWorld({ service: { faults: faults({ latencyMs: 10, seed: options.seed }) }, demo: { assets: options.demoAssets } });
  try {
    const config = await childConfig(w, { bandwidthLimit: options.bandwidthLimit });
    const dir = join(config.root, w.folderName);
    const ledger = new Ledger();
    const churner = churnerFor(w, dir, ledger, options, rng);
    const failures: string[] = [];
    const killedDuring = { download: 0, upload: 0, other: 0, nothing: 0 };
    let runs = 0;
    let killed = 0;
    while (killed < options.kills) {
      runs += 1;
      const planned = runs % UNKILLED_EVERY !== 0;
      const delay = kills.int(options.killAfterMs[0], options.killAfterMs[1]);
      // Half of the kills also wait for a transfer in flight (up to three times the delay).
      const waitForTransfer = kills.chance(1 / 2);
      let inFlight: string[] = [];
      const started = Date.now();
      const killWhen = (): Promise<boolean> => {
        const elapsed = Date.now() - started;
        if (!planned) return Promise.resolve(elapsed >= RUN_CAP_MS);
        if (elapsed < delay) return Promise.resolve(false);
        inFlight = journalKinds(config.indexFile);
        return Promise.resolve(!waitForTransfer || elapsed >= 3 * delay || inFlight.includes('download') || inFlight.includes('upload'));
      };
      const ops = kills.int(options.opsPerRun[0], options.opsPerRun[1]);
      const [run] = await Promise.all([runChild(config, killWhen), churner.burst(runs, ops, options.spacingMs)]);
      let what: string;
      if (run.outcome === 'killed') {
        killed += 1;
        const kind = inFlight.includes('download') ? 'download' : inFlight.includes('upload') ? 'upload' : inFlight.length > 0 ? 'other' : 'nothing';
        killedDuring[kind] += 1;
        what = `killed after ${Date.now() - started} ms (in flight: ${inFlight.join(', ') || 'nothing'})`;
      } else {
        if (run.code !== 0 && run.code !== 2) failures.push(`run ${runs}: the sync process crashed (exit ${run.code}): ${run.stderr.slice(-2000)}`);
        what = `finished by itself (exit ${run.code})`;
      }
      log(`run ${runs}: ${what}; ${ops} churn operations`);
    }

    log('churn stopped; converging without kills');
    let convergeRuns = 0;
    try {
      convergeRuns = (await convergeWith(() => childSync(config), { maxRuns: 10, name: 'the sync after the soak' })).runs;
    } catch (error) {
      failures.push((error as Error).message);
    }
    runs += convergeRuns;
    const verified = await verifyConverged({ world: w, root: config.root, dir, ledger });
    verified.failures.unshift(...failures);
    return { seed: options.seed, runs, kills: killed, killedDuring, convergeRuns, churn: churner.stats, edits: ledger.counts(), verified };
  } finally {
    await w.close();
    await rm(TRASH_HOME, { recursive: true, force: true });
  }
}

export interface FaultCell {
  name: string;
  service: Partial<ServiceOptions>;
}

/** One cell per fault the service can inject, and one with all of them at once. */
export function faultMatrix(seed: number): FaultCell[] {
  return [
    { name: 'latency 50 ms', service: { faults: faults({ latencyMs: 50, seed }) } },
    { name: '5xx 20%', service: { faults: faults({ error5xx: 0.2, seed }) } },
    { name: 'dropped connections 10%', service: { faults: faults({ drop: 0.1, seed }) } },
    { name: 'truncated bodies 30%', service: { faults: faults({ truncate: 0.3, seed }) } },
    { name: '429 storm (10/s)', service: { rateLimitPerSecond: 10 } },
    { name: 'token expiry (2 s)', service: { tokenTtlSeconds: 2 } },
    {
      name: 'combined',
      service: { faults: faults({ latencyMs: 20, error5xx: 0.1, drop: 0.05, truncate: 0.2, seed }), rateLimitPerSecond: 15, tokenTtlSeconds: 3 },
    },
  ];
}

export interface FaultCellOptions extends ChurnPlan {
  seed: number;
  /** Sync runs with churn going on, before the convergence. */
  rounds: number;
  log?: (line: string) => void;
}

export interface FaultCellResult {
  name: string;
  runs: number;
  /** What the service injected and the client met, in words. */
  injected: string;
  churn: ChurnStats;
  edits: ReturnType<Ledger['counts']>;
  verified: Verified;
}

export async function runFaultCell(cell: FaultCell, options: FaultCellOptions): Promise<FaultCellResult> {
  const rng = new Rng(options.seed).fork(cell.name);
  const started = Date.now();
  const w = await startWorld({ service: cell.service, demo: { assets: options.demoAssets } });
  try {
    const device = await w.device('laptop');
    const ledger = new Ledger();
    const churner = churnerFor(w, device.dir, ledger, options, rng);
    const failures: string[] = [];
    let runs = 0;
    try {
      runs += (await convergeWith(() => device.sync(), { maxRuns: 10, name: `${cell.name}: the first sync` })).runs;
      for (let round = 1; round <= options.rounds; round += 1) {
        const ops = rng.int(options.opsPerRun[0], options.opsPerRun[1]);
        await Promise.all([device.sync(), churner.burst(round, ops, options.spacingMs)]);
        runs += 1;
      }
      runs += (await convergeWith(() => device.sync(), { maxRuns: 10, name: `${cell.name}: the sync after the churn` })).runs;
    } catch (error) {
      failures.push((error as Error).message);
    }
    options.log?.(`${cell.name}: ${runs} runs`);
    const verified = await verifyConverged({ world: w, root: device.root, dir: device.dir, ledger });
    verified.failures.unshift(...failures);
    const injected = injectedFaults(w, cell, device.retries.map((r) => r.error.status), Date.now() - started);
    return { name: cell.name, runs, injected, churn: churner.stats, edits: ledger.counts(), verified };
  } finally {
    await w.close();
    await rm(TRASH_HOME, { recursive: true, force: true });
  }
}

function churnerFor(w: World, dir: string, ledger: Ledger, plan: ChurnPlan, rng: Rng): Churner {
  return new Churner(
    { dir, colleague: w.colleague, ledger, sizes: plan.sizes },
    { local: rng.fork('local'), remote: rng.fork('remote'), timing: rng.fork('timing') },
  );
}

/**
 * The service counts the faults it injects; 429s are counted from the syncing client's retries;
 * token expiry is what the lifetime makes of the cell's duration (the client renews halfway).
 */
function injectedFaults(w: World, cell: FaultCell, retryStatuses: Array<number | undefined>, elapsedMs: number): string {
  const parts: string[] = [];
  const f = cell.service.faults;
  const counts = w.service.faults?.counts;
  if (f && f.latencyMs > 0) parts.push(`+${f.latencyMs} ms per call`);
  if (counts && counts.error5xx > 0) parts.push(`${counts.error5xx}× 503`);
  if (counts && counts.drop > 0) parts.push(`${counts.drop}× dropped`);
  if (counts && counts.truncate > 0) parts.push(`${counts.truncate}× truncated`);
  if (cell.service.rateLimitPerSecond !== undefined) parts.push(`${retryStatuses.filter((s) => s === 429).length}× 429 retried`);
  if (cell.service.tokenTtlSeconds !== undefined) parts.push(`${Math.floor(elapsedMs / 1000 / cell.service.tokenTtlSeconds)} token lifetimes`);
  return parts.join(', ') || 'none';
}

/** The kinds of the journal entries open in a sync index (what a killed process had in flight). */
function journalKinds(indexFile: string): string[] {
  try {
    const db = new Database(indexFile, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT kind FROM journal ORDER BY id').all() as Array<{ kind: string }>).map((r) => r.kind);
    } finally {
      db.close();
    }
  } catch {
    // No index yet (killed during start-up) or the schema is not there yet.
    return [];
  }
}
