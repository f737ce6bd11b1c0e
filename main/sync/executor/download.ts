/**
 * Downloads: into a hidden temp file beside the target, hashed while written,
 * fsynced, then renamed over the target only if the target is still what the plan saw. A large
 * file's journal entry names its temp file, so an interrupted download resumes with `Range` from
 * what is on disk; bytes that do not hash to the announced checksum are thrown away.
 */
import { constants, fstatSync, lstatSync } from 'node:fs';
import { lstat, open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { JournalEntry } from '../../index/journal.js';
import { DEFAULT_ALGORITHM, algorithmOf, verifies } from '../../local/checksum.js';
import { tempFileName } from '../../local/own-files.js';
import { etagSaysOtherBytes } from '../../service-client/ours.js';
import { resolveInsideRoot } from '../../local/paths.js';
import { afterOwnMove, stampOf, type FileStamp } from '../../local/stamp.js';
import type { Download } from '../actions.js';
import { versionSuffix, type RemoteFile } from '../../model/views.js';
import { joinPath, parentOf } from '../rel-path.js';
import { SMALL_TRANSFER_BYTES, type TransferHandle } from '../transfer-queue.js';
import { DONE, deferred, recordActivity, reportProblem, signalOpt, suppressWrite, type ExecutorDeps, type Outcome } from './context.js';
import { BatchedWriter, FileWriteError, type FileWriter } from './batched-writer.js';
import { DirectWriter, directStart, openDirect } from './direct-writer.js';
import { eachChunk } from './each-chunk.js';
import { downloadHash, type DownloadHash } from './download-hash.js';
import { NO_FOLLOW, checkCreated, checkWritable, currentFile, ensureParent, fsyncDir, writablePath, writablePathNow, type CurrentFile } from './disk.js';
import { placeAtFreeName, placeOver, type Placed } from './place-file.js';
import { moveToConflictCopy } from './conflict-copy.js';
import { conflictProblem } from './open-conflicts.js';
import { ChecksumMismatchError, IncompleteDownloadError, NotAFileError, isTransient } from './failures.js';
import { discardDownload, openEntriesAt, tempPathOf } from './journal-entries.js';
import { recordSyncedFile } from './bookkeeping.js';

export async function download(action: Download, deps: ExecutorDeps): Promise<Outcome> {
  const { remote } = action;
  await ensureParent(deps, action.path);
  // Only resolved here: its folder is checked right before the temp file is created and again
  // right before the rename, and the name itself where the file is put (place()). A first look
  // at a name not yet on disk waits for the folder's lock while other downloads create files in it.
  const target = resolveInsideRoot(deps.root, action.path);
  const claim = await claimTemp(action, deps);
  const { entry, fresh, tempRel } = claim;
  // Beside the target: its folder is checked right before the temp file is created, which is
  // opened without following a symlink.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: either way the path is checked; this way once less
  const temp = parentOf(tempRel) === parentOf(action.path) ? resolveInsideRoot(deps.root, tempRel) : await writablePath(deps, tempRel);

  let stamp: FileStamp;
  /** What the bytes hash to: the base row and the hash cache keep it (the remote's checksum, unless that is of a form nobody can tell). */
  let checksum: string;
  try {
    ({ stamp, checksum } = await deps.queue.run(
      { workspaceId: deps.workspaceId, path: action.path, direction: 'download', bytesTotal: remote.size, ...signalOpt(deps) },
      (t) => fetchInto(deps, remote, temp, fresh, t),
    ));
  } catch (err) {
    // Bytes received are kept for a resume (by the journal entry only a large file has), unless
    // they are wrong or nothing can complete them.
    if (entry !== undefined && (err instanceof IncompleteDownloadError || isTransient(err) || deps.signal?.aborted === true)) {
      const bytesDone = await sizeOf(temp);
      if (bytesDone > 0) {
        deps.index.journal.update(entry.id, { state: { bytesDone } });
        throw err;
      }
    }
    await discardClaim(deps, claim);
    throw err;
  }

  let placed: Placed;
  let placedStamp: FileStamp;
  try {
    // The user may have written the target since the plan was made (Syncthing's
    // scanIfItemChanged): their bytes win, the next cycle sees both sides changed. A new file
    // needs no look first: the link that puts it in place takes a free name only.
    // Stryker disable next-line ConditionalExpression: looking first at a name that should be free refuses the same
    const now = action.replaces === null
      ? null
      : await currentFile(deps, action.path, target).catch((err: unknown) => {
          // Stryker disable next-line StringLiteral: any string stands for "not a file" in place(): a string has no checksum, so it is never the one the plan replaces
          if (err instanceof NotAFileError) return 'not-a-file' as const;
          throw err;
        });
    // The download may have taken long: check again that no symlink was swapped in for the
    // folder meanwhile, with nothing of ours between this check and the rename. The name itself
    // is looked at by place(): a link neither follows nor replaces what is there.
    // Stryker disable next-line BooleanLiteral: looking at the name here as well refuses the same symlinks, only sooner
    checkWritable(deps, target, false);
    // The check that counts is made again in place(), synchronously with the rename: nothing of
    // ours runs between them, and the thread pool cannot hold the rename up behind fsyncs.
    placed = place(deps, action, temp, target, now);
    if (placed.kind === 'changed') {
      // A symlink at the name is refused as a way out of the root, not taken for the user's file.
      writablePathNow(deps, action.path);
      await discardClaim(deps, claim);
      return deferred('the local file changed after the plan was made', {
        problem: {
          kind: 'unstable',
          message: `"${action.path}" changed on disk while its new version was downloading: it was not overwritten`,
          hint: 'Nothing to do: the next sync compares both versions again.',
        },
      });
    }
    // With the ctime the link or rename left, and before the watcher hears of it (its events
    // come on a later turn).
    placedStamp = afterOwnMove(target, stamp);
    suppressWrite(deps, action.path, placedStamp);
  } catch (err) {
    // A journalled temp file waits for the next attempt, complete; one without an entry would
    // be left behind with every attempt (a read-only target fails each rename).
    if (entry === undefined) await discardClaim(deps, claim).catch(() => undefined);
    throw err;
  }
  await fsyncDir(path.dirname(target));
  await recordSyncedFile(deps, { path: action.path, assetId: remote.assetId, versionId: remote.versionId, checksum, stamp: placedStamp }, entry);
  recordActivity(deps, 'downloaded', action.path, `Downloaded ${action.path}${versionSuffix(remote)}`, { assetId: remote.assetId, versionId: remote.versionId, number: remote.versionNumber || null });
  if (placed.kind === 'edited-meanwhile') await keepEditAsConflict(deps, action.path, placed.keptAt);
  return DONE;
}

/**
 * Puts the temp file at the target if the target is still what the plan saw: absent, or the
 * file with the checksum the download replaces.
 */
function place(deps: ExecutorDeps, action: Download, temp: string, target: string, now: CurrentFile | 'not-a-file' | null): Placed {
  if (now === null) return action.replaces === null ? placeAtFreeName(temp, target, deps.placeHooks) : { kind: 'changed' };
  // Stryker disable next-line StringLiteral: a string has no checksum, so whatever string it is compared with, it is never the one the plan replaces
  if (now === 'not-a-file' || now.checksum !== action.replaces) return { kind: 'changed' };
  // The replaced file's second name while the rename happens: a fresh hidden one beside it.
  const keepRel = joinPath(parentOf(action.path), tempFileName());
  const placed = placeOver(temp, target, now.stamp, resolveInsideRoot(deps.root, keepRel), deps.placeHooks);
  return placed.kind === 'edited-meanwhile' ? { ...placed, keptAt: keepRel } : placed;
}

/**
 * The user saved into the old file while the new version took its name: that edit, kept under
 * a hidden name, becomes a conflicted copy (uploaded by the next cycle) and is reported.
 */
async function keepEditAsConflict(deps: ExecutorDeps, relPath: string, keptRel: string): Promise<void> {
  const conflict = await moveToConflictCopy(deps, relPath, keptRel);
  recordActivity(deps, 'conflict', conflict.copyPath, `${relPath} was saved while its new version was put in place: your edit is kept as ${conflict.copyPath}`);
  const { workspaceId: _, ...problem } = conflictProblem(deps.workspaceId, conflict);
  reportProblem(deps, problem);
}

/** The temp file a download writes, and the journal entry naming it (if it has one). */
interface TempClaim {
  tempRel: string;
  /** Nothing can be at `tempRel` yet: the name was just made up. */
  fresh: boolean;
  entry: JournalEntry | undefined;
}

/**
 * The temp file of this download: the one an earlier attempt left for the same bytes (it is
 * resumed), or a new one. Entries of the path for other bytes are obsolete.
 */
async function claimTemp(action: Download, deps: ExecutorDeps): Promise<TempClaim> {
  let resumable: JournalEntry | undefined;
  for (const entry of openEntriesAt(deps, 'download', action.path)) {
    if (resumable === undefined && entry.state.checksum === action.remote.checksum && tempPathOf(entry) !== undefined) {
      resumable = entry;
    } else {
      await discardDownload(deps, entry);
    }
  }
  if (resumable) return { tempRel: tempPathOf(resumable) as string, fresh: false, entry: resumable };
  const tempRel = joinPath(parentOf(action.path), tempFileName());
  // A small file gets no entry: it is never resumed, and a temp file a crash leaves behind is
  // removed at the next start like any stray one. The entry's write and delete were a fifth of
  // the index's work per small file.
  // Stryker disable next-line BooleanLiteral: not fresh, the name just made up is looked up (nothing is there) and the bytes are fsynced instead of written with O_SYNC: as durable, only slower
  if (action.remote.size <= SMALL_TRANSFER_BYTES) return { tempRel, fresh: true, entry: undefined };
  const entry = deps.index.journal.begin({
    workspaceId: deps.workspaceId,
    kind: 'download',
    path: action.path,
    assetId: action.remote.assetId,
    state: {
      tempPath: tempRel,
      versionId: action.remote.versionId,
      checksum: action.remote.checksum,
      size: action.remote.size,
      bytesDone: 0,
    },
  });
  // Stryker disable next-line BooleanLiteral: not fresh, the name just made up is looked up and nothing is there; a large file is fsynced either way
  return { tempRel, fresh: true, entry };
}

/** Removes the temp file and closes the entry, if any. */
async function discardClaim(deps: ExecutorDeps, claim: TempClaim): Promise<void> {
  if (claim.entry !== undefined) return discardDownload(deps, claim.entry);
  await rm(resolveInsideRoot(deps.root, claim.tempRel), { force: true });
}

async function sizeOf(abs: string): Promise<number> {
  return lstat(abs).then(
    (s) => s.size,
    () => 0,
  );
}

/**
 * Brings the temp file to the remote's full bytes, verified and on disk; resumes from what it
 * holds. Answers the file's stamp, which the rename into place keeps (an fstat needs no lookup
 * in a folder where other downloads hold the lock).
 */
async function fetchInto(deps: ExecutorDeps, remote: RemoteFile, temp: string, fresh: boolean, t: TransferHandle): Promise<{ stamp: FileStamp; checksum: string }> {
  // The bytes are hashed in the algorithm of the checksum they are checked against; where that
  // cannot be told, in the workspace's, and then checked by size alone.
  const algorithm = algorithmOf(remote.checksum) ?? deps.algorithm ?? DEFAULT_ALGORITHM;
  // A fresh entry's temp name was just made up: nothing can be there, and O_EXCL proves it.
  // (An lstat of a name in a folder where other downloads create and rename files waits for
  // the folder's lock: 60 µs a file on the main thread.)
  const existing = fresh ? undefined : lstatSync(temp, { throwIfNoEntry: false });
  if (existing !== undefined && !existing.isFile()) throw new NotAFileError(temp);
  // A small file is written with O_SYNC: its one write returns once the bytes and the inode are
  // on disk, as an fsync after it would make sure, and that fsync's trip through the thread pool
  // is saved. A large file keeps the page cache's batching and one fsync at the end.
  const synced = fresh && remote.size > 0 && remote.size <= SMALL_TRANSFER_BYTES;
  const flags = existing ? constants.O_RDWR : constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (synced ? SYNC_WRITES : 0);
  // Checked again right before the file is created: the wait for a transfer slot may have been
  // long. The temp file itself needs no look: it is opened with O_NOFOLLOW (and a fresh one
  // with O_EXCL).
  checkWritable(deps, temp, false);
  const file = await open(temp, flags | NO_FOLLOW, 0o644);
  if (!existing) await checkCreated(deps, temp, file);
  let direct: FileHandle | undefined;
  let hash: DownloadHash | undefined;
  try {
    direct = await openDirect(file, remote.size);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: how the hash reads the bytes, not its result (download-hash.ts)
    hash = downloadHash(remote.size, temp, direct !== undefined, algorithm);
    let offset = 0;
    if (existing !== undefined) {
      if (existing.size > remote.size) await file.truncate(0);
      else {
        // A direct write starts at a block boundary: the last few bytes received come again.
        offset = direct ? directStart(existing.size) : existing.size;
        await hash.prefix(file, offset);
      }
    }
    t.progress(offset);
    if (offset < remote.size) {
      const signed = await deps.client.getDownloadUrl(deps.workspaceId, remote.assetId, remote.versionId, { signal: t.signal });
      const res = await openBody(deps, signed.url, offset, t.signal, direct !== undefined);
      // The ETag is the blob's checksum: other bytes than planned must not complete our prefix
      // (what `If-Range` would guard against).
      if (res.etag !== undefined && etagSaysOtherBytes(res.etag, remote.checksum)) {
        res.destroy();
        throw new ChecksumMismatchError(`the service serves ${res.etag} for ${remote.path}, not the expected ${remote.checksum}`);
      }
      if (offset > 0 && res.status === 200) {
        // The range was ignored: the body is the whole file.
        await file.truncate(0);
        hash.drop();
        // Stryker disable next-line ConditionalExpression,EqualityOperator: how the hash reads the bytes, not its result (download-hash.ts)
        hash = downloadHash(remote.size, temp, direct !== undefined, algorithm);
        offset = 0;
      }
      // Stryker disable next-line ObjectLiteral,ArrowFunction,OptionalChaining: telling the hash of each block is for speed; the digest reads what it was not told
      const writer = direct ? new DirectWriter(file, direct, offset, { hashBlock: hash.block }) : new BatchedWriter(file, offset, (end) => hash?.written(end));
      offset = await writeBody(res, writer, offset, hash, remote, t);
    }
    if (offset < remote.size) throw new IncompleteDownloadError(`${remote.path}: the body ended at byte ${offset} of ${remote.size}`);
    const checksum = await hash.digest(offset);
    if (!verifies(remote, { checksum, size: offset })) {
      throw new ChecksumMismatchError(`${remote.path}: the bytes received hash to ${checksum}, not ${remote.checksum}`);
    }
    // Locked by someone else: it arrives read-only, as the file it replaces was (a change of
    // the inode that no write made durable).
    const readOnly = lockedByOther(remote, deps);
    if (readOnly) await file.chmod(Number(fstatSync(file.fd).mode) & 0o7777 & ~0o222);
    if (!synced || readOnly || SYNC_WRITES === 0) await file.sync();
    return { stamp: stampOf(fstatSync(file.fd, { bigint: true })), checksum };
  } catch (err) {
    hash?.drop();
    throw err;
  } finally {
    try {
      await direct?.close();
    } finally {
      await file.close();
    }
  }
}

/** Each write returns once on disk (0 where the OS has no such flag: an fsync follows instead). */
// Stryker disable next-line LogicalOperator: with 0, no write is O_SYNC and every download is fsynced instead: as durable, only slower
const SYNC_WRITES = constants.O_SYNC ?? 0;

const lockedByOther = (remote: RemoteFile, deps: ExecutorDeps): boolean =>
  deps.selfUserId !== undefined && remote.lockedByUserId !== null && remote.lockedByUserId !== deps.selfUserId;

/** A response body as the download reads it: chunk by chunk, with back-pressure. */
interface Body {
  status: 200 | 206 | 304;
  etag: string | undefined;
  /**
   * Chunks are valid until the call returns or the promise it answers settles. `readInto` may
   * say where the next bytes should be read to (the socket reader takes it, undici does not).
   */
  each(onChunk: (chunk: Buffer) => Promise<void> | undefined, readInto?: () => Buffer | undefined): Promise<void>;
  destroy(): void;
}

/**
 * The body from `start` on. A direct write takes each chunk into its blocks before it asks for
 * the next, so it can take the body read from the socket (straight into its blocks where it
 * offers them, several times less CPU than undici's stream); the page-cache writer keeps chunks
 * to batch them, so it gets undici's, as does any response the socket reader does not take.
 */
async function openBody(deps: ExecutorDeps, url: string, start: number, signal: AbortSignal, direct: boolean): Promise<Body> {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a start of 0 sends no Range either way
  const options = { ...(start > 0 ? { start } : {}), signal };
  const fromSocket = direct ? await deps.client.downloadFromSocket(url, options) : undefined;
  if (fromSocket !== undefined) return fromSocket;
  const res = await deps.client.downloadRange(url, options);
  return { status: res.status, etag: res.etag, each: (onChunk) => eachChunk(res.body, onChunk), destroy: () => discard(res.body) };
}

/** Stops a body we no longer want; undici reports that as an error nobody needs to hear. */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** Writes the body from `offset` on, hashing each chunk as it goes; returns the end offset. */
async function writeBody(
  body: Body,
  writer: FileWriter,
  offset: number,
  hash: DownloadHash,
  remote: RemoteFile,
  t: TransferHandle,
): Promise<number> {
  let position = offset;
  const take = (chunk: Buffer): Promise<void> | undefined => {
    if (position + chunk.length > remote.size) {
      throw new ChecksumMismatchError(`${remote.path}: the service sent more than the ${remote.size} bytes announced`);
    }
    hash.received(chunk);
    const writing = writer.add(chunk);
    position += chunk.length;
    t.progress(position);
    return writing;
  };
  try {
    await body.each(
      (chunk) => {
        const throttled = t.throttle(chunk.length);
        return throttled === undefined ? take(chunk) : throttled.then(() => take(chunk));
      },
      // Stryker disable next-line all: where the socket reads the next bytes into, not which bytes
      writer.space === undefined ? undefined : () => writer.space?.(),
    );
    await writer.end();
  } catch (err) {
    body.destroy();
    // A write that fails (a full disk) is this computer's problem, not a broken connection.
    if (err instanceof FileWriteError) {
      await writer.settle();
      throw err.cause;
    }
    if (err instanceof ChecksumMismatchError) {
      await writer.settle();
      throw err;
    }
    // The bytes that arrived are right so far: on disk, they let the next attempt ask for the rest.
    await writer.end().catch((writeErr: unknown) => {
      throw writeErr instanceof FileWriteError ? writeErr.cause : writeErr;
    });
    if (t.signal.aborted) throw err;
    throw new IncompleteDownloadError(`${remote.path}: the connection broke at byte ${position} of ${remote.size}`, { cause: err });
  }
  return position;
}
