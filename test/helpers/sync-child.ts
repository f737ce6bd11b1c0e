/**
 * A sync run in its own process, so a test can SIGKILL it at any moment: opens the index and
 * the engine, runs `syncOnce`, prints the report as one JSON line and exits 0 when it
 * converged, 2 when it did not. Started through test/helpers/children.ts (built under Vitest); the
 * configuration (credentials included) comes in the SYNC_CHILD environment variable, as JSON.
 */
import { SyncEngine } from '../../main/engine/engine.js';
import { openIndex } from '../../main/index/sync-index.js';
import { createLogger } from '../../main/logging.js';
import { ServiceClient } from '../../main/service-client/index.js';

export interface SyncChildConfig {
  baseUrl: string;
  accountId: string;
  key: string;
  secret: string;
  workspaceId: string;
  root: string;
  indexFile: string;
  deviceName: string;
  /** Bytes per second for all transfers together; slows them so a kill lands mid-transfer. */
  bandwidthLimit?: number;
  backoff?: { initialMs: number; maxMs: number };
}

const config = JSON.parse(process.env.SYNC_CHILD ?? '') as SyncChildConfig;
const index = openIndex(config.indexFile, config.backoff ? { backoff: config.backoff } : {});
const client = new ServiceClient({
  baseUrl: config.baseUrl,
  accountId: config.accountId,
  credentials: { key: config.key, secret: config.secret },
  baseDelayMs: 20,
  maxDelayMs: 500,
});
const engine = new SyncEngine({
  root: config.root,
  workspaces: [{ id: config.workspaceId }],
  index,
  client,
  logger: createLogger(),
  deviceName: config.deviceName,
  accountId: config.accountId,
  quietMs: 0,
  bandwidthLimit: config.bandwidthLimit,
});
await engine.init();
const report = await engine.syncOnce();
await engine.stop();
await client.close();
index.close();
process.stdout.write(`${JSON.stringify(report)}\n`);
process.exitCode = report.ok ? 0 : 2;
