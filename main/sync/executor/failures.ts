/** The executor's own failures, each with a stable `code` for the per-path error rows. */
import { isServiceError } from '../../service-client/index.js';
import type { ProblemKind } from '../../../shared/engine.js';

/** The bytes received are not the ones the service announced: the temp file is dropped. */
export class ChecksumMismatchError extends Error {
  readonly code = 'checksum_mismatch';
  constructor(message: string) {
    super(message);
    this.name = 'ChecksumMismatchError';
  }
}

/** The body ended before all bytes arrived: the temp file is kept to resume from. */
export class IncompleteDownloadError extends Error {
  readonly code = 'download_incomplete';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'IncompleteDownloadError';
  }
}

/** A move would replace another file: never done, whatever the plan says. */
export class TargetExistsError extends Error {
  readonly code = 'target_exists';
  constructor(readonly relPath: string) {
    super(`"${relPath}" already exists: not replaced`);
    this.name = 'TargetExistsError';
  }
}

/** Something other than a regular file (a folder, a device) where a file was expected. */
export class NotAFileError extends Error {
  readonly code = 'not_a_file';
  constructor(readonly relPath: string) {
    super(`"${relPath}" is not a regular file`);
    this.name = 'NotAFileError';
  }
}

/** The stable code of any error: ours, the service's, or Node's errno code. */
export function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

const WRITABLE_AGAIN = 'the sync resumes once it can write there';
/** Local failures in words, by Node's error code, with what the user can do. */
const LOCAL_FAILURES: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full. Free some space: the sync resumes by itself',
  EDQUOT: 'the disk quota is used up. Free some space: the sync resumes by itself',
  EFBIG: 'the file is larger than this disk (or a size limit on it) accepts',
  EROFS: `the disk is read-only; ${WRITABLE_AGAIN}`,
  EACCES: `Asset Sync is not allowed to change it (the file or its folder is read-only or protected); ${WRITABLE_AGAIN}`,
  EPERM: `Asset Sync is not allowed to change it (the file or its folder is read-only, locked or protected); ${WRITABLE_AGAIN}`,
  EBUSY: 'another program is using it; the sync resumes once it is closed',
  ETXTBSY: 'another program is using it; the sync resumes once it is closed',
  ENAMETOOLONG: 'its path is too long for this disk',
  EIO: 'the disk reported a read or write error',
  EMFILE: 'too many files are open at once; the sync retries',
  ENFILE: 'too many files are open at once; the sync retries',
};

/** A failure at `relPath` as a user reads it: local ones in words, the service's as it said. */
export function failureMessage(err: unknown, relPath: string): string {
  // A role that may only view (or comment): nothing of this computer's changes can go up, and
  // retrying will not change that. Said as what it is, with whom to ask.
  if (isServiceError(err) && err.kind === 'forbidden') {
    return `"${relPath}" was not synced to the service: your role in this workspace does not allow changes. The file stays on this computer; ask a workspace admin for the editor role to sync your changes.`;
  }
  const reason = LOCAL_FAILURES[errorCode(err) ?? ''];
  return reason === undefined ? errorMessage(err) : `"${relPath}" could not be synced: ${reason}.`;
}

/** What kind of problem a failure is for the user. */
export function problemKindOf(err: unknown): ProblemKind {
  if (!isServiceError(err)) return 'error';
  if (err.kind === 'auth') return 'auth';
  if (err.kind === 'network') return 'offline';
  if (err.kind === 'locked') return 'locked';
  return 'error';
}

export function isMissing(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Whether a service call failed in a way a later, identical attempt may get past. */
export function isTransient(err: unknown): boolean {
  return isServiceError(err) && (err.transient || err.kind === 'aborted');
}
