import { describe, expect, it } from 'vitest';
import {
  ServiceError,
  backoffDelay,
  conflictDetails,
  kindForStatus,
  parseContentRange,
  parseRetryAfter,
  retryDelay,
  type RetryPolicy,
} from '../../main/service-client/index.js';
import { sleep, withRetry } from '../../main/service-client/retry.js';

const policy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };
const serverError = new ServiceError({ kind: 'server', status: 503, message: 'unavailable' });

describe('backoff with full jitter', () => {
  it('grows exponentially up to the cap and stays within [0, ceiling)', () => {
    const top = () => 0.999999;
    expect(backoffDelay(1, policy, top)).toBe(99);
    expect(backoffDelay(2, policy, top)).toBe(199);
    expect(backoffDelay(3, policy, top)).toBe(399);
    expect(backoffDelay(10, policy, top)).toBe(999);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads delta-seconds, leniently with a fraction', () => {
    expect(parseRetryAfter('3', now)).toBe(3);
    expect(parseRetryAfter(' 0.5 ', now)).toBe(0.5);
  });
  it('reads an HTTP date relative to now, never negative', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:07 GMT', now)).toBe(7);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
  });
});

describe('retry decisions', () => {
  it('retries transient errors until the attempts run out', () => {
    expect(retryDelay(serverError, 1, policy, () => 0.5)).toBe(50);
    expect(retryDelay(serverError, 4, policy, () => 0.5)).toBeUndefined();
  });
  it('never retries what repeating cannot fix', () => {
    for (const kind of ['auth', 'forbidden', 'conflict', 'malformed', 'client', 'not_found'] as const) {
      expect(retryDelay(new ServiceError({ kind, message: kind }), 1, policy)).toBeUndefined();
    }
  });
  it('waits at least what the server asked, and gives up when that is too long', () => {
    const limited = (retryAfter: number) => new ServiceError({ kind: 'rate_limited', status: 429, message: 'slow down', retryAfter });
    expect(retryDelay(limited(2), 1, policy, () => 0)).toBe(2000);
    expect(retryDelay(limited(0), 3, policy, () => 0.999999)).toBe(399);
    expect(retryDelay(limited(60), 1, policy)).toBeUndefined();
  });

  it('retries only calls marked safe to repeat', async () => {
    let calls = 0;
    const failing = async () => {
      calls++;
      throw serverError;
    };
    const fast = { ...policy, baseDelayMs: 1 };
    await expect(withRetry(failing, { policy: fast, retriable: false, request: 'POST /x' })).rejects.toBe(serverError);
    expect(calls).toBe(1);
    calls = 0;
    await expect(withRetry(failing, { policy: fast, retriable: true, request: 'GET /x' })).rejects.toBe(serverError);
    expect(calls).toBe(4);
  });

  it('stops waiting when the signal fires', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'ServiceError', kind: 'aborted' });
  });
});

describe('error classification', () => {
  it('maps statuses and codes to what the caller should do', () => {
    expect(kindForStatus(401)).toBe('auth');
    expect(kindForStatus(403, 'forbidden')).toBe('forbidden');
    expect(kindForStatus(403, 'asset_locked')).toBe('locked');
    expect(kindForStatus(404)).toBe('not_found');
    expect(kindForStatus(409, 'version_conflict')).toBe('conflict');
    expect(kindForStatus(429)).toBe('rate_limited');
    expect(kindForStatus(503)).toBe('server');
    expect(kindForStatus(400)).toBe('client');
    expect(kindForStatus(413)).toBe('client');
  });

  it('reads adoptable details out of a 409 only', () => {
    const conflict = new ServiceError({
      kind: 'conflict',
      status: 409,
      code: 'name_conflict',
      message: 'taken',
      details: { id: 'a1', current_version_id: 'v1', checksum: 'C'.repeat(64), extra: 5 },
    });
    // The checksum in the client's form: SHA-256 hex in lowercase.
    expect(conflictDetails(conflict)).toEqual({ id: 'a1', current_version_id: 'v1', checksum: 'c'.repeat(64) });
    expect(conflictDetails(serverError)).toBeUndefined();
    expect(conflictDetails(new Error('x'))).toBeUndefined();
  });

  it('parses Content-Range and rejects nonsense', () => {
    expect(parseContentRange('bytes 10-19/100')).toEqual({ start: 10, end: 19, total: 100 });
    expect(parseContentRange('bytes 10-19/*')).toEqual({ start: 10, end: 19, total: undefined });
    expect(parseContentRange('bytes 19-10/100')).toBeUndefined();
    expect(parseContentRange('bytes 10-100/100')).toBeUndefined();
    expect(parseContentRange('items 1-2/3')).toBeUndefined();
  });
});
