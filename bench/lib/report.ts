/** The table printed at the end of a run and the JSON written with `--json`. */
import { writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { median, medianRss, medianSeconds, throughput, type CaseResult, type Row } from './measure.js';

function formatSeconds(s: number): string {
  return s >= 100 ? `${s.toFixed(0)} s` : s >= 10 ? `${s.toFixed(1)} s` : `${s.toFixed(2)} s`;
}

function formatRate(row: Row): string {
  const t = throughput(row);
  if (!t) return '';
  return `${t.value >= 100 ? t.value.toFixed(0) : t.value.toFixed(1)} ${t.unit}`;
}

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

/** For Asset Sync rows: how much of the run the transfers took (the rest: listing, scans, waits). */
function transferNote(row: Row): string {
  const values = row.runs.map((r) => r.transferSeconds).filter((v): v is number => v !== undefined);
  return values.length === 0 ? '' : `transfers ${formatSeconds(median(values))}`;
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
    rows.map((row) => {
      const rss = medianRss(row);
      return [row.case, row.tool, String(row.runs.length), formatSeconds(medianSeconds(row)), formatRate(row), ratio(row, rows),
        rss === undefined ? '' : `${rss.toFixed(0)} MiB`, loads(row), [transferNote(row), row.note ?? ''].filter(Boolean).join('; ')];
    }),
  ));
  const facts = results.flatMap((r) => r.facts ?? []);
  if (facts.length > 0) out.push('', table(['case', 'figure', 'value'], facts.map((f) => [f.case, f.what, f.value])));
  const targets = results.flatMap((r) => r.targets);
  if (targets.length > 0) out.push('', table(['case', 'target', 'met', 'measured'], targets.map((t) => [t.case, t.what, t.met ? 'yes' : 'NO', t.detail])));
  return out.join('\n');
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
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memGiB: Math.round(totalmem() / 1024 ** 3), node: process.version },
    rows,
    facts: results.flatMap((r) => r.facts ?? []),
    targets: results.flatMap((r) => r.targets),
  };
  await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
}
