/**
 * How the app opens a session from its config file: bootstrap's `openSession` with the config's
 * values, and the engine initialised (who we are, each workspace's folder, crash recovery).
 */
import { openSession } from '../bootstrap.js';
import type { Config } from '../config.js';
import type { Logger } from '../logging.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { AppError } from './bridge-errors.js';
import type { AppSession, SessionOpener } from './session.js';

export interface OpenerOptions {
  /** Where the credentials are looked up; default: environment, then the OS keychain. */
  secretStores?: SecretStore[] | undefined;
  logToStderr?: boolean | undefined;
  /** The app's logger: sessions write through it instead of opening the log file again. */
  logger?: Logger | undefined;
}

export function sessionOpener(options: OpenerOptions = {}): SessionOpener {
  return async (config: Config): Promise<AppSession> => {
    const { baseUrl, accountId, root } = config;
    if (!baseUrl || !accountId) throw new AppError('signed_out', 'Sign in first, in Settings.');
    if (!root) throw new AppError('not_configured', 'Choose a sync folder in Settings.');
    const session = await openSession({
      baseUrl,
      accountId,
      root,
      workspaces: config.workspaces,
      deviceName: config.deviceName,
      pollIntervalSeconds: config.pollIntervalSeconds,
      maxDownloads: config.maxDownloads,
      maxUploads: config.maxUploads,
      bandwidthLimit: config.bandwidthLimit,
      secretStores: options.secretStores,
      logToStderr: options.logToStderr,
      logger: options.logger,
    });
    try {
      await session.engine.init();
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  };
}
