/**
 * Each headless UI server makes its own token, 256 random bits printed as hex in the address's
 * fragment. Kept apart from ui-server.test.ts, whose servers start before its tests: a server
 * that cannot make a token must fail a test here, not only a setup hook.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { AppApi } from '../../main/app-api/index.js';
import { Config } from '../../main/config.js';
import { headlessHooks } from '../../main/ui-server/headless-hooks.js';
import { startUiServer } from '../../main/ui-server/server.js';
import { MemorySecrets } from '../helpers/memory-secrets.js';

it('gives every server a token of its own: 64 hex digits, never the same twice', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ui-token-'));
  const api = new AppApi({
    configFile: join(dir, 'config.json'),
    config: Config.parse({}),
    secrets: new MemorySecrets(),
    hooks: headlessHooks({ downloadsDir: join(dir, 'downloads') }),
    openSession: () => Promise.reject(new Error('no service in this test')),
  });
  const servers = [await startUiServer({ api, port: 0, staticDir: dir }), await startUiServer({ api, port: 0, staticDir: dir })];
  try {
    const tokens = servers.map((s) => new URLSearchParams(new URL(s.url).hash.slice(1)).get('token'));
    for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens[0]).not.toBe(tokens[1]);
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    await api.close();
    await rm(dir, { recursive: true, force: true });
  }
});
