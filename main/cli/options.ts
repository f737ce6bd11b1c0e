/**
 * Options shared by the commands, and how they combine with the config file: a command-line
 * option wins, then the config file, then what the index remembers from the last sync. A bare
 * machine (no config file) works from options and environment alone.
 */
import { resolve } from 'node:path';
import type { EngineWorkspace } from '../engine/engine.js';
import { loadConfig, type Config } from '../config.js';
import { UsageError } from './outcomes.js';

export interface ServiceOptions {
  baseUrl?: string | undefined;
  account?: string | undefined;
}

export interface GlobalOptions {
  verbose?: boolean | undefined;
}

export interface ServiceSettings {
  baseUrl: string;
  accountId: string;
}

export function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function checkBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--base-url "${text}" is not a URL; expected e.g. https://api.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url must be http(s), got "${url.protocol}"`);
  return text.replace(/\/+$/, '');
}

/** Base URL and account from options, then the config file, then `fallback` (the index's memory). */
export function resolveService(options: ServiceOptions, config: Config, fallback?: Partial<ServiceSettings>): ServiceSettings {
  const baseUrl = options.baseUrl ?? config.baseUrl ?? fallback?.baseUrl;
  const accountId = options.account ?? config.accountId ?? fallback?.accountId;
  if (!baseUrl) throw new UsageError('No service URL: pass --base-url URL, or run `asset-sync login` to save it in the config file.');
  if (!accountId) throw new UsageError('No account: pass --account ID, or run `asset-sync login` to save it in the config file.');
  return { baseUrl: checkBaseUrl(baseUrl), accountId };
}

export function resolveRoot(option: string | undefined, config: Config): string {
  const root = option ?? config.root;
  if (!root) throw new UsageError('No sync folder: pass --root DIR, or set "root" in the config file (`asset-sync workspaces add ID --root DIR`).');
  return resolve(root);
}

/**
 * The workspaces to sync: those named with --workspace (keeping their config settings), else
 * the config file's. --exclude applies to each of them, on top of their own exclusions.
 */
export function resolveWorkspaces(ids: readonly string[] | undefined, exclude: readonly string[] | undefined, config: Config): EngineWorkspace[] {
  const chosen = ids && ids.length > 0 ? ids.map((id) => config.workspaces.find((w) => w.id === id) ?? { id, excluded: [] }) : config.workspaces;
  if (chosen.length === 0) throw new UsageError('No workspace to sync: pass --workspace ID, or run `asset-sync workspaces add ID`.');
  return chosen.map((w) => ({ id: w.id, folder: w.folder, excluded: uniq([...(w.excluded ?? []), ...(exclude ?? []).map(normalizeExcluded)]) }));
}

/** Exclusions are remote folder paths: POSIX separators, no leading or trailing slash. */
export function normalizeExcluded(path: string): string {
  const clean = path.replace(/\\/g, '/').replace(/^\/+|\/+$/g, '');
  if (!clean || clean.split('/').some((s) => s === '..' || s === '.')) throw new UsageError(`--exclude "${path}": expected a folder path inside the workspace, e.g. "Photography/Raw"`);
  return clean;
}

const uniq = (items: string[]): string[] => [...new Set(items)];

const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** `10M`, `500K`, `1.5MB/s`, `2048` (bytes) → bytes per second; `0`/`off` → undefined (unlimited). */
export function parseRate(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'off' || trimmed === '0') return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?(?:\/s)?$/.exec(trimmed);
  const unit = match ? UNITS[match[2] ?? ''] : undefined;
  if (!match || unit === undefined) throw new UsageError(`--bandwidth-limit "${text}": expected bytes per second like 500K, 10M or 1G (or "off")`);
  const rate = Math.floor(Number(match[1]) * unit);
  if (rate < 1) throw new UsageError(`--bandwidth-limit "${text}" is below 1 byte per second`);
  return rate;
}

export function parsePositiveInt(name: string, text: string, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${name} "${text}": expected a whole number from ${min} to ${max}`);
  return n;
}

/** Runs a command's task: prints its failure, if any, and sets the exit code. */
export type Run = (task: () => Promise<number> | number) => Promise<void>;
