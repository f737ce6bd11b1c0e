/**
 * The Settings view over the config file: what it shows, and how a change from the UI becomes a
 * new config. Pure but for the sync folder's check (`checkSyncRoot`, which looks at the disk);
 * the AppApi saves the result and restarts the engine when the change needs it.
 */
import { isAbsolute, resolve } from 'node:path';
import type { ParsedRequestOf, SettingsView } from '../../shared/ipc.js';
import { defaultDeviceName, type Config } from '../config.js';
import { checkSyncRoot } from '../root-check.js';
import { AppError } from './errors.js';

export function settingsView(config: Config, signedIn: boolean, workspaceName: (id: string) => string | undefined): SettingsView {
  return {
    signedIn,
    baseUrl: config.baseUrl ?? null,
    accountId: config.accountId ?? null,
    root: config.root ?? null,
    deviceName: config.deviceName ?? defaultDeviceName(),
    pollIntervalSeconds: config.pollIntervalSeconds,
    bandwidthLimit: config.bandwidthLimit ?? null,
    launchAtLogin: config.launchAtLogin,
    workspaces: config.workspaces.map((w) => ({ id: w.id, name: workspaceName(w.id) ?? w.id, excluded: [...w.excluded] })),
  };
}

export interface SettingsChange {
  config: Config;
  /** The engine was built with the old values: it must be reopened to use the new ones. */
  restart: boolean;
}

export function applySettings(config: Config, patch: ParsedRequestOf<'updateSettings'>): SettingsChange {
  const next: Config = { ...config, workspaces: config.workspaces.map((w) => ({ ...w, excluded: [...w.excluded] })) };
  let restart = false;
  if (patch.pollIntervalSeconds !== undefined && patch.pollIntervalSeconds !== config.pollIntervalSeconds) {
    next.pollIntervalSeconds = patch.pollIntervalSeconds;
    restart = true;
  }
  if (patch.bandwidthLimit !== undefined && (patch.bandwidthLimit ?? undefined) !== config.bandwidthLimit) {
    if (patch.bandwidthLimit === null) delete next.bandwidthLimit;
    else next.bandwidthLimit = patch.bandwidthLimit;
    restart = true;
  }
  if (patch.launchAtLogin !== undefined) next.launchAtLogin = patch.launchAtLogin;
  if (patch.root !== undefined) {
    if (!isAbsolute(patch.root)) throw new AppError('invalid_request', 'The sync folder must be a full path, such as /home/me/Asset Sync.');
    const root = resolve(patch.root);
    if (root !== config.root) {
      // The folder it replaces is synced no more: the new one may lie inside it.
      checkSyncRoot(root, { replacing: [config.root] });
      next.root = root;
      restart = true;
    }
  }
  if (patch.workspaces !== undefined) {
    const before = new Map(config.workspaces.map((w) => [w.id, w]));
    next.workspaces = patch.workspaces.map((w) => ({ ...before.get(w.id), id: w.id, excluded: [...new Set(w.excluded)] }));
    restart ||= JSON.stringify(next.workspaces) !== JSON.stringify(config.workspaces);
  }
  return { config: next, restart };
}
