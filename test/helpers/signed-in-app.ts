import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppApi } from '../../main/app-api/index.js';
import { sessionOpener } from '../../main/app-api/open-session.js';
import { Config } from '../../main/config.js';
import { statusWhen } from './app-status.js';
import { removeTreeSync } from './disk.js';
import { MemorySecrets } from './memory-secrets.js';
import { startTestService, type TestService } from './service.js';

export interface SignedInApp {
  svc: TestService;
  api: AppApi;
  /** The test's own folder: the app's home, config and sync root are in it. */
  dir: string;
  close(): Promise<void>;
}

/**
 * The app as a user has it after signing in to the demo service and choosing its workspace
 * (`excluded`: remote folders left out), once the first sync is up to date. Its home is a folder
 * of its own (ASSET_SYNC_HOME, put back by `close`), and its secrets stay in memory.
 */
export async function signedInApp(name: string, excluded: string[] = []): Promise<SignedInApp> {
  const previousHome = process.env.ASSET_SYNC_HOME;
  const svc = await startTestService();
  const dir = await mkdtemp(join(tmpdir(), `${name}-`));
  process.env.ASSET_SYNC_HOME = join(dir, 'home');
  const secrets = new MemorySecrets();
  const api = new AppApi({
    configFile: join(dir, 'config.json'),
    config: Config.parse({}),
    secrets,
    hooks: { openPath: async () => undefined, showItemInFolder: async () => undefined, chooseSavePath: async () => null, setLoginItem: async () => undefined },
    openSession: sessionOpener({ secretStores: [secrets] }),
    defaultRoot: join(dir, 'Asset Sync'),
    tempRoot: join(dir, 'temp'),
  });
  const close = async (): Promise<void> => {
    await api.close();
    await svc.stop();
    if (previousHome === undefined) delete process.env.ASSET_SYNC_HOME;
    else process.env.ASSET_SYNC_HOME = previousHome;
    removeTreeSync(dir);
  };
  await api.start();
  await api.handle('signIn', { baseUrl: svc.service.url, accountId: svc.demo.accountId, key: svc.demo.user.apiKey, secret: svc.demo.user.apiSecret });
  await api.handle('updateSettings', { workspaces: [{ id: svc.demo.workspaceId, excluded }] });
  await statusWhen(api, (s) => s.state === 'up-to-date' && (s.workspaces[0]?.files ?? 0) > 0);
  return { svc, api, dir, close };
}
