/**
 * What the command line prints: lines for people, JSON for scripts. Formatting lives here so
 * every command words sizes, dates, problems and activity the same way.
 */
import type { Problem, ReviewNotification } from '../../shared/engine.js';

/** False once the reader of stdout has gone (`asset-sync sync | head -1`): there is no one left to tell. */
let stdoutOpen = true;

/** The reader of stdout left: later lines are dropped, and the command carries on. */
export function stdoutGone(): void {
  stdoutOpen = false;
}

export function print(line = ''): void {
  if (stdoutOpen) process.stdout.write(`${line}\n`);
}

export function printError(line: string): void {
  process.stderr.write(`${line}\n`);
}

export function printJson(value: unknown): void {
  if (stdoutOpen) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** 1536 → "1.5 KB" (binary multiples, as file managers show them). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits)} ${SIZE_UNITS[unit]}`;
}

export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** Seconds → "42s", "3m05s", "1h02m"; null → "?". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Local time, "2026-03-14 09:26"; what a person compares with their clock. */
export function formatDate(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '-';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

export { personName } from '../../shared/api/people.js';

/** Rows as aligned columns (the last column is not padded). */
export function formatTable(rows: readonly (readonly string[])[], indent = ''): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => indent + row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd());
}

/**
 * One line per activity item, e.g. `downloaded Brand/Logos/logo.svg (version 2)`: the engine's
 * message when it starts with the kind, else the kind, the path and the message.
 */
export function activityLine(item: { kind: string; path: string | null; message: string }, prefix = ''): string {
  const { kind, path, message } = item;
  if (message.toLowerCase().startsWith(`${kind} `)) return `${prefix}${kind}${message.slice(kind.length)}`;
  if (path && message.startsWith(path)) return `${prefix}${kind} ${message}`;
  if (!message) return `${prefix}${kind} ${path ?? ''}`.trimEnd();
  return path ? `${prefix}${kind} ${path}: ${message}` : `${prefix}${kind}: ${message}`;
}

/** A problem and what to do about it, as the lines to print. */
export function problemLines(problem: Problem, prefix = ''): string[] {
  // Left out by design, or syncing less well: a note, no problem (a not-synced message names the path).
  const head = problem.kind === 'not_synced' ? 'not synced: ' : problem.kind === 'degraded' ? 'note: ' : `problem (${problem.kind}) ${problem.path ? `${problem.path}: ` : ''}`;
  const lines = [`${prefix}${head}${problem.message}`];
  if (problem.hint) lines.push(`  what to do: ${problem.hint}`);
  if (problem.nextRetryAt) {
    const attempts = problem.attempts ? ` (${problem.attempts} attempt${problem.attempts === 1 ? '' : 's'} so far)` : '';
    lines.push(`  next try after ${formatDate(problem.nextRetryAt)}${attempts}`);
  }
  return lines;
}

export function reviewLine(review: ReviewNotification): string {
  const what = review.kind === 'review_request' ? 'review request' : 'change request';
  return `${what}: ${review.assetName} from ${review.from}: "${review.message}"`;
}
