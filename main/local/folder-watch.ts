/**
 * The operating system's change notifications for a folder tree, at a cost per folder, never per
 * file: a workspace of 100,000 files in 100 folders holds 100 watches, not 100,000.
 *
 * - Linux: one `fs.watch` (an inotify watch) per folder, as Syncthing does. inotify is not
 *   recursive, so a folder that appears (made, moved in, renamed) is watched and read at once:
 *   what was put in it before its watch began is told as found; a folder that goes is unwatched
 *   with everything below it. Symbolic links are never followed: a link to a folder is an entry,
 *   not a folder to watch.
 * - macOS and Windows: one recursive `fs.watch` on the root (FSEvents, ReadDirectoryChangesW),
 *   which the system keeps per tree and which does not follow links either.
 *
 * Not `@parcel/watcher`: on Linux it watches only the folder a create names, so a folder tree
 * made at once (`mkdir -p`), moved in or renamed with folders in it goes unwatched below its top.
 */
import { type FSWatcher, lstatSync, type Stats, statSync, watch } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

export interface FolderWatchOptions {
  /** Whether a folder is left out, all below it with it: it is not watched. */
  skipsFolder(relPath: string): boolean;
  /**
   * A path that saw an add, change or removal (relative, as spelled on disk, POSIX separators);
   * `isDir` when known. '' is the root itself: it went away or was replaced, and nothing below
   * it is watched any more.
   */
  onPath(relPath: string, isDir?: boolean): void;
  /** A folder could not be watched or a watch failed: changes may be missed from now on. */
  onError(err: unknown): void;
}

export interface FolderWatch {
  /** Resolves once every folder present at the start is watched. */
  ready: Promise<void>;
  close(): void;
}

export function watchFolders(root: string, opts: FolderWatchOptions): FolderWatch {
  return process.platform === 'linux' ? watchEachFolder(root, opts) : watchRecursively(root, opts);
}

const childOf = (parentRel: string, name: string): string => (parentRel === '' ? name : `${parentRel}/${name}`);

/** A folder that vanished while it was being read or watched: its parent tells of it. */
const isGone = (err: unknown): boolean => {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/** What is at `abs` now, undefined when nothing (or nothing readable) is: an event handler must not throw. */
const entryAt = (abs: string, followLink = false): Stats | undefined => {
  try {
    return (followLink ? statSync : lstatSync)(abs, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
};

function watchEachFolder(root: string, opts: FolderWatchOptions): FolderWatch {
  const watchers = new Map<string, FSWatcher>();
  // The root is what its path leads to, a link to a folder included (a link below it is not followed).
  const rootInode = entryAt(root, true)?.ino;
  const absOf = (rel: string): string => (rel === '' ? root : path.join(root, rel));
  let closed = false;

  const unwatchFrom = (rel: string): void => {
    const prefix = `${rel}/`;
    for (const [key, watcher] of watchers) {
      if (rel !== '' && key !== rel && !key.startsWith(prefix)) continue;
      watcher.close();
      watchers.delete(key);
    }
  };

  // inotify names the folder itself (its base name) when the folder is removed or moved away.
  const folderWent = (rel: string): boolean => {
    const now = entryAt(absOf(rel), rel === '');
    return now === undefined || !now.isDirectory() || (rel === '' && now.ino !== rootInode);
  };

  const onEvent = (folderRel: string, event: string, name: string | null): void => {
    if (closed) return;
    if (name === null) {
      opts.onPath(folderRel, true);
      return;
    }
    if (name === path.basename(absOf(folderRel)) && folderWent(folderRel)) {
      unwatchFrom(folderRel);
      // A folder below the root is told of by its parent's watch; the root has no parent.
      if (folderRel === '') opts.onPath('', true);
      return;
    }
    const rel = childOf(folderRel, name);
    if (event === 'change') {
      opts.onPath(rel);
      return;
    }
    // A rename event: the name was made, removed, or moved in or out.
    const now = entryAt(absOf(rel));
    const isDir = now?.isDirectory() === true;
    if (!isDir && watchers.has(rel)) unwatchFrom(rel);
    opts.onPath(rel, isDir);
    if (isDir && !watchers.has(rel) && !opts.skipsFolder(rel)) void watchBelow(rel, true);
  };

  /** Watches `rel`, then reads it and watches its folders; `tell`: reports what it finds. */
  const watchBelow = async (rel: string, tell: boolean): Promise<void> => {
    if (closed || watchers.has(rel)) return;
    try {
      const watcher = watch(absOf(rel), (event, name) => onEvent(rel, event, name));
      watcher.on('error', (err) => opts.onError(err));
      watchers.set(rel, watcher);
    } catch (err) {
      if (rel === '' || !isGone(err)) opts.onError(err);
      return;
    }
    let entries;
    try {
      entries = await readdir(absOf(rel), { withFileTypes: true });
    } catch (err) {
      if (!isGone(err)) opts.onError(err);
      return;
    }
    for (const entry of entries) {
      const childRel = childOf(rel, entry.name);
      const isDir = entry.isDirectory();
      if (tell) opts.onPath(childRel, isDir);
      if (isDir && !opts.skipsFolder(childRel)) await watchBelow(childRel, tell);
    }
  };

  return {
    ready: watchBelow('', false),
    close() {
      closed = true;
      unwatchFrom('');
    },
  };
}

function watchRecursively(root: string, opts: FolderWatchOptions): FolderWatch {
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(root, { recursive: true }, (_event, name) => {
      opts.onPath(name === null ? '' : name.split(path.sep).join('/'));
    });
    watcher.on('error', (err) => opts.onError(err));
  } catch (err) {
    opts.onError(err);
  }
  return { ready: Promise.resolve(), close: () => watcher?.close() };
}
