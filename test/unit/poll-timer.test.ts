/**
 * The timer that carries out the poll cadence (main/engine/poll-timer.ts): each poll a delay
 * after the one before, the delay asked anew; a change of inputs moves the waiting poll; a poll
 * that throws does not stop the polling.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PollTimer } from '../../main/engine/poll-timer.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_800_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('PollTimer', () => {
  it('polls at the delay asked for each time, and at once when a shorter delay makes the next poll overdue', async () => {
    let delay = 30_000;
    const polls: number[] = [];
    const timer = new PollTimer(() => delay, async () => void polls.push(Date.now()));
    const start = Date.now();
    timer.start({ now: false });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(polls.map((t) => t - start)).toEqual([30_000]);
    await vi.advanceTimersByTimeAsync(10_000);
    // Someone opens the window 10 s after the last poll: the 2 s cadence makes it due at once.
    delay = 2000;
    timer.reschedule();
    await vi.advanceTimersByTimeAsync(0);
    expect(polls.map((t) => t - start)).toEqual([30_000, 40_000]);
    await vi.advanceTimersByTimeAsync(4000);
    expect(polls.map((t) => t - start)).toEqual([30_000, 40_000, 42_000, 44_000]);
    timer.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(polls).toHaveLength(4);
  });

  it('goes on after a poll that throws', async () => {
    let calls = 0;
    const timer = new PollTimer(() => 1000, async () => {
      calls += 1;
      throw new Error('the index closed');
    });
    timer.start({ now: true });
    await vi.advanceTimersByTimeAsync(3000);
    expect(calls).toBe(4);
    timer.stop();
  });
});
