import type { BridgeError } from '../../../shared/ipc.js';

/** A failed call, as the UI shows it: the message is meant for the user. */
export class BridgeFailure extends Error implements BridgeError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeFailure';
  }
}

/** The words to show for anything a call rejected with, over either transport. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return stripIpcPrefix(error.message);
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') return error.message;
  return 'Something went wrong.';
}

/** Electron prefixes rejected invoke() messages with the channel; the user needs only the reason. */
function stripIpcPrefix(message: string): string {
  return message.replace(/^Error invoking remote method '[^']*': (?:\w*Error: )?/, '');
}
