/**
 * What the planner may believe about the disk this cycle. The scan is the truth, with three
 * corrections that keep unfinished or unreadable things from looking like deletions or edits:
 * a file still being written waits (see `holdBack`), a skipped entry stands as it was synced,
 * and paths excluded by selective sync are not ours to look at.
 */
import type { BaseFile, BaseFolder, LocalFile, LocalFolder, RemoteFile, RemoteFolder } from '../sync/model.js';
import { ancestorKeys } from '../sync/rel-path.js';
import { pathKey } from '../local/paths.js';
import { filterUnstable } from '../local/stability.js';
import type { ScanResult } from '../local/scanner.js';
import type { IgnoreMatcher } from '../local/ignore.js';

export interface LocalView {
  files: Map<string, LocalFile>;
  folders: Map<string, LocalFolder>;
  /** Paths held back this cycle because they changed within the quiet period. */
  waiting: string[];
  /** Their inodes: a synced file moved and then edited is held back at its old path too. */
  waitingInodes: ReadonlySet<number>;
}

export function isUnder(key: string, folderKeys: ReadonlySet<string>): boolean {
  if (folderKeys.size === 0) return false;
  for (let i = key.indexOf('/'); i >= 0; i = key.indexOf('/', i + 1)) {
    if (folderKeys.has(key.slice(0, i))) return true;
  }
  return folderKeys.has(key);
}

export function localView(
  scan: ScanResult,
  base: ReadonlyMap<string, BaseFile>,
  options: { nowMs: number; quietMs: number; excludedKeys: ReadonlySet<string> },
): LocalView {
  const files = new Map<string, LocalFile>();
  const folders = new Map<string, LocalFolder>();
  const { stable, unstable } = filterUnstable(scan.files, options.nowMs, options.quietMs);
  for (const [key, f] of stable) {
    if (!isUnder(key, options.excludedKeys)) files.set(key, f);
  }
  const waiting: string[] = [];
  const waitingInodes = new Set<number>();
  // Synced files by inode, to recognise one that was only moved or renamed since.
  const byInode = unstable.size > 0 ? new Map([...base.values()].map((b) => [b.inode, b])) : undefined;
  for (const [key, f] of unstable) {
    if (isUnder(key, options.excludedKeys)) continue;
    const moved = byInode?.get(f.inode);
    // A file exactly as this engine last left it (typically just downloaded), here or moved, is not being written.
    if (sameAsSynced(f, base.get(key)) || sameAsSynced(f, moved)) {
      files.set(key, f);
    } else {
      waiting.push(f.path);
      waitingInodes.add(f.inode);
    }
  }
  for (const [key, folder] of scan.folders) if (!isUnder(key, options.excludedKeys)) folders.set(key, folder);

  const skippedKeys = new Set(scan.skipped.map((s) => pathKey(s.path)));
  for (const [key, synced] of base) {
    if (!files.has(key) && isUnder(key, skippedKeys)) {
      files.set(key, { path: synced.path, size: synced.size, mtimeNs: synced.mtimeNs, ctimeNs: '', inode: synced.inode, checksum: synced.checksum });
    }
  }
  return { files, folders, waiting, waitingInodes };
}

function sameAsSynced(file: LocalFile, synced: BaseFile | undefined): boolean {
  return synced !== undefined && file.size === synced.size && file.mtimeNs === synced.mtimeNs && file.inode === synced.inode;
}

/**
 * The views the planner gets once the files still being written are held back: with the local
 * file left out too, nothing at all is planned for them this cycle. Letting their last synced
 * state stand in would not do: a remote deletion or edit would then be planned over a file with
 * unsynced bytes (the executor refuses, and the cycle comes back to the same plan). The asset is
 * held wherever the service now places it, so a remote move does not bring a second copy down.
 * A folder deleted on the service that holds such a file is kept, as for any file to keep: its
 * base row is left out, so it reads as a local folder to create again.
 */
export function holdBack(
  waiting: readonly string[],
  files: { base: ReadonlyMap<string, BaseFile>; remote: ReadonlyMap<string, RemoteFile> },
  folders: { base: ReadonlyMap<string, BaseFolder>; remote: ReadonlyMap<string, RemoteFolder> },
  waitingInodes: ReadonlySet<number> = new Set(),
): { base: ReadonlyMap<string, BaseFile>; remote: ReadonlyMap<string, RemoteFile>; baseFolders: ReadonlyMap<string, BaseFolder> } {
  // The usual cycle: nothing is being written, so nothing is held back and nothing is copied.
  if (waiting.length === 0) return { base: files.base, remote: files.remote, baseFolders: folders.base };
  const keys = new Set(waiting.map((p) => pathKey(p)));
  const assetIds = new Set<string>();
  for (const key of keys) {
    const synced = files.base.get(key);
    if (synced) assetIds.add(synced.assetId);
  }
  // Moved and still being written: its old path must not read as a local deletion meanwhile.
  for (const synced of files.base.values()) if (waitingInodes.has(synced.inode)) assetIds.add(synced.assetId);
  const holding = new Set(waiting.flatMap((p) => ancestorKeys(p)));
  return {
    base: new Map([...files.base].filter(([key, b]) => !keys.has(key) && !assetIds.has(b.assetId))),
    remote: new Map([...files.remote].filter(([key, r]) => !keys.has(key) && !assetIds.has(r.assetId))),
    baseFolders: new Map([...folders.base].filter(([key]) => !holding.has(key) || folders.remote.has(key))),
  };
}

/**
 * Files whose asset the service still lists but that cannot be placed here (remote-tree.ts
 * `unplaced`): neither their synced state nor the local file takes part in the plan, so a
 * broken listing neither deletes them nor uploads them again. Returns the base without them and
 * drops them from `local`.
 */
export function standAside(unplaced: ReadonlySet<string>, base: ReadonlyMap<string, BaseFile>, local: Map<string, LocalFile>): Map<string, BaseFile> {
  const kept = new Map<string, BaseFile>();
  for (const [key, synced] of base) {
    if (unplaced.has(synced.assetId)) local.delete(key);
    else kept.set(key, synced);
  }
  return kept;
}

/**
 * The part of a tree the ignore rules leave to sync. The scanner never reports an ignored path,
 * so a remote file at one (a colleague's "Thumbs.db", a folder named like our temp files) would
 * be downloaded and then read as deleted here, and deleted on the service; a synced file
 * ignored since would read as deleted too. Ignored paths are left alone on both sides.
 *
 * `scanned`: what the scanner reported with the same matcher. An item at exactly a path it
 * reported (file for file, folder for folder) was matched already and kept, so a synced tree
 * costs a lookup per item instead of a match (about 1.5 µs each, 0.3 s at 100,000 files). When
 * nothing is ignored the tree itself is returned, not a copy.
 */
export function notIgnored<F extends { path: string }, D extends { path: string }>(
  tree: { files: ReadonlyMap<string, F>; folders: ReadonlyMap<string, D> },
  ignore: IgnoreMatcher,
  scanned?: { files: ReadonlyMap<string, { path: string }>; folders: ReadonlyMap<string, { path: string }> },
): { files: ReadonlyMap<string, F>; folders: ReadonlyMap<string, D> } {
  const keep = <V extends { path: string }>(items: ReadonlyMap<string, V>, isDir: boolean, seen: ReadonlyMap<string, { path: string }> | undefined): ReadonlyMap<string, V> => {
    const ignored: string[] = [];
    for (const [key, item] of items) {
      if (seen?.get(key)?.path === item.path) continue;
      if (ignore.ignores(item.path, isDir)) ignored.push(key);
    }
    if (ignored.length === 0) return items;
    const out = new Map(items);
    for (const key of ignored) out.delete(key);
    return out;
  };
  return { files: keep(tree.files, false, scanned?.files), folders: keep(tree.folders, true, scanned?.folders) };
}
