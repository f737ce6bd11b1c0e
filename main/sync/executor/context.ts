/**
 * What every part of the executor works with, and the small outcome vocabulary they answer in:
 * an action either did its job, or was deferred on purpose (the world changed since planning:
 * the next cycle plans again from fresh views), or threw (a failure, retried with backoff).
 */
import type { HashAlgorithm } from '../../local/checksum.js';
import { hostname } from 'node:os';
import type { ActivityItem, ActivityKind, Problem, ProblemKind } from '../../../shared/engine.js';
import type { SyncIndex } from '../../index/sync-index.js';
import type { Logger } from '../../logging.js';
import { pathKey } from '../../local/paths.js';
import { sameStamp, type FileStamp } from '../../local/stamp.js';
import type { ServiceClient } from '../../service-client/index.js';
import type { TransferQueue } from '../transfer-queue.js';
import type { Action } from '../actions.js';
import type { PlaceHooks } from './place-file.js';
import type { LateRecords } from './late-records.js';

export interface ExecutorDeps {
  workspaceId: string;
  /** Absolute path of the workspace folder. */
  root: string;
  index: SyncIndex;
  client: ServiceClient;
  queue: TransferQueue;
  /** Remote folder ids by pathKey of the folder path ('' = top level, null id); updated as create-remote-folder succeeds. */
  folderIds: Map<string, string | null>;
  logger: Logger;
  signal?: AbortSignal;
  /**
   * Tells the watcher to ignore the events of our own write at this relative path; with
   * `stamp`, only while the file is still the one we wrote.
   */
  suppress?: (relPath: string, stamp?: FileStamp) => void;
  /** Activity as it happens; the host stores it (`index.activity`) and shows it. */
  onActivity?: (item: ActivityItem) => void;
  onProblem?: (p: Problem) => void;
  /**
   * The algorithm of the service's checksums (default SHA-256): uploads and the files read
   * again are hashed with it, so they compare with the service's and with the scan's.
   */
  algorithm?: HashAlgorithm;
  /** Named in conflicted copies; the host name by default. */
  deviceName?: string;
  /** Clock for conflicted copy names and the fallback trash's dated folder. */
  now?: () => Date;
  /**
   * Moves a file to the OS trash; default: the `trash` package. When it fails (no trash on a
   * headless Linux), the file goes to `<root>/.assetsync-trash/<date>/<path>` instead.
   */
  trash?: (absPath: string) => Promise<void>;
  /**
   * Paths (by pathKey) whose last failure's backoff is not over, with when it is: their actions
   * wait instead of failing again at once (a file that cannot be written was retried hundreds
   * of times a second in watch mode, each retry an error, an activity line and a status event).
   */
  backoff?: ReadonlyMap<string, number>;
  /** An action completed: the host counts down what is pending. */
  onDone?: (action: Action) => void;
  /** The user this client acts as: a file locked by anyone else arrives read-only (engine/locked-files.ts). */
  selfUserId?: string;
  /** Who holds the lock on the asset at this path, by name, when the host knows (`lockedBy`). */
  lockHolder?: (relPath: string) => string | undefined;
  /** For tests: a step run in the gap where a user's save can race a download's rename. */
  placeHooks?: PlaceHooks;
  /**
   * Files this plan renamed on disk, by pathKey of their new path, with their stamp just before
   * and just after: the rename moved their ctime, so a later action of the plan that carries
   * the scan's stamp (the upload of a conflicted copy, of a file also renamed on the service)
   * takes the new ctime, if the file was still as scanned. Set by `executePlan`.
   */
  renamed?: Map<string, { before: FileStamp; after: FileStamp }>;
  /** The records of finished uploads still waiting for their group commit. Set by `executePlan`. */
  lateRecords?: LateRecords;
}

/** Left for the next cycle on purpose; `problem` is what the user is told, if anything. */
export interface Deferred {
  deferred: true;
  reason: string;
  problem?: { kind: ProblemKind; message: string; hint?: string };
  /** A conflict was set aside (a conflicted copy made): counted as a conflict. */
  conflict?: boolean;
  /** Held up by someone else's lock: counted as locked. */
  locked?: boolean;
}

export type Outcome = 'done' | Deferred;

export const DONE = 'done' as const;

/** "locked by Dana Reyes", or "locked by another user" when the host does not know who. */
export function lockedBy(deps: Pick<ExecutorDeps, 'lockHolder'>, relPath: string): string {
  return `locked by ${deps.lockHolder?.(relPath) ?? 'another user'}`;
}

export function deferred(reason: string, extra: Omit<Deferred, 'deferred' | 'reason'> = {}): Deferred {
  return { deferred: true, reason, ...extra };
}

/** `{ signal }` for calls that take one, when the run has one. */
export const signalOpt = (deps: ExecutorDeps): { signal?: AbortSignal } => (deps.signal ? { signal: deps.signal } : {});

export const deviceNameOf = (deps: ExecutorDeps): string => deps.deviceName ?? hostname();
export const nowOf = (deps: ExecutorDeps): Date => deps.now?.() ?? new Date();

/** `stamp` of the file at `relPath` as it is now if this plan renamed it since (see `renamed`). */
export function afterOurRename<T extends FileStamp>(deps: ExecutorDeps, relPath: string, stamp: T): T {
  const renamed = deps.renamed?.get(pathKey(relPath));
  return renamed !== undefined && sameStamp(renamed.before, stamp) ? { ...stamp, ctimeNs: renamed.after.ctimeNs } : stamp;
}

/** The watcher must not report our own write as a user's change. */
export function suppress(deps: ExecutorDeps, ...relPaths: string[]): void {
  for (const rel of relPaths) if (rel !== '') deps.suppress?.(rel);
}

/** `suppress` for a file we put in place with `stamp`: a user's save right after it still counts. */
export function suppressWrite(deps: ExecutorDeps, relPath: string, stamp: FileStamp): void {
  deps.suppress?.(relPath, stamp);
}

/** One line of the activity log, to the host (which stores and shows it); `version`: the version it is about. */
export function recordActivity(deps: ExecutorDeps, kind: ActivityKind, path: string | null, message: string, version?: ActivityItem['version']): void {
  deps.onActivity?.({ at: nowOf(deps).toISOString(), workspaceId: deps.workspaceId, kind, path, message, ...(version ? { version } : {}) });
}

export function reportProblem(deps: ExecutorDeps, problem: Omit<Problem, 'workspaceId'>): void {
  deps.onProblem?.({ workspaceId: deps.workspaceId, ...problem });
}

/** Thrown when a file's parent folder has no remote id yet (its creation failed or is pending). */
export class ParentFolderMissingError extends Error {
  readonly code = 'parent_missing';
  constructor(readonly folderPath: string) {
    super(`the folder "${folderPath}" does not exist on the service yet`);
    this.name = 'ParentFolderMissingError';
  }
}

/** The remote id of the folder at `folderPath` ('' = the top level: null). */
export function remoteFolderId(deps: ExecutorDeps, folderPath: string): string | null {
  if (folderPath === '') return null;
  const key = pathKey(folderPath);
  const known = deps.folderIds.get(key);
  if (known !== undefined) return known;
  const base = deps.index.base.getFolder(deps.workspaceId, folderPath);
  if (base !== undefined) return base.folderId;
  throw new ParentFolderMissingError(folderPath);
}
