/**
 * The built command line writes its log file through pino-roll as built beside it (bundled with
 * the few date functions it uses): JSON lines in the state folder's logs, rotated by number,
 * never holding the secret.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cli-log-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the log file of the built command line', () => {
  it('holds what the command logged, as JSON lines, without the secret', async () => {
    const home = join(dir, 'home');
    const root = join(dir, 'root');
    mkdirSync(root, { recursive: true });
    // Nothing listens on port 9: each attempt to reach the service is logged as a warning.
    const result = await runCli(['sync', '--once', '--base-url', 'http://127.0.0.1:9', '--account', 'acct', '--root', root, '--workspace', 'ws'], {
      env: { ASSET_SYNC_HOME: home, ASSET_SYNC_API_KEY: 'key-for-logs', ASSET_SYNC_API_SECRET: 'secret-not-for-logs' },
    });
    expect(result.stderr).toContain('Could not reach the service');

    const logs = join(home, 'logs');
    expect(readdirSync(logs)).toEqual(['asset-sync.1.log']);
    const text = readFileSync(join(logs, 'asset-sync.1.log'), 'utf8');
    const lines = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { msg: string; request?: string });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatchObject({ msg: 'retrying service request', request: 'POST /auth/token' });
    expect(text).not.toContain('secret-not-for-logs');
  });
});
