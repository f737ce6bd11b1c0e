/**
 * The running parts the app works over: what `main/bootstrap.ts` opens for one configuration.
 * Declared here as the app needs it, so the app depends on the shape and not on how it is built.
 */
import type { Config } from '../config.js';
import type { SyncEngine } from '../engine/engine.js';
import type { SyncIndex } from '../index/sync-index.js';
import type { Logger } from '../logging.js';
import type { ServiceClient } from '../service-client/index.js';

export interface AppSession {
  engine: SyncEngine;
  client: ServiceClient;
  index: SyncIndex;
  logger: Logger;
  /** Closes the client and the index; called after `engine.stop()`. Must be safe to call twice. */
  close(): Promise<void> | void;
}

/**
 * Opens a session for a complete configuration (service, account, root) whose credentials are
 * stored; the engine is initialised but not started.
 */
export type SessionOpener = (config: Config) => Promise<AppSession>;
