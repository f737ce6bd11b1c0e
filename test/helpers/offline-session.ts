/**
 * A session with a real engine and index whose client points at a closed port: for tests of the
 * app's glue that never reach a service. `close` may be called twice, as AppSession requires.
 */
import type { AppSession } from '../../main/app-api/session.js';
import { SyncEngine } from '../../main/engine/engine.js';
import { openIndex } from '../../main/index/sync-index.js';
import { createLogger } from '../../main/logging.js';
import { ServiceClient } from '../../main/service-client/index.js';

export function offlineSession(root: string): AppSession {
  const index = openIndex(':memory:');
  const client = new ServiceClient({ baseUrl: 'http://127.0.0.1:9', accountId: 'acct', credentials: { key: 'k', secret: 's' }, maxAttempts: 1 });
  const logger = createLogger();
  const engine = new SyncEngine({ root, workspaces: [], index, client, logger, deviceName: 'test', accountId: 'acct' });
  let closed = false;
  return {
    engine,
    index,
    client,
    logger,
    async close() {
      if (closed) return;
      closed = true;
      await engine.stop();
      await client.close();
      index.close();
    },
  };
}
