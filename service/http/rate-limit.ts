/** A token bucket per caller: `rate` requests per second with a burst of `capacity` (default: `rate`, at least 1). */
export interface RateLimiter {
  /** 0 when allowed, otherwise the seconds to wait. */
  take(callerKey: string): number;
  /** Gives back one request taken (a take that turned out not to count). */
  refund(callerKey: string): void;
  /** Callers with a bucket kept in memory. */
  readonly size: number;
}

/** How often buckets that refilled completely are dropped. */
const SWEEP_EVERY_MS = 60_000;

export function createRateLimiter(ratePerSecond: number, options: { capacity?: number; clock?: () => number } = {}): RateLimiter {
  const clock = options.clock ?? Date.now;
  const capacity = options.capacity ?? Math.max(1, ratePerSecond);
  // Tokens live a few minutes at most and a caller may never come back: a bucket full again
  // says no more than a missing one, so those are dropped now and then instead of piling up.
  const refillMs = (capacity / ratePerSecond) * 1000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  let sweptAt = clock();
  const sweep = (t: number): void => {
    sweptAt = t;
    for (const [key, bucket] of buckets) if (t - bucket.at >= refillMs) buckets.delete(key);
  };
  return {
    take(callerKey) {
      const t = clock();
      if (t - sweptAt >= SWEEP_EVERY_MS) sweep(t);
      const bucket = buckets.get(callerKey) ?? { tokens: capacity, at: t };
      bucket.tokens = Math.min(capacity, bucket.tokens + ((t - bucket.at) / 1000) * ratePerSecond);
      bucket.at = t;
      buckets.set(callerKey, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSecond));
    },
    refund(callerKey) {
      const bucket = buckets.get(callerKey);
      if (bucket) bucket.tokens = Math.min(capacity, bucket.tokens + 1);
    },
    get size() {
      return buckets.size;
    },
  };
}
