/**
 * Backoff policy: exponential with full jitter (each wait uniform in [0, min(max, base·2^n)]),
 * so that many clients hit by the same outage do not come back in lockstep. A server's own
 * `Retry-After` wins over the jitter; one asking for longer than we are willing to wait ends the
 * retries and surfaces the error (with `retryAfter`) to the caller's own scheduling.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { ServiceError } from './service-error.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest server-requested wait we sit through inside one call. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 250,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

/** Full-jitter wait after the `failures`-th failed attempt (1-based). */
export function backoffDelay(failures: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failures - 1));
  return Math.floor(random() * ceiling);
}

/**
 * `Retry-After` as seconds to wait: delta-seconds (`"3"`, leniently `"0.5"`) or an HTTP date.
 * Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, (at - now) / 1000);
}

/**
 * How long to wait before the next attempt, or undefined to give up. `failures` counts the
 * attempts made so far.
 */
export function retryDelay(
  err: ServiceError,
  failures: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined {
  if (!err.transient || failures >= policy.maxAttempts) return undefined;
  const jitter = backoffDelay(failures, policy, random);
  if (err.retryAfter === undefined) return jitter;
  const asked = Math.ceil(err.retryAfter * 1000);
  if (asked > policy.maxRetryAfterMs) return undefined;
  return Math.max(asked, jitter);
}

export function abortedError(signal: AbortSignal, request?: string): ServiceError {
  const reason: unknown = signal.reason;
  const why = reason instanceof Error ? reason.message : 'the operation was aborted';
  return new ServiceError({ kind: 'aborted', code: 'aborted', message: `${request ?? 'request'}: ${why}`, request, cause: reason });
}

/** Waits `ms`, or rejects with a ServiceError of kind 'aborted' as soon as the signal fires. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw abortedError(signal);
  try {
    await delay(ms, undefined, signal ? { signal } : undefined);
  } catch (err) {
    if (signal?.aborted) throw abortedError(signal);
    throw err;
  }
}

/**
 * Lets one waiter stop waiting on a shared promise without cancelling it for the others (the
 * single-flight token renewal).
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortedError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortedError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

export interface RetryEvent {
  request: string;
  /** The attempt that failed, 1-based. */
  attempt: number;
  delayMs: number;
  error: ServiceError;
}

export interface RetryOptions {
  policy: RetryPolicy;
  /** Whether repeating the request is safe; decided per call, never guessed from the method. */
  retriable: boolean | ((err: ServiceError) => boolean);
  request: string;
  signal?: AbortSignal | undefined;
  onRetry?: ((event: RetryEvent) => void) | undefined;
  random?: () => number;
}

/** Runs `attempt` until it succeeds, fails for good, or the policy gives up. */
export async function withRetry<T>(attempt: (n: number) => Promise<T>, options: RetryOptions): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      const retriable = typeof options.retriable === 'function' ? options.retriable(err) : options.retriable;
      if (!retriable) throw err;
      if (options.signal?.aborted) throw abortedError(options.signal, options.request);
      const wait = retryDelay(err, n, options.policy, options.random);
      if (wait === undefined) throw err;
      options.onRetry?.({ request: options.request, attempt: n, delayMs: wait, error: err });
      await sleep(wait, options.signal);
    }
  }
}
