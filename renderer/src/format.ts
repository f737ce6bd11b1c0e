/** Numbers and states in words, the way the screens show them. */
import type { FileSyncState } from '../../shared/ipc.js';
import type { EngineStatus, PendingCounts, ProblemKind, SyncState, TransferProgress } from '../../shared/engine.js';

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${UNITS[unit]}`;
}

export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(Math.round(bytesPerSecond))}/s`;
}

export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return 'time left unknown';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s left`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s left`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min left`;
}

export function formatDate(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function pendingTotal(p: PendingCounts): number {
  return p.downloads + p.uploads + p.deletes + p.moves + p.conflicts;
}

/** What is left to do; `pausedChanges`: files saved on this computer while sync is paused. */
export function pendingText(p: PendingCounts, pausedChanges = 0): string {
  const parts = [
    pausedChanges && `${plural(pausedChanges, 'change')} saved while paused`,
    p.downloads && `${p.downloads} to download`,
    p.uploads && `${p.uploads} to upload`,
    p.deletes && `${p.deletes} to delete`,
    p.moves && `${p.moves} to move`,
    p.conflicts && plural(p.conflicts, 'conflict'),
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'Nothing pending';
}

/** How a state looks: the icon's tone goes with the words, never instead of them. */
export type Tone = 'ok' | 'busy' | 'paused' | 'offline' | 'warn';

export function stateTone(state: SyncState): Tone {
  switch (state) {
    case 'up-to-date':
      return 'ok';
    case 'paused':
    case 'stopped':
      return 'paused';
    case 'offline':
      return 'offline';
    case 'attention':
      return 'warn';
    case 'starting':
    case 'scanning':
    case 'listing':
    case 'syncing':
      return 'busy';
  }
}

/** A state in words; `files` is how many are pending (paused: how many changes wait), when known. */
export function stateText(state: SyncState, files = 0): string {
  switch (state) {
    case 'up-to-date':
      return 'Up to date';
    case 'syncing':
      return files > 0 ? `Syncing ${plural(files, 'file')}` : 'Syncing';
    case 'scanning':
      return 'Looking for changes';
    case 'listing':
      return 'Checking the service';
    case 'starting':
      return 'Starting';
    case 'paused':
      return files > 0 ? `Paused · ${plural(files, 'change')} waiting` : 'Paused';
    case 'stopped':
      return 'Stopped';
    case 'offline':
      return 'Offline';
    case 'attention':
      return 'Needs attention';
  }
}

/** The overall state of the engine, with the number of files still to sync. */
export function overallText(status: EngineStatus): string {
  const pending = status.workspaces.reduce((sum, w) => sum + pendingTotal(w.pending), 0);
  // Paused: what the plan had left and what was saved since the pause both wait for the resume.
  if (status.state === 'paused') return stateText('paused', pending + status.workspaces.reduce((sum, w) => sum + (w.pausedChanges ?? 0), 0));
  const inFlight = status.transfers.filter((t) => t.state === 'queued' || t.state === 'active').length;
  return stateText(status.state, Math.max(pending, inFlight));
}

export function transferText(t: TransferProgress): string {
  const verb = t.direction === 'download' ? 'Downloading' : 'Uploading';
  if (t.state === 'queued') return `Queued to ${t.direction}`;
  return `${verb}: ${formatBytes(t.bytesDone)} of ${formatBytes(t.bytesTotal)}, ${formatSpeed(t.speed)}, ${formatEta(t.etaSeconds)}`;
}

export function fileStateText(state: FileSyncState, lockedBy: string | null = null): string {
  switch (state) {
    case 'synced':
      return 'Synced';
    case 'pending-upload':
      return 'Waiting to upload';
    case 'pending-download':
      return 'Waiting to download';
    case 'conflict':
      return 'Conflict';
    case 'error':
      return 'Error';
    case 'locked':
      return lockedBy === null ? 'Locked by someone else' : `Locked by ${lockedBy}`;
    case 'local-only':
      return 'Only on this computer';
    case 'remote-only':
      return 'Only on the service';
  }
}

export function fileStateTone(state: FileSyncState): Tone {
  switch (state) {
    case 'synced':
      return 'ok';
    case 'pending-upload':
    case 'pending-download':
      return 'busy';
    case 'conflict':
    case 'error':
      return 'warn';
    case 'locked':
    case 'local-only':
    case 'remote-only':
      return 'paused';
  }
}

export function problemTitle(kind: ProblemKind): string {
  switch (kind) {
    case 'error':
      return 'Could not sync';
    case 'conflict':
      return 'Conflict';
    case 'locked':
      return 'Locked';
    case 'brake':
      return 'Many deletions held back';
    case 'marker':
      return 'Sync folder missing';
    case 'auth':
      return 'Sign-in needed';
    case 'offline':
      return 'Offline';
    case 'unstable':
      return 'File still changing';
    case 'not_synced':
      return 'Not synced';
    case 'degraded':
      return 'Changes come slower';
  }
}

const names = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Names in the order people count: "README 2" before "README 10", accents and case folded in. */
export function compareNames(a: string, b: string): number {
  return names.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Folder paths as a tree: each folder right after its parent, siblings by compareNames. */
export function comparePaths(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const order = compareNames(left[i] ?? '', right[i] ?? '');
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

/** A checksum's first characters: enough to tell versions apart at a glance. */
export function checksumPrefix(checksum: string): string {
  return checksum.slice(0, 12);
}
