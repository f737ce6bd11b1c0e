/**
 * `asset-sync sync`: converge once (`--once`, for scripts: exit 0 when everything is in sync,
 * 1 when problems remain) or keep watching until SIGINT/SIGTERM, then stop cleanly; transfers
 * cut short stay journalled and resume at the next start.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { isNotice, type EngineStatus, type SyncReport } from '../../shared/engine.js';
import { createFileLogger, openSession, type Session, type SessionOptions } from '../bootstrap.js';
import { closeLogger } from '../logging.js';
import { isServiceError } from '../service-client/service-error.js';
import type { SessionUi } from '../ui-server/index.js';
import { EXIT_OK, EXIT_PROBLEMS } from './outcomes.js';
import {
  parsePositiveInt,
  parseRate,
  readConfig,
  resolveRoot,
  resolveService,
  resolveWorkspaces,
  type GlobalOptions,
  type ServiceOptions,
} from './options.js';
import { print, problemLines } from './output.js';
import { attachReporter, type EngineEventSource } from './progress.js';

export interface SyncOptions extends ServiceOptions {
  once?: boolean;
  allowMassDelete?: boolean;
  root?: string;
  workspace?: string[];
  exclude?: string[];
  poll?: string;
  bandwidthLimit?: string;
  ui?: string | boolean;
}

/** The session `sync` opens: options first, then the config file. */
export function sessionOptionsFrom(options: SyncOptions, globals: GlobalOptions): SessionOptions {
  const config = readConfig();
  return {
    ...resolveService(options, config),
    root: resolveRoot(options.root, config),
    workspaces: resolveWorkspaces(options.workspace, options.exclude, config),
    deviceName: config.deviceName,
    pollIntervalSeconds: options.poll !== undefined ? parsePositiveInt('--poll', options.poll, 5, 3600) : config.pollIntervalSeconds,
    maxDownloads: config.maxDownloads,
    maxUploads: config.maxUploads,
    bandwidthLimit: options.bandwidthLimit !== undefined ? parseRate(options.bandwidthLimit) : config.bandwidthLimit,
    logToStderr: globals.verbose,
  };
}

export async function sync(options: SyncOptions, globals: GlobalOptions): Promise<number> {
  const settings = sessionOptionsFrom(options, globals);
  const withUi = options.ui !== undefined && !options.once;
  // With the UI, the command's logger outlives its session: the UI closes that session when it
  // opens another (another sync folder), and the new one writes through the same logger.
  const logger = withUi ? createFileLogger(settings) : undefined;
  try {
    const session = await openSession({ ...settings, logger });
    let ui: SessionUi | null = null;
    try {
      if (withUi) {
        // Loaded only here: the UI server brings the media pipeline (sharp, pdf.js), which a
        // sync without it does not need.
        const { parseUiPort, startSessionUi } = await import('../ui-server/index.js');
        const { NOT_BUILT_HINT } = await import('../ui-server/static-files.js');
        ui = await startSessionUi({ session, settings, port: parseUiPort(options.ui) });
        print('Open Asset Sync in a browser on this machine (the address holds an access key: keep it private):');
        print(ui.url);
        if (!ui.built) print(`The interface is not built yet. ${NOT_BUILT_HINT}`);
      }
      print(`Syncing ${settings.workspaces.length === 1 ? 'one workspace' : `${settings.workspaces.length} workspaces`} into ${settings.root}`);
      const multipleWorkspaces = settings.workspaces.length > 1;
      return options.once
        ? await syncOnce(session, { allowMassDelete: options.allowMassDelete ?? false, multipleWorkspaces })
        : // The app API re-emits its engines' events (UiEvents extends EngineEvents).
          await watch(session, { allowMassDelete: options.allowMassDelete ?? false, multipleWorkspaces, ...(ui ? { events: ui.api as EngineEventSource } : {}) });
    } finally {
      await ui?.close();
      await session.close();
    }
  } finally {
    if (logger) await closeLogger(logger);
  }
}

/** Converges and prints the outcome; the exit code says whether anything is left to fix. */
export async function syncOnce(session: Session, options: { allowMassDelete: boolean; multipleWorkspaces: boolean }): Promise<number> {
  const reporter = await attachReporter(session.engine, { tty: Boolean(process.stdout.isTTY), multipleWorkspaces: options.multipleWorkspaces, liveProblems: false });
  // Ctrl+C stops the engine cleanly: what was in flight stays journalled for the next run.
  let stopped = false;
  const dispose = onStopSignal((signal) => {
    stopped = true;
    reporter.log(`Stopping (${signal}); transfers in progress resume at the next start…`);
    void session.engine.stop();
  });
  let report: SyncReport;
  try {
    await session.engine.init();
    report = await session.engine.syncOnce({ allowMassDelete: options.allowMassDelete });
  } finally {
    dispose();
    reporter.stop();
  }
  for (const line of reportLines(report, session.engine.status(), { stopped })) print(line);
  return report.ok && !stopped ? EXIT_OK : EXIT_PROBLEMS;
}

/** The summary of a one-off sync; after a stop, its problems are only the stop's echo and are left out. */
export function reportLines(report: SyncReport, status: EngineStatus, options: { stopped?: boolean } = {}): string[] {
  const lines: string[] = [];
  const many = report.workspaces.length > 1;
  for (const ws of report.workspaces) {
    const info = status.workspaces.find((w) => w.workspaceId === ws.workspaceId);
    const name = info?.name ?? ws.workspaceId;
    const counts = (
      [
        [ws.downloaded, 'downloaded'],
        [ws.uploaded, 'uploaded'],
        [ws.deleted, 'deleted'],
        [ws.moved, 'moved'],
        [ws.conflicts, 'conflict copies'],
        [ws.failed, 'failed'],
      ] as const
    )
      .filter(([n]) => n > 0)
      .map(([n, what]) => `${n} ${what}`);
    const files = info ? `${info.files} files` : '';
    lines.push(`${name}: ${[files, ...counts].filter(Boolean).join(', ') || 'nothing to do'}${info ? ` (${info.folder})` : ''}`);
    if (!options.stopped) for (const problem of ws.problems) lines.push(...problemLines(problem, many ? `[${name}] ` : ''));
  }
  if (options.stopped) {
    lines.push('Stopped before everything was synced; `asset-sync sync --once` again finishes it.');
    return lines;
  }
  const problems = report.workspaces.reduce((n, w) => n + w.problems.filter((p) => !isNotice(p)).length, 0);
  const conflicts = report.workspaces.reduce((n, w) => n + w.problems.filter((p) => p.kind === 'conflict').length, 0);
  const compare = conflicts > 0 ? `; ${conflicts === 1 ? 'the conflict above waits' : `the ${conflicts} conflicts above wait`} for you to compare the two versions` : '';
  lines.push(report.ok ? `Everything is up to date${compare}.` : `Not everything could be synced${problems ? ` (${problems} problem${problems === 1 ? '' : 's'} above)` : ''}; run again or fix what is listed.`);
  return lines;
}

/** How long `sync` waits before it tries again to reach a service that was out of reach at start. */
const START_RETRY_SECONDS = 15;

export interface WatchOptions {
  allowMassDelete?: boolean;
  multipleWorkspaces: boolean;
  /** What the terminal follows; default the session's engine (with the UI: the UI's sessions). */
  events?: EngineEventSource;
}

export async function watch(session: Session, options: WatchOptions): Promise<number> {
  // Listening from the start: a Ctrl+C during start-up still stops cleanly.
  const stopRequested = untilSignal();
  const reporter = await attachReporter(options.events ?? session.engine, { tty: Boolean(process.stdout.isTTY), multipleWorkspaces: options.multipleWorkspaces, liveProblems: true });
  try {
    // A service out of reach at start is waited for, as it is once running ("offline, retrying"):
    // a sync started at login must not die because the network came up a moment later.
    for (;;) {
      const failure = await session.engine.init().then(() => null, (error: unknown) => error);
      // Stopped meanwhile: the UI opened a session for another sync folder, which syncs instead.
      if (failure === null || session.engine.stopped) break;
      if (!isServiceError(failure) || !failure.transient) throw failure;
      reporter.log(`The service cannot be reached (${failure.message}); trying again in ${START_RETRY_SECONDS} s. Press Ctrl+C to stop.`);
      const waiting = new AbortController();
      const stopped = await Promise.race([stopRequested, delay(START_RETRY_SECONDS * 1000, null, { signal: waiting.signal })]);
      waiting.abort();
      if (stopped !== null) {
        reporter.log('Stopped.');
        return EXIT_OK;
      }
    }
    // Confirmed deletions are carried out by the first cycle only: the brake guards the rest.
    if (options.allowMassDelete) for (const ws of session.engine.status().workspaces) session.engine.allowDeletionsOnce(ws.workspaceId);
    await session.engine.start();
    reporter.log('Watching for changes; press Ctrl+C to stop.');
    const signal = await stopRequested;
    reporter.log(`Stopping (${signal}); transfers in progress resume at the next start…`);
    await session.engine.stop();
    reporter.log('Stopped.');
    return EXIT_OK;
  } finally {
    reporter.stop();
  }
}

/** Calls `handler` at the first SIGINT or SIGTERM, and ends the process at a second one. Returns a disposer. */
export function onStopSignal(handler: (signal: NodeJS.Signals) => void): () => void {
  const again = (): never => process.exit(130);
  const first = (signal: NodeJS.Signals): void => {
    process.off('SIGINT', first);
    process.off('SIGTERM', first);
    process.once('SIGINT', again);
    process.once('SIGTERM', again);
    handler(signal);
  };
  process.on('SIGINT', first);
  process.on('SIGTERM', first);
  return () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.off(signal, first);
      process.off(signal, again);
    }
  };
}

export const untilSignal = (): Promise<NodeJS.Signals> => new Promise((resolve) => onStopSignal(resolve));
