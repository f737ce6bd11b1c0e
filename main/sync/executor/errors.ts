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
