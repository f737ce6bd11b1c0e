/**
 * A workspace set up for syncing: where it goes under the root (its name checked with the
 * service), what it syncs, recorded in the index, and what a crash left in its journal finished.
 */
import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import type { SyncIndex } from '../index/sync-index.js';
import { sanitizeName } from '../local/paths.js';
import type { Logger } from '../logging.js';
import type { ServiceClient, Workspace } from '../service-client/index.js';
import { ServiceError, isServiceError } from '../service-client/service-error.js';
import { recoverJournal } from '../sync/executor/index.js';
import type { TransferQueue } from '../sync/transfer-queue.js';
import { PausedChanges } from './paused-changes.js';
import { RecentDeletes } from './recent-deletes.js';
import { NOTHING_PENDING } from './status.js';
import type { EngineWorkspace, WorkspaceRuntime } from './workspace-runtime.js';
import { WorkspaceSync, type WorkspaceSyncDeps, type WorkspaceTarget } from './workspace-sync.js';
import { WritingFiles } from './writing-files.js';

/** What setting a workspace up takes from the engine. */
export interface SetUpContext {
  client: ServiceClient;
  index: SyncIndex;
  root: string;
  accountId: string;
  deviceName: string;
  logger: Logger;
  fullListingIntervalMs: number | undefined;
  fullRescanIntervalMs: number | undefined;
  queue: TransferQueue;
  /** The engine's stop: the workspace's own signal follows it. */
  signal: AbortSignal;
  selfUserId: string;
  quietMs: number;
}

/** What the workspace's cycles tell the engine as they run. */
export type CycleProgress = Pick<WorkspaceSyncDeps, 'onPhase' | 'onPlanned' | 'onDone' | 'recentDeletes' | 'onProblem' | 'onActivity' | 'suppress' | 'watcher'>;

/** Whether two set-ups of one workspace sync the same folder with the same exclusions. */
export function sameSetup(a: EngineWorkspace, b: EngineWorkspace): boolean {
  const excluded = (w: EngineWorkspace): string => JSON.stringify([...(w.excluded ?? [])].sort());
  return a.folder === b.folder && excluded(a) === excluded(b);
}

/** A workspace id the service does not know (or refuses) names itself: with several, which one? */
function unknownWorkspace(id: string, error: unknown): unknown {
  if (!isServiceError(error) || (error.kind !== 'not_found' && error.kind !== 'client' && error.status !== 400 && error.status !== 404)) return error;
  return new ServiceError({
    kind: 'not_found',
    code: 'unknown_workspace',
    message: `the workspace ${id} does not exist in this account (\`asset-sync workspaces\` lists those you can sync)`,
    ...(error.status !== undefined ? { status: error.status } : {}),
    request: error.request,
    cause: error,
  });
}

/** Where the workspace goes and what it syncs, recorded in the index; not started. `found`: the service's answer, asked for already. */
export async function setUpWorkspace(spec: EngineWorkspace, context: SetUpContext, found: Promise<Workspace> | undefined, progress: CycleProgress): Promise<WorkspaceRuntime> {
  const { client, index, root } = context;
  const stop = new AbortController();
  const signal = AbortSignal.any([context.signal, stop.signal]);
  setMaxListeners(0, signal);
  const remote = await (found ?? client.getWorkspace(spec.id, { signal })).catch((error: unknown) => {
    throw unknownWorkspace(spec.id, error);
  });
  const folderName = sanitizeName(spec.folder ?? remote.name);
  const target: WorkspaceTarget = { id: spec.id, name: remote.name, dir: join(root, folderName), excluded: spec.excluded ?? [] };
  const known = index.workspaces.get(spec.id);
  if (!known) index.workspaces.add({ id: spec.id, accountId: context.accountId, name: remote.name, localPath: target.dir, excludedPaths: [...target.excluded] });
  else index.workspaces.update(spec.id, { name: remote.name, localPath: target.dir, excludedPaths: [...target.excluded] });
  const runtime: WorkspaceRuntime = {
    spec: { ...spec, excluded: [...(spec.excluded ?? [])] },
    stop,
    signal,
    sync: new WorkspaceSync(target, {
      index,
      client,
      queue: context.queue,
      logger: context.logger.child({ workspace: spec.id }),
      deviceName: context.deviceName,
      selfUserId: context.selfUserId,
      quietMs: context.quietMs,
      ...(context.fullListingIntervalMs !== undefined ? { fullListingIntervalMs: context.fullListingIntervalMs } : {}),
      ...(context.fullRescanIntervalMs !== undefined ? { fullRescanIntervalMs: context.fullRescanIntervalMs } : {}),
      ...progress,
    }),
    phase: 'starting',
    cycle: { state: 'idle' },
    again: false,
    last: null,
    lastSyncAt: null,
    cycleProblems: [],
    watch: { state: 'off' },
    nextCycleDeletes: 'guarded',
    pending: { ...NOTHING_PENDING },
    files: null,
    feed: 'unknown',
    lastCycleAt: null,
    probedFrom: null,
    settle: { state: 'none' },
    recentDeletes: new RecentDeletes(index, spec.id),
    pausedChanges: new PausedChanges({ dir: target.dir, base: (rel) => index.base.getFile(spec.id, rel), excluded: target.excluded }),
    writing: new WritingFiles(),
  };
  return runtime;
}

/** Finishes the transfers a crash (or a stop) left in the workspace's journal. */
export async function recoverWorkspace(runtime: WorkspaceRuntime, context: SetUpContext): Promise<void> {
  const { client, index } = context;
  await recoverJournal({
    workspaceId: runtime.sync.target.id,
    root: runtime.sync.target.dir,
    index,
    client,
    queue: context.queue,
    folderIds: new Map(),
    logger: context.logger,
    signal: runtime.signal,
  }).catch((error: unknown) => context.logger.warn({ err: error }, 'journal recovery failed; the next cycle re-plans'));
  runtime.files = null;
}
