/**
 * Settings of one installation: the service, the account, the sync root, the workspaces and
 * their selective sync. Read from a JSON config file, overridden by command-line options; the
 * bare-machine case (no file, no keychain) works from options and environment alone.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';

export const WorkspaceSettings = z.object({
  id: z.string().min(1),
  /** Folder name under the sync root; defaults to the workspace's (sanitised) name. */
  folder: z.string().optional(),
  /** Remote folder paths (relative, POSIX) left out of this device: selective sync. */
  excluded: z.array(z.string()).default([]),
});
export type WorkspaceSettings = z.infer<typeof WorkspaceSettings>;

export const Config = z.object({
  baseUrl: z.string().url().optional(),
  accountId: z.string().optional(),
  root: z.string().optional(),
  workspaces: z.array(WorkspaceSettings).default([]),
  deviceName: z.string().optional(),
  pollIntervalSeconds: z.number().int().min(5).max(3600).default(30),
  /** Bytes per second for all transfers together; absent: unlimited. */
  bandwidthLimit: z.number().int().positive().optional(),
  /** Large files downloaded at once; the slots share up to 32 small files (≤ 1 MiB) instead. */
  maxDownloads: z.number().int().min(1).max(32).default(4),
  maxUploads: z.number().int().min(1).max(16).default(4),
  launchAtLogin: z.boolean().default(false),
  /** Draw grid thumbnails of files as the sync brings them down or sends them up (else only when shown). */
  prefetchThumbnails: z.boolean().default(true),
  /** Size cap of the picture cache under the state folder, in MiB. */
  mediaCacheMiB: z.number().int().min(16).max(65_536).default(256),
});
export type Config = z.infer<typeof Config>;

/** Where Asset Sync keeps its own state: ASSET_SYNC_HOME, else the XDG data and config folders. */
export function appDirs(env: NodeJS.ProcessEnv = process.env): { config: string; data: string } {
  if (env.ASSET_SYNC_HOME) return { config: resolve(env.ASSET_SYNC_HOME), data: resolve(env.ASSET_SYNC_HOME) };
  const home = homedir();
  return {
    config: join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'asset-sync'),
    data: join(env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'asset-sync'),
  };
}

export const configPath = (env: NodeJS.ProcessEnv = process.env): string => env.ASSET_SYNC_CONFIG ?? join(appDirs(env).config, 'config.json');

export function loadConfig(file: string = configPath()): Config {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Config.parse({});
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`The config file ${file} is not valid JSON. Fix or delete it.`);
  }
  const parsed = Config.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`The config file ${file} is invalid at "${issue?.path.join('.')}": ${issue?.message}. Fix or delete it.`);
  }
  return parsed.data;
}

/** Written atomically: a crash leaves the old file or the new one, never half of one. */
export function saveConfig(config: Config, file: string = configPath()): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

/**
 * One index per sync root, so two roots never share state, and one root one index however it
 * is spelled: through a symlink, a second index would have taken the folder over with a marker
 * of its own, locking the first out.
 */
export function indexPathFor(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const id = createHash('sha256').update(canonicalPath(root)).digest('hex').slice(0, 16);
  return join(appDirs(env).data, `index-${id}.db`);
}

/** `path` absolute, with the symlinks of the part that exists resolved (the rest may not exist yet). */
export function canonicalPath(path: string): string {
  const missing: string[] = [];
  for (let existing = resolve(path); ; ) {
    try {
      return join(realpathSync.native(existing), ...missing.reverse());
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return resolve(path);
      missing.push(basename(existing));
      existing = parent;
    }
  }
}

export function logPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(appDirs(env).data, 'logs', 'asset-sync.log');
}

export const defaultDeviceName = (): string => hostname().split('.')[0] || 'this device';
