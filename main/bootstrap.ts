/**
 * Wiring shared by the command line and the Electron main process: credentials, logger, service
 * client, index and engine, built the same way for every host and closed in the right order.
 */
import type { EngineStatus } from '../shared/engine.js';
import { defaultDeviceName, indexPathFor, logPath } from './config.js';
import { SyncEngine, type EngineWorkspace } from './engine/engine.js';
import { growHeapSlowly } from './heap-growth.js';
import { openIndex, type SyncIndex } from './index/sync-index.js';
import { closeLogger, createLogger, type Logger } from './logging.js';
import { checkSyncRoot } from './root-check.js';
import { lockRoot } from './root-lock.js';
import { LAST_SYNC_SETTING, PAUSED_SETTING, SERVICE_SETTING, WORKSPACE_PROBLEMS_SETTING, type PausedSetting, type ServiceSetting } from './session-settings.js';
import { accountRef, resolveCredentials, type ApiCredentials, type SecretStore } from './secrets/secret-store.js';
import { ServiceClient, type UnreadableItem } from './service-client/index.js';

/** No usable API key: nothing was given, stored or set in the environment (or the keychain failed). */
export class CredentialsError extends Error {
  override readonly name = 'CredentialsError';
}

export interface ConnectOptions {
  baseUrl: string;
  accountId: string;
  /** Given directly (the demo, tests); otherwise the environment, then the keychain. */
  credentials?: ApiCredentials | undefined;
  /** Where to look when `credentials` is absent; default: environment, then OS keychain. */
  secretStores?: SecretStore[] | undefined;
  logLevel?: string | undefined;
  /** Also log to stderr (`--verbose`). */
  logToStderr?: boolean | undefined;
  /**
   * The host's own logger (the desktop app's), used and left open: one writer for the log file.
   * Absent: the connection makes a file logger and closes it with itself.
   */
  logger?: Logger | undefined;
  /** An item of an answer the client skipped because it cannot use it (see ServiceClientOptions). */
  onUnreadable?: ((item: UnreadableItem) => void) | undefined;
}

export interface Connection {
  client: ServiceClient;
  logger: Logger;
  close(): Promise<void>;
}

export interface SessionOptions extends ConnectOptions {
  root: string;
  workspaces: readonly EngineWorkspace[];
  deviceName?: string | undefined;
  pollIntervalSeconds?: number | undefined;
  maxDownloads?: number | undefined;
  maxUploads?: number | undefined;
  /** Bytes per second for all transfers together; absent: unlimited. */
  bandwidthLimit?: number | undefined;
  quietMs?: number | undefined;
}

export interface Session extends Connection {
  engine: SyncEngine;
  index: SyncIndex;
}

export { LAST_SYNC_SETTING, PAUSED_SETTING, SERVICE_SETTING, WORKSPACE_PROBLEMS_SETTING, type PausedSetting, type ServiceSetting } from './session-settings.js';

export async function credentialsFor(options: Pick<ConnectOptions, 'baseUrl' | 'accountId' | 'credentials' | 'secretStores'>): Promise<ApiCredentials> {
  if (options.credentials) return options.credentials;
  try {
    return await resolveCredentials(accountRef(options.baseUrl, options.accountId), options.secretStores);
  } catch (error) {
    throw new CredentialsError((error as Error).message, { cause: error });
  }
}

export function createFileLogger(options: Pick<ConnectOptions, 'logLevel' | 'logToStderr'>): Logger {
  return createLogger({ file: logPath(), level: options.logLevel, stderr: options.logToStderr });
}

/** A service client with resolved credentials and a logger, for commands that need no engine. */
export async function connect(options: ConnectOptions): Promise<Connection> {
  const credentials = await credentialsFor(options);
  const logger = options.logger ?? createFileLogger(options);
  const client = new ServiceClient({
    baseUrl: options.baseUrl,
    accountId: options.accountId,
    credentials,
    logger,
    userAgent: 'asset-sync',
    ...(options.onUnreadable ? { onUnreadable: options.onUnreadable } : {}),
  });
  return {
    client,
    logger,
    async close() {
      await client.close();
      if (logger !== options.logger) await closeLogger(logger);
    },
  };
}

export async function openSession(options: SessionOptions): Promise<Session> {
  // The process now holds a workspace's model and churns per-file garbage (heap-growth.ts).
  growHeapSlowly();
  // Before anything touches the folder: `/`, the home folder or another root's insides are refused.
  checkSyncRoot(options.root);
  const indexPath = indexPathFor(options.root);
  const lock = await lockRoot(options.root, indexPath);
  let connection: Connection;
  let index: SyncIndex;
  try {
    connection = await connect(options);
    try {
      index = openIndex(indexPath);
    } catch (error) {
      await connection.close();
      throw error;
    }
  } catch (error) {
    await lock.release();
    throw error;
  }
  const engine = new SyncEngine({
    root: options.root,
    workspaces: options.workspaces,
    index,
    client: connection.client,
    logger: connection.logger,
    deviceName: options.deviceName ?? defaultDeviceName(),
    accountId: options.accountId,
    ...(options.pollIntervalSeconds !== undefined ? { pollIntervalMs: options.pollIntervalSeconds * 1000 } : {}),
    ...(options.quietMs !== undefined ? { quietMs: options.quietMs } : {}),
    ...(options.maxDownloads !== undefined ? { maxDownloads: options.maxDownloads } : {}),
    ...(options.maxUploads !== undefined ? { maxUploads: options.maxUploads } : {}),
    bandwidthLimit: options.bandwidthLimit,
  });
  const rememberLastSync = recordLastSync(index, { baseUrl: options.baseUrl, accountId: options.accountId });
  engine.on('status', rememberLastSync);
  let closed = false;
  return {
    engine,
    index,
    client: connection.client,
    logger: connection.logger,
    async close() {
      if (closed) return;
      closed = true;
      await engine.stop();
      engine.off('status', rememberLastSync);
      // A stopped engine is paused no more: the next start syncs.
      if (index.isOpen) index.settings.delete(PAUSED_SETTING);
      await connection.close();
      index.close();
      await lock.release();
    },
  };
}

/**
 * Persists each workspace's last finished cycle, so `status` can tell it without running the
 * engine, and the service it synced with: the file commands
 * (`versions`, `restore`) use that service, so it is stored only once a sync with it worked (a
 * run with a mistyped --base-url stored it before, and the file commands failed from then on).
 */
function recordLastSync(index: SyncIndex, service: ServiceSetting): (status: EngineStatus) => void {
  let known: Record<string, string> = index.settings.get<Record<string, string>>(LAST_SYNC_SETTING) ?? {};
  let problemsText = JSON.stringify(index.settings.get(WORKSPACE_PROBLEMS_SETTING) ?? {});
  let paused = index.settings.get<PausedSetting>(PAUSED_SETTING) ?? null;
  return (status) => {
    if (!index.isOpen) return;
    const changes = status.paused ? Object.fromEntries(status.workspaces.map((ws) => [ws.workspaceId, ws.pausedChanges ?? 0])) : null;
    if (JSON.stringify(changes) !== JSON.stringify(paused?.changes ?? null)) {
      paused = changes === null ? null : { since: paused?.since ?? new Date().toISOString(), changes };
      if (paused === null) index.settings.delete(PAUSED_SETTING);
      else index.settings.set(PAUSED_SETTING, paused);
    }
    // Kept while a cycle runs (its problems are not known yet): the last finished cycle's stand.
    if (status.workspaces.every((ws) => ws.state !== 'listing' && ws.state !== 'scanning' && ws.state !== 'syncing')) {
      const problems = Object.fromEntries(status.workspaces.map((ws) => [ws.workspaceId, ws.problems.filter((p) => p.path === null)]));
      const text = JSON.stringify(problems);
      if (text !== problemsText) {
        problemsText = text;
        index.settings.set(WORKSPACE_PROBLEMS_SETTING, problems);
      }
    }
    let changed = false;
    for (const ws of status.workspaces) {
      if (ws.lastSyncAt && ws.lastSyncAt !== known[ws.workspaceId]) {
        known = { ...known, [ws.workspaceId]: ws.lastSyncAt };
        changed = true;
      }
    }
    if (!changed) return;
    index.settings.set(LAST_SYNC_SETTING, known);
    index.settings.set(SERVICE_SETTING, service);
  };
}
