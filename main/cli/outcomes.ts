/**
 * How a command ends: the exit code a script branches on (0 fine, 1 it ran but something is left
 * to fix, 2 it could not run as asked), and the errors that are the user's to fix. Light on
 * purpose: every command imports it, and error-report.ts, which knows every other error, loads the
 * engine's modules.
 */
export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;

/** A mistake in how the command was called or configured: nothing was done. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A refusal that protects the user's data (e.g. an existing file): something to decide, not a bug. */
export class RefusedError extends Error {
  override readonly name = 'RefusedError';
}
