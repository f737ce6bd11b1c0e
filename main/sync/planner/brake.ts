/**
 * Plan summary and the mass-delete brake. A plan that would delete more
 * than half of the synced files on one side is far more often an unmounted drive, a wiped
 * folder or a server restore than a user's intent (rclone bisync aborts at 50%): a braked plan
 * holds its deletions back until the user confirms them (`allowMassDelete`).
 */
import { assertNever, type Action, type ActionKind, type DeleteLocal, type DeleteLocalFolder, type DeleteRemote, type DeleteRemoteFolder } from '../actions.js';

/** Share of the base files one side may lose in one plan without a confirmation. */
export const MASS_DELETE_SHARE = 0.5;
/** Below this many deletions the brake never engages (a tiny folder emptied on purpose). */
export const MASS_DELETE_MIN_FILES = 10;

export interface PlanSummary {
  /** Actions per kind (a conflict counts once, not its steps). */
  counts: Record<ActionKind, number>;
  /** Files known to the base: the total the brake measures against. */
  baseFiles: number;
  downloadBytes: number;
  uploadBytes: number;
}

export interface Brake {
  side: 'local' | 'remote';
  reason: string;
  deleteCount: number;
  total: number;
}

/** A brake as the plan returns it: with the deletions it held back, in execution order. */
export interface HeldBrake extends Brake {
  held: readonly Deletion[];
}

export type Deletion = DeleteLocal | DeleteRemote | DeleteLocalFolder | DeleteRemoteFolder;

/** What a braked plan holds back: every deletion, of files and of folders, on either side. */
export function isDeletion(action: Action): action is Deletion {
  return action.kind === 'delete-local' || action.kind === 'delete-remote' || action.kind === 'delete-local-folder' || action.kind === 'delete-remote-folder';
}

export function summarize(actions: readonly Action[], baseFiles: number): PlanSummary {
  const summary: PlanSummary = { counts: emptyCounts(), baseFiles, downloadBytes: 0, uploadBytes: 0 };
  for (const action of actions) {
    summary.counts[action.kind]++;
    addBytes(summary, action);
  }
  return summary;
}

function addBytes(summary: PlanSummary, action: Action): void {
  switch (action.kind) {
    case 'download':
      summary.downloadBytes += action.remote.size;
      return;
    case 'upload-new':
    case 'upload-version':
      summary.uploadBytes += action.local.size;
      return;
    case 'conflict':
      for (const step of action.steps) addBytes(summary, step);
      return;
    case 'create-local-folder':
    case 'create-remote-folder':
    case 'move-local':
    case 'move-remote':
    case 'delete-local':
    case 'delete-remote':
    case 'delete-local-folder':
    case 'delete-remote-folder':
    case 'record-base':
    case 'forget-base':
    case 'record-folder-base':
    case 'forget-folder-base':
    case 'locked':
      return;
    default:
      assertNever(action);
  }
}

/**
 * The brake for a plan with this summary, null when its deletions may run. `recent`: files each
 * side lost to recent cycles, counted with this plan's as one deletion (of the files synced
 * before it began).
 */
export function massDeleteBrake(summary: PlanSummary, recent: { local: number; remote: number } = { local: 0, remote: 0 }): Brake | null {
  const sides = [
    // A deletion on the service is carried out by `delete-remote` actions, and so are counted those before it.
    { side: 'remote', planned: summary.counts['delete-remote'], before: recent.remote, where: 'on the service' },
    { side: 'local', planned: summary.counts['delete-local'], before: recent.local, where: 'on this computer' },
  ] as const;
  for (const { side, planned, before, where } of sides) {
    const deleteCount = planned + before;
    const total = summary.baseFiles + before;
    if (planned > 0 && deleteCount > MASS_DELETE_MIN_FILES && deleteCount > total * MASS_DELETE_SHARE) {
      const reason =
        before > 0
          ? `this sync would delete ${planned} more synced files ${where}: ${deleteCount} of ${total} within a few minutes; confirm to go ahead`
          : `this sync would delete ${deleteCount} of ${total} synced files ${where}; confirm to go ahead`;
      return { side, deleteCount, total, reason };
    }
  }
  return null;
}

function emptyCounts(): Record<ActionKind, number> {
  return {
    'create-local-folder': 0,
    'create-remote-folder': 0,
    'move-local': 0,
    'move-remote': 0,
    'delete-local': 0,
    'delete-remote': 0,
    'delete-local-folder': 0,
    'delete-remote-folder': 0,
    download: 0,
    'upload-new': 0,
    'upload-version': 0,
    conflict: 0,
    'record-base': 0,
    'forget-base': 0,
    'record-folder-base': 0,
    'forget-folder-base': 0,
    locked: 0,
  };
}
