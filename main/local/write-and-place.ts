/**
 * A small download's last steps in one call on a file-system worker (fs-worker.ts): its bytes,
 * already verified, go into a fresh temp file beside the target, are made durable, and the file
 * is put at its name (place-file.ts). On the main thread these were about a dozen system calls
 * and three trips through the thread pool per file, a third of its time there. The folder is
 * flushed by the sender, outside the file's transfer slot, as for every other download.
 *
 * Every check the executor makes on the main thread is made here, in the same order and as
 * close to the step it guards: the folder is checked before the temp file is created (without
 * following a symlink, and only if the name is free) and again once it exists, and the target
 * right before the link or rename, with nothing between them on this thread.
 */
import { closeSync, constants, fchmodSync, fstatSync, fsync, lstatSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { placeAtFreeName, placeOver, type Placed } from './place-file.js';
import { afterOwnMove, stampOf, type FileStamp } from './stamp.js';
import { WritableFolders } from './writable-folders.js';

export interface PlaceRequest {
  /** The sync root: nothing is written outside it. */
  root: string;
  /** Absolute paths: a free hidden name beside the target, and the target. */
  temp: string;
  target: string;
  /** The file's whole content, checked against its checksum by the sender. */
  bytes: Uint8Array;
  /** Arrives read-only (locked by someone else), as the file it replaces was. */
  readOnly: boolean;
  /**
   * Replaces the file of stamp `seen` (placeOver, which keeps it at `keep` meanwhile); absent,
   * the target's name must be free.
   */
  over?: { seen: FileStamp; keep: string };
}

/** How a failure crosses threads: the error's name, code and message. */
export interface PlaceError {
  name: string;
  code: string | undefined;
  message: string;
}

/** `stamp`: the placed file's, with the ctime the link or rename left (of the temp file when nothing was placed). */
export type PlaceAnswer = { placed: Placed; stamp: FileStamp } | { error: PlaceError };

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
const fsyncFile = promisify(fsync);

/** The folder checks of each root, kept as the executor keeps them for a run (writable-folders.ts). */
const foldersByRoot = new Map<string, WritableFolders>();

function foldersOf(root: string): WritableFolders {
  let folders = foldersByRoot.get(root);
  if (folders === undefined) {
    folders = new WritableFolders(root);
    foldersByRoot.set(root, folders);
  }
  return folders;
}

export async function writeAndPlace(req: PlaceRequest): Promise<PlaceAnswer> {
  try {
    const folders = foldersOf(req.root);
    const stamp = await writeDurably(req, folders);
    let placed: Placed;
    try {
      folders.check(req.target);
      placed = req.over ? placeOver(req.temp, req.target, req.over.seen, req.over.keep) : placeAtFreeName(req.temp, req.target);
    } catch (err) {
      unlinkQuietly(req.temp);
      throw err;
    }
    if (placed.kind === 'changed') {
      unlinkQuietly(req.temp);
      return { placed, stamp };
    }
    return { placed, stamp: afterOwnMove(req.target, stamp) };
  } catch (err) {
    return { error: placeErrorOf(err) };
  }
}

/** Creates the temp file with the bytes, on disk when this returns; answers its stamp. */
async function writeDurably(req: PlaceRequest, folders: WritableFolders): Promise<FileStamp> {
  folders.check(req.temp, false);
  const fd = openSync(req.temp, CREATE, 0o644);
  try {
    try {
      // The open ran after the check: a folder swapped for a symlink between them is caught
      // here, and the empty file made out there removed before a byte goes into it.
      folders.check(req.temp, false);
    } catch (err) {
      const made = fstatSync(fd);
      const there = lstatSync(req.temp, { throwIfNoEntry: false });
      if (there !== undefined && there.dev === made.dev && there.ino === made.ino) unlinkSync(req.temp);
      throw err;
    }
    try {
      for (let done = 0; done < req.bytes.length; ) done += writeSync(fd, req.bytes, done);
      if (req.readOnly) fchmodSync(fd, Number(fstatSync(fd).mode) & 0o7777 & ~0o222);
      // On the thread pool: several files' flushes to the disk run side by side, where a
      // synchronous one would make each wait for the one before.
      await fsyncFile(fd);
      return stampOf(fstatSync(fd, { bigint: true }));
    } catch (err) {
      unlinkQuietly(req.temp);
      throw err;
    }
  } finally {
    closeSync(fd);
  }
}

function placeErrorOf(err: unknown): PlaceError {
  const e = err as { name?: unknown; code?: unknown; message?: unknown } | null | undefined;
  return { name: typeof e?.name === 'string' ? e.name : 'Error', code: typeof e?.code === 'string' ? e.code : undefined, message: String(e?.message ?? err) };
}

function unlinkQuietly(abs: string): void {
  try {
    unlinkSync(abs);
  } catch {
    // Already gone; a stray temp name is removed at the next start anyway.
  }
}
