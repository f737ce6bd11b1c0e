/** A token bucket per caller: `rate` requests per second with a burst of `rate`. */
export interface RateLimiter {
  /** 0 when allowed, otherwise the seconds to wait. */
  take(callerKey: string): number;
}

export function createRateLimiter(ratePerSecond: number, clock: () => number = Date.now): RateLimiter {
  const capacity = Math.max(1, ratePerSecond);
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(callerKey) {
      const t = clock();
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
  };
}
