import { readdirSync } from 'node:fs';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../../main/bootstrap.js';
import { closeLogger, createLogger } from '../../main/logging.js';
import { removeTreeSync } from '../helpers/disk.js';
import { logLines } from '../helpers/log-file.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) removeTreeSync(dir);
  dir = undefined;
});

describe('closeLogger', () => {
  it('writes out what was logged, and a line logged after the close is dropped without a crash', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'logging-'));
    const logs = path.join(dir, 'logs');
    const logger = createLogger({ file: path.join(logs, 'asset-sync.log') });
    const child = logger.child({ workspace: 'ws' });
    logger.info({ token: 'not-for-logs' }, 'first session');
    child.warn('from a child');

    await closeLogger(logger);
    const lines = await logLines(logs);
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['first session', 'from a child']);
    expect(lines.join('\n')).not.toContain('not-for-logs');

    // An engine callback that fires after its session closed.
    logger.info('too late');
    child.warn('too late, from a child');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await logLines(logs)).toHaveLength(2);
  });

  it('lets a second logger take the same file once the first is closed, as a new session does', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'logging-'));
    const logs = path.join(dir, 'logs');
    const first = createLogger({ file: path.join(logs, 'asset-sync.log') });
    first.info('session 1');
    await closeLogger(first);
    const second = createLogger({ file: path.join(logs, 'asset-sync.log') });
    second.info('session 2');
    await closeLogger(second);

    const messages = (await logLines(logs)).map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages).toEqual(['session 1', 'session 2']);
  });

  it('is a no-op for a logger without a file', async () => {
    await expect(closeLogger(createLogger())).resolves.toBeUndefined();
  });
});

describe('the log file', () => {
  // Threads of this process (Linux): a worker thread is one more.
  const threads = (): number => readdirSync('/proc/self/task').length;

  it.runIf(process.platform === 'linux')('is written from the logging thread, with no worker thread of its own (a V8 isolate of about 10 MiB)', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'logging-'));
    const logs = path.join(dir, 'logs');
    // libuv's file-system threads start at the first asynchronous file operation: started already.
    const before = threads();
    const logger = createLogger({ file: path.join(logs, 'asset-sync.log') });
    logger.info('a line');
    for (let i = 0; i < 100 && (await readdir(logs)).length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(threads()).toBe(before);
    await closeLogger(logger);
    expect(await logLines(logs)).toHaveLength(1);
  });
});

describe("a connection's logger", () => {
  it("writes through the host's logger and leaves it open when the connection closes (the app's one writer)", async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'logging-'));
    const logs = path.join(dir, 'logs');
    const appLogger = createLogger({ file: path.join(logs, 'asset-sync.log') });
    // Nothing is asked of the service until a request is made: no service is needed here.
    const connection = await connect({ baseUrl: 'http://127.0.0.1:9', accountId: 'acct', credentials: { key: 'k', secret: 's' }, logger: appLogger });
    expect(connection.logger).toBe(appLogger);
    connection.logger.info('from the session');
    await connection.close();

    appLogger.info('from the app, after the session closed');
    await closeLogger(appLogger);
    const messages = (await logLines(logs)).map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages).toEqual(['from the session', 'from the app, after the session closed']);
  });
});
