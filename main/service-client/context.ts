/** What the API calls and the signed-URL transfers share: connections, policy, redaction, shutdown. */
import type { Transport } from './http.js';
import type { RetryEvent, RetryPolicy } from './retry.js';

export interface ClientContext {
  transport: Transport;
  policy: RetryPolicy;
  /** Everything that must never appear in a message or a log line. */
  secrets: () => readonly string[];
  onRetry: (event: RetryEvent) => void;
  /** Aborted by `close()`: ends every wait and request still running. */
  closed: AbortSignal;
}

/** The caller's signal combined with the client's shutdown. */
export function callSignal(context: ClientContext, signal: AbortSignal | undefined): AbortSignal {
  return signal ? AbortSignal.any([signal, context.closed]) : context.closed;
}
