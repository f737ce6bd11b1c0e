/** What the API calls and the signed-URL transfers share: connections, policy, redaction, shutdown. */
import { setMaxListeners } from 'node:events';
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

/**
 * Combined signals by the caller's signal: a sync run passes the same one to thousands of
 * calls, and a transfer its own to two or three, while AbortSignal.any cost 20 µs a call.
 */
const combined = new WeakMap<AbortSignal, WeakMap<AbortSignal, AbortSignal>>();

/** The caller's signal combined with the client's shutdown. */
export function callSignal(context: ClientContext, signal: AbortSignal | undefined): AbortSignal {
  if (!signal) return context.closed;
  let byClosed = combined.get(signal);
  if (byClosed === undefined) {
    byClosed = new WeakMap();
    combined.set(signal, byClosed);
  }
  let both = byClosed.get(context.closed);
  if (both === undefined) {
    both = AbortSignal.any([signal, context.closed]);
    // Every request in flight listens to it: many at once are expected, not a leak.
    setMaxListeners(0, both);
    byClosed.set(context.closed, both);
  }
  return both;
}
