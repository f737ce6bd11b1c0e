/**
 * Uploads: the bytes go to a signed URL, hashed while read; the commit
 * that makes them an asset or a version is conditional and idempotent. The journal keeps the
 * upload key, so an attempt after a crash commits the same key (the service never makes a
 * second version of one key), and the file is re-stated before committing: a file still being
 * written is left for the next cycle.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { JournalEntry } from '../../index/journal.js';
import { newHasher, type Hasher } from '../../local/checksum.js';
import { HASH_CHUNK_BYTES, type FileHash } from '../../local/hash.js';
import { pathKey } from '../../local/paths.js';
import { readStamp, sameStamp } from '../../local/stamp.js';
import { conflictDetails, isServiceError } from '../../service-client/index.js';
import type { UploadNew, UploadVersion } from '../actions.js';
import type { LocalFile } from '../../model/views.js';
import { nameOf, parentOf } from '../rel-path.js';
import { SMALL_TRANSFER_BYTES, type TransferHandle } from '../transfer-queue.js';
import {
  DONE,
  afterOurRename,
  deferred,
  lockedBy,
  recordActivity,
  remoteFolderId,
  signalOpt,
  type Deferred,
  type ExecutorDeps,
  type Outcome,
} from './context.js';
import { NO_FOLLOW, writablePath } from './disk.js';
import { NotAFileError, isMissing, isTransient } from './failures.js';
import { openEntriesAt } from './journal-entries.js';
import { moveToConflictCopy } from './conflict-copy.js';
import { recordSyncedFile } from './bookkeeping.js';

type UploadAction = UploadNew | UploadVersion;

const CONTENT_TYPE = 'application/octet-stream';

/** What the journal keeps about an upload (beside the path and the asset id). */
interface UploadState {
  target: 'new' | 'version';
  checksum: string;
  size: number;
  /** The stamp of the bytes uploaded: the base row's, once committed. */
  mtimeNs: string;
  inode: number;
  parentVersionId?: string;
  uploadKey?: string;
  /** The bytes are stored under `uploadKey`: a later attempt commits without sending them again. */
  uploaded?: boolean;
}

export async function upload(action: UploadAction, deps: ExecutorDeps): Promise<Outcome> {
  const abs = await writablePath(deps, action.path);
  const local = afterOurRename(deps, action.path, action.local);
  // A new asset needs its folder on the service: known before any byte is sent.
  const folderId = action.kind === 'upload-new' ? remoteFolderId(deps, parentOf(action.path)) : null;
  if (!(await unchangedSince(abs, local))) return stillChanging(action.path);

  const entry = journalEntryFor(action, deps);
  const state = entry?.state as UploadState | undefined;
  let key = state?.uploaded === true ? state.uploadKey : undefined;
  if (key === undefined) {
    let sent: { hash: FileHash; key: string };
    try {
      sent = await deps.queue.run(
        { workspaceId: deps.workspaceId, path: action.path, direction: 'upload', bytesTotal: local.size, ...signalOpt(deps) },
        async (t) => {
          // Asked once the slot is ours: a signed URL taken before waiting in line could expire
          // behind a few large files.
          const ticket = await deps.client.requestUpload(
            deps.workspaceId,
            { fileName: nameOf(action.path), contentType: CONTENT_TYPE, checksum: local.checksum, size: local.size },
            { signal: t.signal },
          );
          return { hash: await sendFile(deps, abs, ticket.signed_url, local, t), key: ticket.key };
        },
      );
    } catch (err) {
      // The service hashes what it receives: other bytes than scanned means the file changed.
      if (isServiceError(err) && err.code === 'checksum_mismatch') {
        finishEntry(deps, entry);
        return readOtherBytes(deps, action.path);
      }
      throw err;
    }
    if (sent.hash.checksum !== local.checksum || sent.hash.size !== local.size) {
      finishEntry(deps, entry);
      return readOtherBytes(deps, action.path);
    }
    // Stored bytes are worth a key in the journal: a retry commits them without sending again.
    // A small file has no entry: sending it again on the rare retry costs less than two commits
    // on every upload, and the commit stays idempotent (a landed asset or version is adopted).
    if (entry !== undefined) deps.index.journal.update(entry.id, { state: { uploadKey: sent.key, uploaded: true } });
    key = sent.key;
  }

  // Maestral's DataChangedError: a file written during the upload is not committed (its ctime
  // tells, even when the writer gave it back its size and mtime).
  if (!(await unchangedSince(abs, local))) {
    finishEntry(deps, entry);
    return stillChanging(action.path);
  }

  const committed =
    action.kind === 'upload-new' ? await commitNew(action, deps, entry, key, folderId) : await commitVersion(action, deps, entry, key);
  if ('deferred' in committed) return committed;

  const synced = { path: action.path, assetId: committed.assetId, versionId: committed.versionId, checksum: local.checksum, stamp: local };
  // The service holds the commit: the record of it need not hold the action's place (late-records.ts).
  if (deps.lateRecords) deps.lateRecords.add(action.path, recordSyncedFile(deps, synced, entry, true));
  else await recordSyncedFile(deps, synced, entry);
  const version = { assetId: committed.assetId, versionId: committed.versionId, number: committed.number };
  recordActivity(deps, 'uploaded', action.path, committed.adopted ? `Uploaded ${action.path} (found on the service)` : `Uploaded ${action.path}`, version);
  return DONE;
}

interface Committed {
  assetId: string;
  versionId: string;
  /** An earlier attempt had landed: its asset was adopted. */
  adopted: boolean;
  /** The version's number, when the answer gave it. */
  number: number | null;
}

async function commitNew(
  action: UploadNew,
  deps: ExecutorDeps,
  entry: JournalEntry | undefined,
  key: string,
  folderId: string | null,
): Promise<Committed | Deferred> {
  const { local } = action;
  if (action.revive) {
    const revived = await reviveAsset(action, action.revive, deps, entry, key);
    if (revived !== null) return revived;
  }
  try {
    const asset = await deps.client.createAsset(
      deps.workspaceId,
      { key, file_name: nameOf(action.path), folder_id: folderId, checksum: local.checksum, size: local.size },
      signalOpt(deps),
    );
    return { assetId: asset.id, versionId: asset.current_version_id, adopted: false, number: asset.currentVersion?.version_number ?? null };
  } catch (err) {
    const details = conflictDetails(err);
    if (isServiceError(err) && err.code === 'name_conflict' && details?.id !== undefined && details.current_version_id !== undefined) {
      // Our earlier create landed but its answer was lost: the same bytes are already there.
      if (details.checksum === local.checksum) return { assetId: details.id, versionId: details.current_version_id, adopted: true, number: null };
      finishEntry(deps, entry);
      return setAsideAsConflict(action, deps);
    }
    if (!isTransient(err)) finishEntry(deps, entry);
    throw err;
  }
}

/**
 * Restores the asset the file was synced with and commits the file as its version (UploadNew
 * `revive`); null when it cannot be restored, for a new asset instead. A crash between the two
 * calls is safe: the next plan finds the asset back in place, and the local edit a change of it.
 */
async function reviveAsset(
  action: UploadNew,
  revive: NonNullable<UploadNew['revive']>,
  deps: ExecutorDeps,
  entry: JournalEntry | undefined,
  key: string,
): Promise<Committed | Deferred | null> {
  try {
    await deps.client.restoreAsset(deps.workspaceId, revive.assetId, signalOpt(deps));
  } catch (err) {
    // Deleted for good, or its name taken meanwhile: a new asset it is. Restored by someone else
    // already: the edit is committed to it all the same.
    if (isServiceError(err) && (err.kind === 'not_found' || err.code === 'name_conflict')) return null;
    if (!(isServiceError(err) && err.code === 'not_deleted')) {
      if (!isTransient(err)) finishEntry(deps, entry);
      throw err;
    }
  }
  recordActivity(deps, 'restored', action.path, `Restored ${action.path} on the service: it was deleted there while you edited it`);
  const asVersion: UploadVersion = { kind: 'upload-version', path: action.path, assetId: revive.assetId, parentVersionId: revive.parentVersionId, local: action.local, reason: action.reason };
  return commitVersion(asVersion, deps, entry, key);
}

async function commitVersion(action: UploadVersion, deps: ExecutorDeps, entry: JournalEntry | undefined, key: string): Promise<Committed | Deferred> {
  const { local } = action;
  try {
    const version = await deps.client.createVersion(
      deps.workspaceId,
      action.assetId,
      { key, checksum: local.checksum, size: local.size, commit_parent_id: action.parentVersionId },
      signalOpt(deps),
    );
    return { assetId: action.assetId, versionId: version.id, adopted: false, number: version.version_number };
  } catch (err) {
    if (!isTransient(err)) finishEntry(deps, entry);
    if (isServiceError(err) && err.code === 'version_conflict') {
      return deferred('someone committed a newer version first', {
        problem: {
          kind: 'conflict',
          message: `"${action.path}" changed on the service while your edit was uploading: nothing was overwritten`,
          hint: 'The next sync keeps both versions (yours as a conflicted copy).',
        },
      });
    }
    if (isServiceError(err) && err.kind === 'locked') {
      return deferred('the asset is locked by someone else', {
        locked: true,
        problem: { kind: 'locked', message: `"${action.path}" is ${lockedBy(deps, action.path)}: your edit waits for the lock`, hint: 'Ask them to unlock it.' },
      });
    }
    throw err;
  }
}

/**
 * Another asset with different bytes has the name: the local file steps aside as a conflicted
 * copy (uploaded by the next cycle), and the service's file will be downloaded in its place. A
 * conflicted copy of ours takes the next free conflicted-copy name of its original.
 */
async function setAsideAsConflict(action: UploadNew, deps: ExecutorDeps): Promise<Deferred> {
  const { copyPath: copy } = await moveToConflictCopy(deps, action.copyOf ?? action.path, action.path);
  recordActivity(deps, 'conflict', copy, `Kept ${action.path} as ${copy}: the service has another file with that name`);
  return deferred('another asset with different content has this name', {
    conflict: true,
    problem: {
      kind: 'conflict',
      message: `"${action.path}" was also created on the service with different content: yours is kept as "${copy}"`,
      hint: 'Compare the two files and keep the one you want.',
    },
  });
}

/**
 * The entry of this upload: an earlier attempt's for the same bytes and target (its stored key
 * is committed, not sent again), or a new one. Entries for other bytes are obsolete.
 *
 * A small file gets none: its key is never kept (it is sent again instead), and after a crash
 * the planner finds a landed commit by its checksum, as the entry would have. Writing and
 * deleting the entry was a fifth of the index's work per small file.
 */
function journalEntryFor(action: UploadAction, deps: ExecutorDeps): JournalEntry | undefined {
  const target = action.kind === 'upload-new' ? 'new' : 'version';
  const assetId = action.kind === 'upload-version' ? action.assetId : null;
  let reusable: JournalEntry | undefined;
  for (const entry of openEntriesAt(deps, 'upload', action.path)) {
    const state = entry.state as Partial<UploadState>;
    // An entry for a new asset holds no asset id, one for a version its asset's: the ids tell
    // the targets apart.
    const same = state.checksum === action.local.checksum && entry.assetId === assetId;
    if (reusable === undefined && same) reusable = entry;
    else deps.index.journal.finish(entry.id);
  }
  if (reusable) return reusable;
  if (action.local.size <= SMALL_TRANSFER_BYTES) return undefined;
  const state: UploadState = {
    target,
    checksum: action.local.checksum,
    size: action.local.size,
    mtimeNs: action.local.mtimeNs,
    inode: action.local.inode,
    ...(action.kind === 'upload-version' ? { parentVersionId: action.parentVersionId } : {}),
  };
  return deps.index.journal.begin({ workspaceId: deps.workspaceId, kind: 'upload', path: action.path, assetId, state: { ...state } });
}

function finishEntry(deps: ExecutorDeps, entry: JournalEntry | undefined): void {
  if (entry !== undefined) deps.index.journal.finish(entry.id);
}

async function unchangedSince(abs: string, local: LocalFile): Promise<boolean> {
  const stamp = await readStamp(abs).catch((err: unknown) => {
    if (isMissing(err)) return undefined;
    throw err;
  });
  return stamp !== undefined && sameStamp(stamp, local);
}

/**
 * The file held other bytes than the checksum the plan was made with. That checksum may have
 * come from the hash cache, whose stamp the file may still match (a write that restored the
 * mtime, or one within the same clock tick): the entry is dropped, so the next scan reads the
 * file instead of planning the same upload of bytes it no longer holds, for ever.
 */
function readOtherBytes(deps: ExecutorDeps, relPath: string): Deferred {
  deps.index.hashCache(deps.workspaceId).delete(pathKey(relPath));
  return stillChanging(relPath);
}

function stillChanging(relPath: string): Deferred {
  return deferred('the file changed since it was scanned', {
    problem: {
      kind: 'unstable',
      message: `"${relPath}" changed while it was being uploaded: nothing was committed`,
      hint: 'It is uploaded once it stops changing.',
    },
  });
}

/** Sends the file to the signed URL; returns the checksum and size of what was sent. */
async function sendFile(deps: ExecutorDeps, abs: string, url: string, local: LocalFile, t: TransferHandle): Promise<FileHash> {
  // A small file is read in one call and sent as one buffer: most assets of a design workspace
  // are small, and a stream per file cost more than its bytes.
  if (local.size <= SMALL_TRANSFER_BYTES) return sendSmallFile(deps, abs, local, url, t);
  let reading: HashedReading | undefined;
  // A function, not a stream: each retry of the PUT reads the file afresh.
  const body = (): AsyncIterable<Uint8Array> => {
    reading = { hash: newHasher(deps.algorithm), size: 0 };
    return readHashed(abs, t, reading);
  };
  await deps.client.putSignedUpload(url, body, { size: local.size, contentType: CONTENT_TYPE, signal: t.signal, onProgress: (bytes) => t.progress(bytes) });
  // The HTTP client may stop pulling once the service has answered, before the reader sees the
  // end of the file: what was hashed is exactly what was handed over.
  if (reading === undefined) throw new Error(`the upload of ${local.path} sent no bytes`);
  return { checksum: reading.hash.digest(), size: reading.size };
}

/** The whole file in one buffer: what is hashed is exactly what is sent, however it changes meanwhile. */
async function sendSmallFile(deps: ExecutorDeps, abs: string, local: LocalFile, url: string, t: TransferHandle): Promise<FileHash> {
  const bytes = readSmallFile(abs, local.path);
  const read = (): FileHash => {
    const hash = newHasher(deps.algorithm);
    hash.update(bytes);
    return { checksum: hash.digest(), size: bytes.length };
  };
  // Another size than the scan's is another file: the upload declared the scanned size, and a
  // service refuses a body longer than declared. Nothing is sent; the caller sees the change.
  if (bytes.length !== local.size) return read();
  await t.throttle(bytes.length);
  await deps.client.putSignedUpload(url, bytes, { contentType: CONTENT_TYPE, signal: t.signal, onProgress: (n) => t.progress(n) });
  return read();
}

/**
 * A small file read with synchronous calls: from the page cache they take tens of µs, where
 * `FileHandle.readFile` made five calls through the thread pool (open, fstat, two reads, close),
 * each a wake-up of another thread that cost the main thread more than the call. Uploading
 * 10,000 small files took 12.7-15.5 s of CPU instead of 16.9-17.8 s (A/B runs).
 * O_NONBLOCK: a FIFO put in the file's place does not hang the open, and is refused.
 */
function readSmallFile(abs: string, relPath: string): Buffer {
  const fd = openSync(abs, constants.O_RDONLY | NO_FOLLOW | (constants.O_NONBLOCK ?? 0));
  try {
    if (!fstatSync(fd).isFile()) throw new NotAFileError(relPath);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

interface HashedReading {
  hash: Hasher;
  size: number;
}

/** The file's bytes in 1 MiB chunks, throttled and hashed on the way (no second read). */
async function* readHashed(abs: string, t: TransferHandle, reading: HashedReading): AsyncGenerator<Uint8Array> {
  const handle = await open(abs, constants.O_RDONLY | NO_FOLLOW);
  try {
    for await (const chunk of handle.createReadStream({ highWaterMark: HASH_CHUNK_BYTES, autoClose: false })) {
      const bytes = chunk as Buffer;
      await t.throttle(bytes.length);
      // Counted before it is handed over, so the count is right even if nothing asks for more.
      reading.hash.update(bytes);
      reading.size += bytes.length;
      yield bytes;
    }
  } finally {
    await handle.close();
  }
}
