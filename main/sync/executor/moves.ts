/**
 * Renames and moves, on disk or on the service. The base row moves with the file, so the next
 * cycle sees a synced file at its new path rather than a deletion and a new file; on disk the
 * hash cache entry moves too, so the moved file is not read again. A folder moves whole, and the
 * rows of everything below it with it; renamed in letter case only, its keys stay as they are.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, type Stats } from 'node:fs';
import { lstat, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { cacheVouches } from '../../local/hash-cache-contract.js';
import { pathKey, resolveInsideRoot } from '../../local/paths.js';
import { afterOwnMove, stampOf, type FileStamp } from '../../local/stamp.js';
import { isServiceError } from '../../service-client/index.js';
import type { MoveLocal, MoveLocalFolder, MoveRemote, MoveRemoteFolder } from '../actions.js';
import { nameOf, parentOf } from '../rel-path.js';
import { DONE, deferred, lockedBy, recordActivity, remoteFolderId, signalOpt, suppress, type ExecutorDeps, type Outcome } from './context.js';
import { ensureParent, fsyncDir, writablePath } from './disk.js';
import { NotAFileError, TargetExistsError, isMissing } from './failures.js';
import { recordFolder } from './folders.js';
import { placeAtFreeName } from './place-file.js';

/**
 * Renames the file `from` to `to` inside the root, creating missing folders, and never over
 * another file (a case-only rename on a case-insensitive disk finds the same file there: fine).
 * Answers the file's stamp just before the rename and just after it, which moved its ctime.
 */
export async function renameLocalFile(deps: ExecutorDeps, from: string, to: string): Promise<{ before: FileStamp; after: FileStamp }> {
  const source = await writablePath(deps, from);
  const target = await writablePath(deps, to);
  const sourceStats = await lstat(source);
  if (!sourceStats.isFile()) throw new NotAFileError(from);
  const ontoItself = await isSameItem(target, sourceStats, from, to);
  await ensureParent(deps, to);
  suppress(deps, from, to);
  const before = stampOf(lstatSync(source, { bigint: true }));
  if (ontoItself) await renameOnDisk(deps, source, target, true);
  // A file saved at `to` since the check above is never replaced.
  else if (placeAtFreeName(source, target).kind === 'changed') throw new TargetExistsError(to);
  const after = afterOwnMove(target, before);
  await fsyncDir(path.dirname(target));
  return { before, after };
}

/** Renames or moves the folder `from` to `to`, never over anything (rename(2) would replace an empty folder). */
async function renameLocalFolder(deps: ExecutorDeps, from: string, to: string): Promise<void> {
  const source = await writablePath(deps, from);
  const target = await writablePath(deps, to);
  const sourceStats = await lstat(source);
  // A symlink is no folder of ours: renaming it would rename what it points out to, elsewhere.
  if (!sourceStats.isDirectory()) throw new Error(`"${from}" is not a folder`);
  const ontoItself = await isSameItem(target, sourceStats, from, to);
  if (!ontoItself) await ensureParent(deps, to);
  suppress(deps, from, to);
  await renameOnDisk(deps, source, target, ontoItself);
  await fsyncDir(path.dirname(target));
  if (path.dirname(source) !== path.dirname(target)) await fsyncDir(path.dirname(source));
}

/**
 * Whether `target` is the item at the source already: a case-only rename on a case-insensitive
 * disk. Anything else there is never replaced.
 */
async function isSameItem(target: string, source: Stats, from: string, to: string): Promise<boolean> {
  const targetStats = await lstat(target).catch((err: unknown) => {
    if (isMissing(err)) return undefined;
    throw err;
  });
  if (targetStats === undefined) return false;
  if (targetStats.ino === source.ino && targetStats.dev === source.dev) return true;
  // Some case-insensitive file systems number each spelling as an inode of its own (exFAT
  // mounted through FUSE does). There, a case-only rename whose new spelling no entry of the
  // folder has found the source itself under the other spelling.
  const caseOnly = pathKey(from) === pathKey(to) && parentOf(from) === parentOf(to);
  if (caseOnly && !(await isSpelledAs(target))) return true;
  throw new TargetExistsError(to);
}

/**
 * rename(2), and for a case-only rename onto the same item (`ontoItself`) a rename that takes:
 * APFS, HFS+ and NTFS change the spelling with a plain rename, but some file systems (FAT and
 * exFAT on Windows, case-insensitive ones mounted on Linux) answer success and keep the old
 * name, or refuse. There the item goes through a temp name beside it. That name is a plain visible one, never our
 * hidden temp-file name: were the process to die between the two steps, the next scan would
 * find the item there (a rename, by inode) rather than miss it and take it for deleted, and the
 * start-up clean-up of temp files would not delete it.
 */
async function renameOnDisk(deps: ExecutorDeps, source: string, target: string, ontoItself: boolean): Promise<void> {
  if (!ontoItself) {
    await rename(source, target);
    return;
  }
  const renamed = await rename(source, target).then(
    () => true,
    () => false,
  );
  if (renamed && (await isSpelledAs(target))) return;
  const temp = path.join(path.dirname(source), `assetsync-renaming-${randomBytes(4).toString('hex')}`);
  suppress(deps, path.relative(deps.root, temp).split(path.sep).join('/'));
  await rename(source, temp);
  try {
    await rename(temp, target);
  } catch (err) {
    await rename(temp, source).catch(() => undefined);
    throw err;
  }
}

/** Whether the entry at `abs` has exactly that name in its folder's listing (up to normalization). */
async function isSpelledAs(abs: string): Promise<boolean> {
  const name = path.basename(abs).normalize('NFC');
  return (await readdir(path.dirname(abs))).some((entry) => entry.normalize('NFC') === name);
}

/** Re-keys the base row at `basePath` to `to` (keeping what it says about the file). */
function moveBaseRow(deps: ExecutorDeps, basePath: string | null, to: string): void {
  if (basePath === null) return;
  const row = deps.index.base.getFile(deps.workspaceId, basePath);
  if (row === undefined) return;
  deps.index.base.deleteFile(deps.workspaceId, basePath);
  deps.index.base.putFile(deps.workspaceId, { ...row, path: to });
}

export async function moveLocal(action: MoveLocal, deps: ExecutorDeps): Promise<Outcome> {
  if (action.item === 'folder') return renameFolderOnDisk(action, deps);
  const { before, after } = await renameLocalFile(deps, action.from, action.to);
  deps.renamed?.set(pathKey(action.to), { before, after });
  const cache = deps.index.hashCache(deps.workspaceId);
  deps.index.transaction(() => {
    moveBaseRow(deps, action.basePath, action.to);
    const cached = cache.get(pathKey(action.from));
    if (cached !== undefined) {
      cache.delete(pathKey(action.from));
      // The rename moved the ctime: the entry follows only if it vouched for the file before
      // (else it keeps the old one, and the file is read again).
      cache.put(pathKey(action.to), cacheVouches(cached, before) ? { ...cached, ctimeNs: after.ctimeNs } : cached);
    }
  });
  recordActivity(deps, 'moved', action.to, `Moved ${action.from} to ${action.to}`);
  return DONE;
}

export async function moveRemote(action: MoveRemote, deps: ExecutorDeps): Promise<Outcome> {
  if (action.item === 'folder') return renameFolderOnService(action, deps);
  // Both are local paths: a hostile one is refused here like anywhere else.
  resolveInsideRoot(deps.root, action.from);
  resolveInsideRoot(deps.root, action.to);
  const folderId = remoteFolderId(deps, parentOf(action.to));
  try {
    await deps.client.updateAsset(deps.workspaceId, action.assetId, { file_name: nameOf(action.to), folder_id: folderId }, signalOpt(deps));
  } catch (err) {
    if (isServiceError(err) && err.kind === 'locked') {
      return deferred('the asset is locked by someone else', {
        locked: true,
        problem: { kind: 'locked', message: `"${action.from}" is ${lockedBy(deps, action.to)}: it was not renamed to "${action.to}" on the service` },
      });
    }
    throw err;
  }
  deps.index.transaction(() => moveBaseRow(deps, action.basePath, action.to));
  recordActivity(deps, 'moved', action.to, `Moved ${action.from} to ${action.to} on the service`);
  return DONE;
}

async function renameFolderOnDisk(action: MoveLocalFolder, deps: ExecutorDeps): Promise<Outcome> {
  await renameLocalFolder(deps, action.from, action.to);
  followFolder(deps, action, { hashCache: true });
  recordActivity(deps, 'moved', action.to, folderMoveText(action));
  return DONE;
}

async function renameFolderOnService(action: MoveRemoteFolder, deps: ExecutorDeps): Promise<Outcome> {
  resolveInsideRoot(deps.root, action.from);
  resolveInsideRoot(deps.root, action.to);
  // A rename sends the name only: the parent stays whatever the service has now.
  const patch = isMove(action) ? { name: nameOf(action.to), parent_id: remoteFolderId(deps, parentOf(action.to)) } : { name: nameOf(action.to) };
  await deps.client.updateFolder(deps.workspaceId, action.folderId, patch, signalOpt(deps));
  // The scan that found the folder renamed here has already re-keyed the hash cache.
  followFolder(deps, action, { hashCache: false });
  recordActivity(deps, 'moved', action.to, `${folderMoveText(action)} on the service`);
  return DONE;
}

/** Whether the folder changes parent or key (anything but a rename in letter case). */
function isMove(action: MoveLocalFolder | MoveRemoteFolder): boolean {
  return pathKey(action.from) !== pathKey(action.to) || parentOf(action.from) !== parentOf(action.to);
}

/**
 * The folder is at `to` on both sides now: its row, the rows of everything below it and its
 * remote id (and the ids of the folders below) follow, so that the next cycle sees it synced
 * where it went. A rename in letter case keeps every key: only the folder's own row changes.
 */
function followFolder(deps: ExecutorDeps, action: MoveLocalFolder | MoveRemoteFolder, opts: { hashCache: boolean }): void {
  if (!isMove(action)) {
    recordFolder(deps, action.to, action.folderId);
    return;
  }
  const [fromKey, toKey] = [pathKey(action.from), pathKey(action.to)];
  deps.index.transaction(() => {
    deps.index.base.moveTree(deps.workspaceId, action.from, action.to, action.folderId);
    if (opts.hashCache) deps.index.hashCache(deps.workspaceId).moveBelow?.(fromKey, toKey);
  });
  for (const [key, id] of [...deps.folderIds]) {
    if (key !== fromKey && !key.startsWith(`${fromKey}/`)) continue;
    deps.folderIds.delete(key);
    deps.folderIds.set(toKey + key.slice(fromKey.length), id);
  }
  deps.folderIds.set(toKey, action.folderId);
}

function folderMoveText(action: MoveLocalFolder | MoveRemoteFolder): string {
  return parentOf(action.from) === parentOf(action.to) ? `Renamed the folder ${action.from} to ${nameOf(action.to)}` : `Moved the folder ${action.from} to ${action.to}`;
}
