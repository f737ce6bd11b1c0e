/**
 * The three views the planner reconciles: what is on disk now (local), what
 * the service has now (remote), and what both agreed on at the last sync (base). All paths are
 * relative to the workspace folder, POSIX separators, Unicode NFC, already made safe for disk
 * (main/local/paths.ts). Maps are keyed by `pathKey(path)` (NFC + case fold) so that two names
 * differing only by case meet in one slot on every OS.
 *
 * These types sit below `local/`, `index/` and `sync/`, so that `local/` and `index/`, which
 * produce the views the planner reads, import nothing from `sync/`.
 */

/** A file found by the scanner. */
export interface LocalFile {
  path: string;
  size: number;
  /** Nanoseconds since the epoch, as a decimal string (bigint does not survive JSON/IPC). */
  mtimeNs: string;
  /**
   * The change time, as `mtimeNs`: an upload commits only if it is still the same. Empty for a
   * file that stands as it was synced (not read from disk this cycle: it is not uploaded).
   */
  ctimeNs: string;
  inode: number;
  /** SHA-256 hex; from the hash cache when size, mtime, ctime and inode are unchanged. */
  checksum: string;
}

export interface LocalFolder {
  path: string;
  /** Tells a folder renamed here from one deleted and another made, where no file moved to show it. */
  inode?: number;
}

/** The state of a path at its last successful sync. */
export interface BaseFile {
  path: string;
  assetId: string;
  versionId: string;
  checksum: string;
  size: number;
  /** mtime and inode of the local file as the engine left it (to tell a local edit). */
  mtimeNs: string;
  inode: number;
}

export interface BaseFolder {
  path: string;
  folderId: string;
  /** The local folder's inode when it was last recorded (absent in rows from before schema version 5). */
  inode?: number;
}

/** What the service says of an asset's current version: the same in the raw tree and once placed. */
export interface AssetFacts {
  folderId: string | null;
  versionId: string;
  /** 0: the service did not say (only shown to the user, never decided with). */
  versionNumber: number;
  checksum: string;
  size: number;
  lockedByUserId: string | null;
  /** 0: the service did not say. */
  sequence: number;
}

/** An asset as the service has it now, placed at its sanitised local path. */
export interface RemoteFile extends AssetFacts {
  path: string;
  assetId: string;
}

/**
 * An asset placed at `path`: its facts copied field by field, so that a raw asset or a stored
 * row passed in lends none of its other fields to the 100,000 files a tree may hold.
 */
export function remoteFile(path: string, assetId: string, facts: AssetFacts): RemoteFile {
  return {
    path,
    assetId,
    folderId: facts.folderId,
    versionId: facts.versionId,
    versionNumber: facts.versionNumber,
    checksum: facts.checksum,
    size: facts.size,
    lockedByUserId: facts.lockedByUserId,
    sequence: facts.sequence,
  };
}

/** " (version 7)", or nothing when the service did not give the number. */
export const versionSuffix = (remote: Pick<RemoteFile, 'versionNumber'>): string => (remote.versionNumber > 0 ? ` (version ${remote.versionNumber})` : '');

export interface RemoteFolder {
  path: string;
  folderId: string;
  parentId: string | null;
}

export interface SyncState<L, B, R> {
  local: ReadonlyMap<string, L>;
  base: ReadonlyMap<string, B>;
  remote: ReadonlyMap<string, R>;
}

export interface PlannerInput {
  files: SyncState<LocalFile, BaseFile, RemoteFile>;
  folders: SyncState<LocalFolder, BaseFolder, RemoteFolder>;
  /** The user this client acts as: a lock held by them is no lock. */
  selfUserId: string;
  /** Name of this device, used in conflicted copy names. */
  deviceName: string;
  /** Time used in conflicted copy names (injected: the planner is pure). */
  now: Date;
  /** The user confirmed a mass deletion: the plan carries no brake. */
  allowMassDelete?: boolean;
  /**
   * Files deleted on each side by recent cycles (the host's window, minutes): a deletion that
   * reaches the watcher in several bursts (an `rm -rf` slower than its debounce) is braked as a
   * whole, not let through a share at a time.
   */
  recentDeletes?: { local: number; remote: number };
  /**
   * Path keys whose last action failed and is not due again yet: a folder move among them is
   * left to the per-file reconciliation meanwhile (planner/folder-moves.ts).
   */
  failing?: ReadonlySet<string>;
  /**
   * Conflicted copies this client made and still has on disk: the copy's path key → the path of
   * the file it was made from. Such a file is never taken for a rename by the user (it holds the
   * inode the original's base row names), and its own conflicts and name clashes are named after
   * the original, never as a copy of the copy.
   */
  ownCopies?: ReadonlyMap<string, string>;
}
