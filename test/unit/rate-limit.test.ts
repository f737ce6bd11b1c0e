import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../service/http/rate-limit.js';

describe('the service rate limiter', () => {
  it('allows a burst of `rate`, then asks to wait, and refills over time', () => {
    let now = 0;
    const limiter = createRateLimiter(2, { clock: () => now });
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 1]);
    expect(limiter.take('b')).toBe(0);
    now += 1000;
    expect(limiter.take('a')).toBe(0);
  });

  it('takes a burst of `capacity` when given, and gives back a refunded request', () => {
    let now = 0;
    const limiter = createRateLimiter(1 / 60, { capacity: 3, clock: () => now });
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    expect(limiter.take('a')).toBe(60);
    limiter.refund('a');
    expect(limiter.take('a')).toBe(0);
    now += 60_000;
    expect([limiter.take('a'), limiter.take('a')]).toEqual([0, 60]);
  });

  it('forgets callers that have been quiet long enough to be full again', () => {
    let now = 0;
    const limiter = createRateLimiter(5, { clock: () => now });
    for (let i = 0; i < 1000; i++) limiter.take(`token-${i}`);
    expect(limiter.size).toBe(1000);
    now += 61_000;
    limiter.take('still-here');
    expect(limiter.size).toBe(1);
  });
});
