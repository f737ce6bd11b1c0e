/**
 * `asset-sync sync --ui [port]`: the app's UI over the command line's running session, served to
 * a browser on this machine. The command calls `startSessionUi` once its session is open and
 * `close()` when it stops.
 */
import type { SessionOptions } from '../bootstrap.js';
import { configPath, loadConfig, type Config } from '../config.js';
import { AppApi } from '../app-api/index.js';
import { sessionOpener } from '../app-api/open-session.js';
import type { AppSession } from '../app-api/session.js';
import { mediaServiceFor } from '../media/index.js';
import { KeychainSecretStore, type SecretStore } from '../secrets/secret-store.js';
import { headlessHooks } from './headless-hooks.js';
import { startUiServer, type UiServer } from './server.js';
import { defaultRendererDir, rendererBuilt } from './static-files.js';

export { startUiServer, type UiServer, type UiServerOptions } from './server.js';
export { headlessHooks } from './headless-hooks.js';
export { defaultRendererDir } from './static-files.js';

/** The UI server, and the app API it serves: the sessions it opens report through its events. */
export interface SessionUi extends UiServer {
  api: AppApi;
  /** Whether the interface is built (else the page says how, and so does the command). */
  built: boolean;
}

export interface SessionUiOptions {
  /** The command line's session; its engine is initialised (or about to be) by the command. */
  session: AppSession;
  /** What the session was opened with (options over the config file): what Settings shows. */
  settings?: SessionOptions | undefined;
  /** 0: any free port. */
  port: number;
  staticDir?: string;
  configFile?: string;
  /** Where Sign in stores a new key (default: the OS keychain). */
  secrets?: SecretStore;
}

/**
 * Serves the UI for `session`. Settings apply to its running engine; another sync folder (or a
 * new sign-in) closes the session, releasing the root's lock, and opens one from the (effective)
 * config. `close()` closes whichever session is current; the command's own `close` of its
 * session is then a no-op, as sessions close once.
 */
export async function startSessionUi(options: SessionUiOptions): Promise<SessionUi> {
  const configFile = options.configFile ?? configPath();
  const config = effectiveConfig(loadConfig(configFile), options.settings);
  const api = new AppApi({
    configFile,
    config,
    secrets: options.secrets ?? new KeychainSecretStore(),
    hooks: headlessHooks(),
    // Sessions the UI opens log through the command's logger: one writer for the log file.
    openSession: sessionOpener({ logger: options.session.logger }),
    logger: options.session.logger,
    session: options.session,
    media: mediaServiceFor(config, options.session.logger),
  });
  const staticDir = options.staticDir ?? defaultRendererDir();
  const server = await startUiServer({ api, port: options.port, staticDir, logger: options.session.logger });
  return {
    ...server,
    api,
    built: rendererBuilt(staticDir),
    async close() {
      await server.close();
      await api.close();
    },
  };
}

/**
 * The config the running session really uses: command-line options win over the file. Settings
 * shows it, and saving a change from the UI writes it (options included) to the config file.
 */
export function effectiveConfig(file: Config, settings: SessionOptions | undefined): Config {
  if (!settings) return file;
  const { bandwidthLimit: _fromFile, ...rest } = file;
  return {
    ...rest,
    baseUrl: settings.baseUrl,
    accountId: settings.accountId,
    root: settings.root,
    workspaces: settings.workspaces.map((w) => ({ id: w.id, ...(w.folder === undefined ? {} : { folder: w.folder }), excluded: [...(w.excluded ?? [])] })),
    pollIntervalSeconds: settings.pollIntervalSeconds ?? file.pollIntervalSeconds,
    ...(settings.bandwidthLimit === undefined ? {} : { bandwidthLimit: settings.bandwidthLimit }),
  };
}

/** `--ui` without a value: any free port; with one, that port. */
export function parseUiPort(value: string | boolean | undefined): number {
  if (value === undefined || value === true || value === '') return 0;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--ui expects a port number (0-65535), got "${String(value)}"`);
  return port;
}
