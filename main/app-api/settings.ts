/**
 * The Settings view over the config file: what it shows, and how a change from the UI becomes a
 * new config, and what the running engine must change for it. Pure but for the sync folder's
 * check (`checkSyncRoot`, which looks at the disk); the AppApi saves the result and applies it.
 */
import { isAbsolute, resolve } from 'node:path';
import type { ParsedRequestOf, SettingsView } from '../../shared/ipc.js';
import { defaultDeviceName, type Config } from '../config.js';
import { checkSyncRoot } from '../root-check.js';
import { AppError } from './bridge-errors.js';

export function settingsView(config: Config, signedIn: boolean, workspaceName: (id: string) => string | undefined): SettingsView {
  return {
    signedIn,
    baseUrl: config.baseUrl ?? null,
    accountId: config.accountId ?? null,
    root: config.root ?? null,
    deviceName: config.deviceName ?? defaultDeviceName(),
    pollIntervalSeconds: config.pollIntervalSeconds,
    bandwidthLimit: config.bandwidthLimit ?? null,
    maxDownloads: config.maxDownloads,
    maxUploads: config.maxUploads,
    launchAtLogin: config.launchAtLogin,
    prefetchThumbnails: config.prefetchThumbnails,
    mediaCacheMiB: config.mediaCacheMiB,
    workspaces: config.workspaces.map((w) => ({ id: w.id, name: workspaceName(w.id) ?? w.id, excluded: [...w.excluded] })),
  };
}

export interface SettingsChange {
  config: Config;
  /**
   * Another sync folder: the session (index, root lock, engine) belongs to the folder, so a new
   * one is opened. Every other setting applies to the running engine (`engineChanges`).
   */
  reopen: boolean;
}

export function applySettings(config: Config, patch: ParsedRequestOf<'updateSettings'>): SettingsChange {
  const next: Config = { ...config, workspaces: config.workspaces.map((w) => ({ ...w, excluded: [...w.excluded] })) };
  let reopen = false;
  if (patch.pollIntervalSeconds !== undefined) next.pollIntervalSeconds = patch.pollIntervalSeconds;
  if (patch.bandwidthLimit !== undefined) {
    if (patch.bandwidthLimit === null) delete next.bandwidthLimit;
    else next.bandwidthLimit = patch.bandwidthLimit;
  }
  if (patch.launchAtLogin !== undefined) next.launchAtLogin = patch.launchAtLogin;
  if (patch.maxDownloads !== undefined) next.maxDownloads = patch.maxDownloads;
  if (patch.maxUploads !== undefined) next.maxUploads = patch.maxUploads;
  if (patch.prefetchThumbnails !== undefined) next.prefetchThumbnails = patch.prefetchThumbnails;
  if (patch.mediaCacheMiB !== undefined) next.mediaCacheMiB = patch.mediaCacheMiB;
  if (patch.root !== undefined) {
    if (!isAbsolute(patch.root)) throw new AppError('invalid_request', 'The sync folder must be a full path, such as /home/me/Asset Sync.');
    const root = resolve(patch.root);
    if (root !== config.root) {
      // The folder it replaces is synced no more: the new one may lie inside it.
      checkSyncRoot(root, { replacing: [config.root] });
      next.root = root;
      reopen = true;
    }
  }
  if (patch.workspaces !== undefined) {
    const before = new Map(config.workspaces.map((w) => [w.id, w]));
    next.workspaces = patch.workspaces.map((w) => ({ ...before.get(w.id), id: w.id, excluded: [...new Set(w.excluded)] }));
  }
  return { config: next, reopen };
}

/** What a running engine must change to go from `before` to `after`; absent: unchanged. */
export interface EngineChanges {
  pollIntervalMs?: number;
  /** null: no limit any more. */
  bandwidthLimit?: number | null;
  transferLimits?: { maxDownloads: number; maxUploads: number };
  workspaces?: Config['workspaces'];
}

export function engineChanges(before: Config, after: Config): EngineChanges {
  const changes: EngineChanges = {};
  if (after.pollIntervalSeconds !== before.pollIntervalSeconds) changes.pollIntervalMs = after.pollIntervalSeconds * 1000;
  if (after.bandwidthLimit !== before.bandwidthLimit) changes.bandwidthLimit = after.bandwidthLimit ?? null;
  if (after.maxDownloads !== before.maxDownloads || after.maxUploads !== before.maxUploads) {
    changes.transferLimits = { maxDownloads: after.maxDownloads, maxUploads: after.maxUploads };
  }
  if (JSON.stringify(after.workspaces) !== JSON.stringify(before.workspaces)) changes.workspaces = after.workspaces;
  return changes;
}

/** What the running picture maker must change to go from `before` to `after`; absent: unchanged. */
export interface MediaChanges {
  prefetch?: boolean;
  cacheBytes?: number;
}

export function mediaChanges(before: Config, after: Config): MediaChanges {
  return {
    ...(after.prefetchThumbnails !== before.prefetchThumbnails ? { prefetch: after.prefetchThumbnails } : {}),
    ...(after.mediaCacheMiB !== before.mediaCacheMiB ? { cacheBytes: after.mediaCacheMiB * 1024 * 1024 } : {}),
  };
}
