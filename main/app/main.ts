/**
 * The Electron main process: one instance per user, the engine running here (not in the
 * renderer), the window and tray as views of it. Quitting stops the engine first, so transfers
 * in flight are journalled and resume at the next start.
 */
import { join } from 'node:path';
import { app, dialog, ipcMain, session, shell } from 'electron';
import { AppApi } from '../app-api/index.js';
import { sessionOpener } from '../app-api/open-session.js';
import { configPath, loadConfig, logPath } from '../config.js';
import { closeLogger, createLogger, type Logger } from '../logging.js';
import { mediaServiceFor } from '../media/index.js';
import { packageRoot } from '../ui-server/static-files.js';
import { KeychainSecretStore } from '../secrets/secret-store.js';
import { needsFirstRun, showFirstRun } from './first-run.js';
import { electronHooks } from './hooks.js';
import { forwardEvents, registerIpc } from './ipc.js';
import { startedHidden } from './login-item.js';
import { startNotifications } from './notifications.js';
import { rendererTarget } from './origin.js';
import { registerAppScheme, serveRenderer } from './protocol.js';
import { denyAllPermissions, enforceCsp, lockEveryWebContents } from './security.js';
import { AppTray } from './tray.js';
import { MainWindow, viewWhileVisible } from './window.js';

const APP_ID = 'com.assetcollab.assetsync';

registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let window: MainWindow | null = null;
  let api: AppApi | null = null;
  let logger: Logger | null = null;
  // Held for the life of the app: a collected Tray disappears from the screen.
  let tray: AppTray | null = null;
  let stopped = false;
  let stopping = false;

  app.on('second-instance', () => window?.show());
  app.on('activate', () => window?.show());
  // The window hides instead of closing; syncing goes on in the tray until "Quit".
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', (event) => {
    if (window) window.quitting = true;
    tray?.destroy();
    tray = null;
    if (stopped || !api) return;
    event.preventDefault();
    if (stopping) return;
    stopping = true;
    // The log file last: the engine's closing lines go into it, and its last writes reach the disk.
    void api
      .close()
      .finally(() => (logger ? closeLogger(logger) : undefined))
      .finally(() => {
        stopped = true;
        app.quit();
      });
  });

  app
    .whenReady()
    .then(async () => {
      app.setAppUserModelId(APP_ID);
      const appLogger = createLogger({ file: logPath() });
      logger = appLogger;
      const configFile = configPath();
      const config = loadConfig(configFile);
      const devServer = app.isPackaged ? undefined : process.env.ASSET_SYNC_RENDERER_URL;
      const target = rendererTarget(devServer);
      // Not app.getAppPath(): `electron dist/node/app.js` makes that the script's folder.
      const root = packageRoot();

      serveRenderer(join(root, 'dist', 'renderer'), () => api?.media ?? null);
      // Before the window: its web contents, like every later one, gets the rules as it is made.
      lockEveryWebContents(app, target.origin, (url) => shell.openExternal(url));
      denyAllPermissions(session.defaultSession);
      enforceCsp(session.defaultSession, devServer ? target.origin : null);

      const mainWindow = new MainWindow({
        preload: join(root, 'dist', 'app', 'preload', 'index.cjs'),
        url: target.url,
        startHidden: startedHidden(),
        // The window in view is someone looking: the engine polls faster meanwhile.
        onVisible: viewWhileVisible(() => api?.openView() ?? (() => undefined)),
      });
      window = mainWindow;
      const appApi = new AppApi({
        configFile,
        config,
        secrets: new KeychainSecretStore(),
        hooks: electronHooks(mainWindow),
        openSession: sessionOpener({ logger: appLogger }),
        logger: appLogger,
        media: mediaServiceFor(config, appLogger),
      });
      api = appApi;
      registerIpc(ipcMain, appApi, () => mainWindow.current, target.origin);
      forwardEvents(appApi, () => mainWindow.current);
      startNotifications({ api: appApi, showWindow: () => mainWindow.show() });
      tray = new AppTray(appApi, {
        openWindow: () => mainWindow.show(),
        openSyncFolder: () => {
          void appApi.handle('getSettings', {}).then((settings) => (settings.root ? shell.openPath(settings.root) : undefined));
        },
        quit: () => app.quit(),
      });

      mainWindow.open();
      await appApi.start();
      if (needsFirstRun(appApi)) showFirstRun(mainWindow, appApi);
    })
    .catch((error: unknown) => {
      dialog.showErrorBox('Asset Sync could not start', error instanceof Error ? error.message : String(error));
      app.exit(1);
    });
}
