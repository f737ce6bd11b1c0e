/**
 * The watcher's lifecycle for one workspace: started once the folder exists, started anew when
 * the folder is made anew, and its events turned into cycles (or, while paused, into the count of
 * changes waiting).
 */
import { lstatSync } from 'node:fs';
import { IGNORE_FILE_NAME } from '../local/own-files.js';
import { loadIgnoreMatcher } from '../local/ignore.js';
import { watchTree } from '../local/watcher.js';
import type { Logger } from '../logging.js';
import { watcherOf, type WorkspaceRuntime } from './workspace-runtime.js';

/** What the watcher asks of the engine it watches for. */
export interface WatchHost {
  /** The engine watches and polls (`start` ran). */
  started(): boolean;
  paused(): boolean;
  /** Delay between a burst of file events and the cycle it triggers. */
  debounceMs: number;
  /** How a folder is watched: a test puts a watcher that misses events in its place. */
  watchTree: typeof watchTree;
  logger: Logger;
  trigger(workspaceId: string): void;
  emitStatus(): void;
}

/**
 * Starts watching the workspace folder once it exists; true when it started now. A path
 * watched before it exists tells nothing of the tree made there later, so a first start (the
 * first cycle makes the folder) would have no watcher until the app restarted.
 */
export async function watchWorkspace(runtime: WorkspaceRuntime | undefined, host: WatchHost): Promise<boolean> {
  if (!runtime || runtime.watch.state === 'starting' || !host.started() || runtime.signal.aborted) return false;
  const workspaceId = runtime.spec.id;
  const dir = runtime.sync.target.dir;
  const folder = lstatSync(dir, { throwIfNoEntry: false });
  const present = folder?.isDirectory() === true;
  if (runtime.watch.state === 'on') {
    if (present && folder?.ino === runtime.watch.inode) return false;
    // The folder went away or was made anew (a drive unmounted, a folder moved back): the
    // watcher went with the old one.
    void runtime.watch.watcher.close();
    runtime.watch = { state: 'off' };
  }
  if (!present) return false;
  runtime.watch = { state: 'starting' };
  try {
    const ignore = await loadIgnoreMatcher(dir);
    if (runtime.signal.aborted) return false;
    const watcher = host.watchTree(dir, {
      ignore,
      debounceMs: host.debounceMs,
      onChanges: (paths) => {
        if ([...paths].some((p) => p === IGNORE_FILE_NAME)) runtime.sync.reloadIgnore();
        // Paused: nothing syncs, but the status counts what waits ("Paused · 3 changes waiting").
        if (host.paused()) {
          if (runtime.pausedChanges.note(paths, ignore)) host.emitStatus();
          return;
        }
        host.trigger(workspaceId);
      },
      onError: (error) => host.logger.warn({ err: error }, 'watcher error; the periodic rescan covers it'),
    });
    runtime.watch = { state: 'on', watcher, inode: folder?.ino };
    return true;
  } catch (error) {
    host.logger.warn({ err: error }, 'could not watch the workspace folder; the periodic rescan covers it');
    return false;
  } finally {
    if (runtime.watch.state === 'starting') runtime.watch = { state: 'off' };
  }
}

/** Stops the workspace's watcher, if one runs. */
export async function unwatchWorkspace(runtime: WorkspaceRuntime): Promise<void> {
  await watcherOf(runtime)?.close();
  runtime.watch = { state: 'off' };
}
