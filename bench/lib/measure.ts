/**
 * What a benchmark figure is made of: the runs of one tool on one case, their median, and the
 * machine's load when they ran (others share this 2-core machine, so every figure says it).
 */
import { loadavg } from 'node:os';

export interface Run {
  /** Seconds of wall time. */
  seconds: number;
  /** Peak resident set of the measured process, MiB, when known. */
  rssMiB?: number | undefined;
  /** One-minute load average when the run ended. */
  load: number;
  /** Asset Sync runs: from the first transfer done to the last, seconds. */
  transferSeconds?: number | undefined;
  /** CPU seconds of the measured process (user + system, all its threads), when known. */
  cpuSeconds?: number | undefined;
}

/** One tool on one case, e.g. "rclone copy (webdav)" downloading 10,000 files. */
export interface Row {
  case: string;
  tool: string;
  runs: Run[];
  /** Work per run, for the throughput column: files or bytes. */
  work?: { files?: number; bytes?: number } | undefined;
  /** Free text shown after the figures (e.g. "hashed=0"). */
  note?: string | undefined;
  /** Rows of a case are compared with the first row of the same group (default: one group). */
  group?: string | undefined;
}

export interface Target {
  case: string;
  what: string;
  met: boolean;
  detail: string;
}

/** A line of the README's table (`--markdown`): a case, Asset Sync's figures, the peers'. */
export interface SummaryLine {
  what: string;
  assetSync: string;
  peers: string;
}

export interface CaseResult {
  rows: Row[];
  targets: Target[];
  /** Figures that are not runs of a tool (index size, latencies), already formatted. */
  facts?: Array<{ case: string; what: string; value: string }>;
  /** The case in the README's table. */
  summary?: SummaryLine[];
  /** Phases that failed after others were measured: the measured rows are still reported. */
  failures?: string[];
}

export const MiB = 1024 * 1024;

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

export const load1 = (): number => Number((loadavg()[0] ?? 0).toFixed(2));

export const medianSeconds = (row: Row): number => median(row.runs.map((r) => r.seconds));

export function medianRss(row: Row): number | undefined {
  const known = row.runs.map((r) => r.rssMiB).filter((v): v is number => v !== undefined);
  return known.length > 0 ? median(known) : undefined;
}

/** Files/s or MB/s (10^6 bytes) of the median run. */
export function throughput(row: Row): { value: number; unit: string } | undefined {
  const s = medianSeconds(row);
  if (row.work?.bytes !== undefined) return { value: row.work.bytes / 1e6 / s, unit: 'MB/s' };
  if (row.work?.files !== undefined) return { value: row.work.files / s, unit: 'files/s' };
  return undefined;
}

/** Runs `fn`, returning its wall time in seconds and its value. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, value };
}

/**
 * A target, judged only when every row it compares has runs (`--tools` may leave a peer out);
 * spread the answer into the case's list.
 */
export function target(caseName: string, what: string, needs: readonly Row[], judge: () => { met: boolean; detail: string }): Target[] {
  if (needs.some((row) => row.runs.length === 0)) return [];
  return [{ case: caseName, what, ...judge() }];
}

/** "; 1.23x <label>": `seconds` as a multiple of the row's median, or nothing if the row did not run. */
export function timesOf(seconds: number, row: Row, label: string): string {
  return row.runs.length > 0 ? `; ${(seconds / medianSeconds(row)).toFixed(2)}x ${label}` : '';
}

/** `items` starting at the `i`-th (round `i` of a case that takes its tools in turn). */
export function rotate<T>(items: readonly T[], i: number): T[] {
  const k = i % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/**
 * `runs` rounds of Asset Sync and its peers, Asset Sync first in even rounds and last in odd
 * ones (A B, B A, …): whatever a run leaves behind (page cache, memory it made the machine
 * touch) does not always fall on the same tool.
 */
export async function alternate(runs: number, assetSync: (i: number) => Promise<void>, peers: (i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < runs; i += 1) {
    if (i % 2 === 0) {
      await assetSync(i);
      await peers(i);
    } else {
      await peers(i);
      await assetSync(i);
    }
  }
}
