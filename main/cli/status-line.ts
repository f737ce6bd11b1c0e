/**
 * What the terminal's status line and the plain output share: the words for each state, and the
 * line itself. Kept apart from both sinks so the bars (loaded only for a terminal) need nothing
 * back from the module that loads them.
 */
import { isNotice, type EngineStatus, type SyncState, type TransferProgress } from '../../shared/engine.js';

/** Where a running engine is shown: bars on a terminal, plain lines elsewhere. */
export interface Sink {
  line(text: string): void;
  status(status: EngineStatus): void;
  transfer(transfer: TransferProgress): void;
  stop(): void;
}

const STATE_WORDS: Record<SyncState, string> = {
  starting: 'starting',
  scanning: 'looking at local files',
  listing: 'asking the service for changes',
  syncing: 'syncing',
  'up-to-date': 'up to date',
  paused: 'paused',
  offline: 'offline, retrying',
  attention: 'needs attention',
  stopped: 'stopped',
};

export function describeState(state: SyncState): string {
  return STATE_WORDS[state];
}

/** The status line; `transfers` counts from the transfer events, fresher than the last status. */
export function statusText(status: EngineStatus, transfers: { active: number; queued: number }): string {
  const pending = status.workspaces.reduce((n, w) => n + w.pending.downloads + w.pending.uploads + w.pending.deletes + w.pending.moves, 0);
  const problems = status.workspaces.reduce((n, w) => n + w.problems.filter((p) => !isNotice(p)).length, 0);
  const files = status.workspaces.reduce((n, w) => n + w.files, 0);
  const parts = [`Asset Sync: ${describeState(status.state)}`, `${files} file${files === 1 ? '' : 's'} synced`];
  if (pending > 0 && status.state !== 'up-to-date') parts.push(`${pending} to do`);
  const saved = status.paused ? status.workspaces.reduce((n, w) => n + (w.pausedChanges ?? 0), 0) : 0;
  if (saved > 0) parts.push(`${saved} change${saved === 1 ? '' : 's'} saved while paused`);
  if (transfers.active > 0) parts.push(`${transfers.active} transferring`);
  if (transfers.queued > 0) parts.push(`${transfers.queued} queued`);
  if (problems > 0) parts.push(`${problems} problem${problems === 1 ? '' : 's'}`);
  return parts.join(' · ');
}
