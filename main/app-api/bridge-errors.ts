/**
 * What a failed call tells the user: a stable code to branch on and a sentence to show. Nothing
 * from the inside crosses the bridge (no stack, no request line, no token or key): each known
 * failure gets its own words, anything else a generic sentence and a line in the log.
 */
import type { BridgeError } from '../../shared/ipc.js';
import { CredentialsError } from '../bootstrap.js';
import { KeychainUnavailableError } from '../secrets/secret-store.js';
import { UnknownWorkspaceError } from '../index/workspaces.js';
import { PathEscapeError } from '../local/paths.js';
import { UnsafeRootError } from '../root-check.js';
import { RootBusyError } from '../root-lock.js';
import { isServiceError, type ServiceErrorKind } from '../service-client/service-error.js';
import { LockHeldError, LockNotAllowedError } from '../engine/asset-lock.js';
import { ConflictNotFoundError, CopyChangingError, TheirsUnknownError } from '../sync/executor/index.js';

/** A failure whose message is already meant for the user. */
export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const SERVICE_MESSAGES: Record<ServiceErrorKind, BridgeError> = {
  auth: { code: 'auth', message: 'The service did not accept the sign-in. Sign in again in Settings.' },
  forbidden: { code: 'forbidden', message: 'Your account is not allowed to do this. Ask a workspace admin for the role it needs.' },
  not_found: { code: 'not_found', message: 'It no longer exists on the service.' },
  conflict: { code: 'conflict', message: 'It changed on the service meanwhile. Refresh and try again.' },
  locked: { code: 'locked', message: 'Someone else has locked this asset. Ask them to unlock it, or try again once they have.' },
  rate_limited: { code: 'busy', message: 'The service is busy. Try again in a moment.' },
  server: { code: 'service_error', message: 'The service had a problem. Try again later.' },
  network: { code: 'offline', message: 'The service cannot be reached. Check the connection.' },
  malformed: { code: 'service_error', message: 'The service sent an answer Asset Sync does not understand.' },
  client: { code: 'rejected', message: 'The service refused the request. Check the name and your role in the workspace, then try again.' },
  aborted: { code: 'cancelled', message: 'The operation was cancelled.' },
};

const FILE_MESSAGES: Record<string, BridgeError> = {
  ENOENT: { code: 'not_found', message: 'The file is not on this device.' },
  EACCES: { code: 'permission', message: 'Asset Sync is not allowed to read or write there.' },
  EPERM: { code: 'permission', message: 'Asset Sync is not allowed to read or write there.' },
  ENOSPC: { code: 'disk_full', message: 'The disk is full.' },
  EROFS: { code: 'permission', message: 'That place is read-only.' },
};

export const INTERNAL_ERROR: BridgeError = { code: 'internal', message: 'Something went wrong. The log has the details.' };

/** The user-facing form of any failure; `internal` for anything unexpected (log those). */
export function toBridgeError(error: unknown): BridgeError {
  if (error instanceof AppError) return { code: error.code, message: error.message };
  if (isServiceError(error)) {
    if (error.code === 'version_conflict') return { code: 'conflict', message: 'The file has a newer version on the service. Refresh and try again.' };
    if (error.code === 'asset_locked') return SERVICE_MESSAGES.locked;
    return SERVICE_MESSAGES[error.kind];
  }
  if (error instanceof LockHeldError) return { code: 'locked', message: error.message };
  if (error instanceof LockNotAllowedError) return { code: 'forbidden', message: error.message };
  if (error instanceof ConflictNotFoundError) return { code: 'not_found', message: 'This conflict is resolved already, or its copy is gone.' };
  if (error instanceof CopyChangingError) {
    return {
      code: 'changing',
      message: error.committed === null
        ? 'Your copy changed while it was read: nothing was uploaded. Save it, then choose again.'
        : `Your copy changed after it was uploaded as version ${error.committed.version_number}: both files were kept. Choose again once it is saved.`,
    };
  }
  if (error instanceof TheirsUnknownError) return { code: 'not_synced', message: "The service's version of this file is not on this computer yet. Try again after the next sync." };
  if (error instanceof CredentialsError && error.cause instanceof KeychainUnavailableError) return { code: 'keychain', message: error.cause.message };
  if (error instanceof CredentialsError) return { code: 'signed_out', message: 'No key is stored for this account on this device. Sign in again in Settings.' };
  if (error instanceof KeychainUnavailableError) return { code: 'keychain', message: error.message };
  if (error instanceof UnknownWorkspaceError) return { code: 'not_found', message: 'This workspace is not synced on this device.' };
  if (error instanceof PathEscapeError) return { code: 'invalid_path', message: 'That path is outside the sync folder.' };
  // Retried: the other sync (the command line, most likely) may be done soon.
  if (error instanceof RootBusyError) return { code: 'busy', message: error.message };
  if (error instanceof UnsafeRootError) return { code: 'invalid_root', message: error.message };
  const errno = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof errno === 'string' && FILE_MESSAGES[errno]) return FILE_MESSAGES[errno];
  return INTERNAL_ERROR;
}

export const isInternal = (error: BridgeError): boolean => error.code === INTERNAL_ERROR.code;
