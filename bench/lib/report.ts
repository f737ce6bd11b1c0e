/** The table printed at the end of a run, the README's table (`--markdown`) and the JSON (`--json`). */
import { writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { median, medianRss, medianSeconds, throughput, type CaseResult, type Row, type Run } from './measure.js';

export function formatSeconds(s: number): string {
  return s >= 100 ? `${s.toFixed(0)} s` : s >= 10 ? `${s.toFixed(1)} s` : `${s.toFixed(2)} s`;
}

function formatRate(row: Row): string {
  const t = throughput(row);
  if (!t) return '';
  return `${t.value >= 100 ? Math.round(t.value).toLocaleString('en') : t.value.toFixed(1)} ${t.unit}`;
}

const mib = (value: number | undefined): string => (value === undefined ? '' : `${value.toFixed(0)} MiB`);

/**
 * A row's figures for the README: median time, with the rate and peak RSS when known, e.g.
 * "7.12 s (1,404 files/s), 180 MiB". Empty when the row did not run.
 */
export function cell(row: Row, withRss = true): string {
  if (row.runs.length === 0) return '';
  const rate = formatRate(row);
  const rss = withRss ? mib(medianRss(row)) : '';
  return [`${formatSeconds(medianSeconds(row))}${rate ? ` (${rate})` : ''}`, rss].filter(Boolean).join(', ');
}

/** "label 2.18 s" for a peer's row; empty when it did not run. */
export function peer(label: string, row: Row, withRss = false): string {
  return row.runs.length === 0 ? '' : `${label} ${cell(row, withRss)}`;
}

/** The rows of a case that ran, as a list for a cell of the README: "curl 2.18 s; rclone 111 s". */
export const peers = (...items: Array<[string, Row]>): string => items.map(([label, row]) => peer(label, row)).filter(Boolean).join('; ');

function loads(row: Row): string {
  const values = row.runs.map((r) => r.load);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo === hi ? lo.toFixed(1) : `${lo.toFixed(1)}–${hi.toFixed(1)}`;
}

/** Time relative to the first row of the same case and group (that is Asset Sync's). */
function ratio(row: Row, rows: readonly Row[]): string {
  const ref = rows.find((r) => r.case === row.case && r.group === row.group);
  if (!ref || ref === row) return ref === row ? '1.00x' : '';
  return `${(medianSeconds(row) / medianSeconds(ref)).toFixed(2)}x`;
}

/** For Asset Sync rows: how much of the run the transfers took (the rest: start-up, listing, scans, waits), and its CPU. */
function detailNote(row: Row): string {
  const transfers = row.runs.map((r) => r.transferSeconds).filter((v): v is number => v !== undefined);
  const cpu = row.runs.map((r) => r.cpuSeconds).filter((v): v is number => v !== undefined);
  return [transfers.length > 0 ? `transfers ${formatSeconds(median(transfers))}` : '', cpu.length > 0 ? `CPU ${formatSeconds(median(cpu))}` : ''].filter(Boolean).join(', ');
}

function table(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

export function renderReport(results: readonly CaseResult[]): string {
  const rows = results.flatMap((r) => r.rows).filter((row) => row.runs.length > 0);
  const out: string[] = [];
  out.push(table(
    ['case', 'tool', 'n', 'median', 'rate', 'time vs AS', 'peak RSS', 'load 1m', 'note'],
    rows.map((row) => [row.case, row.tool, String(row.runs.length), formatSeconds(medianSeconds(row)), formatRate(row), ratio(row, rows),
      mib(medianRss(row)), loads(row), [detailNote(row), row.note ?? ''].filter(Boolean).join('; ')]),
  ));
  const facts = results.flatMap((r) => r.facts ?? []);
  if (facts.length > 0) out.push('', table(['case', 'figure', 'value'], facts.map((f) => [f.case, f.what, f.value])));
  const targets = results.flatMap((r) => r.targets);
  if (targets.length > 0) out.push('', table(['case', 'target', 'met', 'measured'], targets.map((t) => [t.case, t.what, t.met ? 'yes' : 'NO', t.detail])));
  return out.join('\n');
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memGiB: number;
  node: string;
}

export function machine(): Machine {
  return { cpus: cpus().length, cpuModel: cpus()[0]?.model.trim() ?? 'unknown CPU', memGiB: Math.round(totalmem() / 1024 ** 3), node: process.version };
}

export interface RunInfo {
  startedAt: Date;
  finishedAt: Date;
  /** The command line of this run, as typed after `npm run bench --`. */
  args: string;
  /** Load averages (1, 5, 15 minutes) when the run started and ended. */
  loadAtStart: number[];
  loadAtEnd: number[];
  /** Every timed run's one-minute load, for the range. */
  runs: Run[];
}

/** The README's table from this run: dated, with the machine and its load. */
export function renderMarkdown(results: readonly CaseResult[], info: RunInfo): string {
  const m = machine();
  const load = (values: number[]): string => values.map((v) => v.toFixed(1)).join(' / ');
  const perRun = info.runs.map((r) => r.load);
  const lines = [
    `Measured ${info.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC (${Math.round((info.finishedAt.getTime() - info.startedAt.getTime()) / 60_000)} min) on ${m.cpus} × ${m.cpuModel}, ${m.memGiB} GiB, Node ${m.node}; ` +
      `load average (1 / 5 / 15 min) ${load(info.loadAtStart)} at the start, ${load(info.loadAtEnd)} at the end` +
      (perRun.length > 0 ? `, ${Math.min(...perRun).toFixed(1)}–${Math.max(...perRun).toFixed(1)} during the timed runs` : '') +
      `. Command: \`npm run bench -- ${info.args}\`. Medians; times are whole processes from start to exit unless a row says otherwise.`,
    '',
    '| case | Asset Sync | peers |',
    '|---|---|---|',
    ...results.flatMap((r) => r.summary ?? []).map((s) => `| ${s.what} | ${s.assetSync} | ${s.peers} |`),
  ];
  const targets = results.flatMap((r) => r.targets);
  if (targets.length > 0) {
    lines.push('', '| target | met | measured |', '|---|---|---|', ...targets.map((t) => `| ${t.case}: ${t.what} | ${t.met ? 'yes' : 'no'} | ${t.detail} |`));
  }
  return lines.join('\n');
}

export async function writeJson(file: string, results: readonly CaseResult[], meta: Record<string, unknown>): Promise<void> {
  const rows = results.flatMap((r) => r.rows).filter((row) => row.runs.length > 0).map((row) => ({
    ...row,
    medianSeconds: medianSeconds(row),
    medianRssMiB: medianRss(row),
    throughput: throughput(row),
  }));
  const json = {
    ...meta,
    machine: machine(),
    rows,
    facts: results.flatMap((r) => r.facts ?? []),
    targets: results.flatMap((r) => r.targets),
    summary: results.flatMap((r) => r.summary ?? []),
  };
  await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
}
