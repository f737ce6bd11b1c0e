/**
 * The poll cadence (main/engine/poll-cadence.ts): fast while someone looks or transfers run and
 * the feed makes each poll small, the configured interval otherwise, backing off on failures.
 */
import { describe, expect, it } from 'vitest';
import { ACTIVE_AFTER_TRANSFER_MS, FAST_POLL_MS, nextPollDelay, type PollInputs } from '../../main/engine/poll-cadence.js';

const NOW = 1_800_000_000_000;
const idle: PollInputs = { feed: true, watched: false, lastTransferAt: null, now: NOW, intervalMs: 30_000, failures: 0 };

describe('the next poll delay', () => {
  it('is the configured interval when idle: nobody looks and no transfer ran', () => {
    expect(nextPollDelay(idle)).toBe(30_000);
    expect(nextPollDelay({ ...idle, intervalMs: 600_000 })).toBe(600_000);
  });

  it('is fast while a window or the web UI is open', () => {
    expect(nextPollDelay({ ...idle, watched: true })).toBe(FAST_POLL_MS);
    expect(nextPollDelay({ ...idle, watched: true, intervalMs: 3_600_000 })).toBe(FAST_POLL_MS);
  });

  it('is fast for a minute after a transfer, then back to the configured interval', () => {
    expect(nextPollDelay({ ...idle, lastTransferAt: NOW - 1000 })).toBe(FAST_POLL_MS);
    expect(nextPollDelay({ ...idle, lastTransferAt: NOW - ACTIVE_AFTER_TRANSFER_MS + 1 })).toBe(FAST_POLL_MS);
    expect(nextPollDelay({ ...idle, lastTransferAt: NOW - ACTIVE_AFTER_TRANSFER_MS })).toBe(30_000);
    expect(nextPollDelay({ ...idle, lastTransferAt: NOW - 3_600_000 })).toBe(30_000);
  });

  it('stays at the configured interval without the changes feed, however active', () => {
    expect(nextPollDelay({ ...idle, feed: false, watched: true, lastTransferAt: NOW })).toBe(30_000);
  });

  it('never waits longer than a configured interval shorter than the fast cadence', () => {
    expect(nextPollDelay({ ...idle, watched: true, intervalMs: 300 })).toBe(300);
    expect(nextPollDelay({ ...idle, intervalMs: 300 })).toBe(300);
  });

  it('doubles the wait for each failed poll in a row, up to the configured interval', () => {
    const active = { ...idle, watched: true };
    expect([0, 1, 2, 3, 4, 5].map((failures) => nextPollDelay({ ...active, failures }))).toEqual([2000, 4000, 8000, 16_000, 30_000, 30_000]);
    expect(nextPollDelay({ ...active, failures: 1000 })).toBe(30_000);
    expect(nextPollDelay({ ...idle, failures: 3 })).toBe(30_000);
  });
});
