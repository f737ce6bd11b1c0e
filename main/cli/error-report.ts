/**
 * Turning any failure into what a user reads: what happened, what to do, and the exit code a
 * script branches on (1: it ran but something is left to fix, 2: it could not run as asked).
 */
import { CredentialsError } from '../bootstrap.js';
import { UnsafeRootError } from '../root-check.js';
import { KeychainUnavailableError } from '../secrets/secret-store.js';
import { isServiceError, type ServiceError } from '../service-client/index.js';
import { EXIT_PROBLEMS, EXIT_USAGE, RefusedError, UsageError } from './outcomes.js';

export { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, RefusedError, UsageError } from './outcomes.js';

export interface DescribedError {
  message: string;
  exitCode: number;
}

export function describeError(error: unknown): DescribedError {
  if (error instanceof UsageError || error instanceof CredentialsError || error instanceof KeychainUnavailableError || error instanceof UnsafeRootError) {
    return { message: error.message, exitCode: EXIT_USAGE };
  }
  if (error instanceof RefusedError) return { message: error.message, exitCode: EXIT_PROBLEMS };
  if (isServiceError(error)) return describeServiceError(error);
  if (error instanceof Error) return { message: error.message, exitCode: EXIT_PROBLEMS };
  return { message: String(error), exitCode: EXIT_PROBLEMS };
}

/** The service client already keeps secrets out of its messages; this only adds what to do. */
function describeServiceError(error: ServiceError): DescribedError {
  const status = error.status === undefined ? '' : ` (${error.status})`;
  switch (error.kind) {
    case 'auth':
      return {
        message:
          `The service rejected the API key${status}. Run \`asset-sync login\` or check ASSET_SYNC_API_KEY and ASSET_SYNC_API_SECRET` +
          ' (and that --account names the account the key belongs to).',
        exitCode: EXIT_USAGE,
      };
    case 'forbidden':
      return { message: `The service refused access${status}: ${error.message}. Check --account and --workspace, and your role in the workspace.`, exitCode: EXIT_USAGE };
    case 'not_found':
      return { message: `Not found on the service${status}: ${error.message}. Check the ids you passed.`, exitCode: EXIT_PROBLEMS };
    case 'network':
      return { message: `Could not reach the service: ${error.message}. Check --base-url and the network, then try again.`, exitCode: EXIT_PROBLEMS };
    case 'rate_limited':
      return { message: `The service is busy${status}; try again${error.retryAfter ? ` in ${error.retryAfter} s` : ' shortly'}.`, exitCode: EXIT_PROBLEMS };
    case 'server':
      return { message: `The service failed${status}: ${error.message}. Try again later.`, exitCode: EXIT_PROBLEMS };
    case 'locked':
      return { message: `The asset is locked by someone else${status}. Ask them to unlock it, then try again.`, exitCode: EXIT_PROBLEMS };
    case 'conflict':
      return { message: `The service reported a conflict${status}: ${error.message}. Sync with \`asset-sync sync --once\`, then try again.`, exitCode: EXIT_PROBLEMS };
    default:
      return { message: `The service answered unexpectedly${status}: ${error.message}`, exitCode: EXIT_PROBLEMS };
  }
}
