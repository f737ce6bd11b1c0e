/**
 * The clock of this test process, moved on by hand: vitest's fake Date, otherwise running with
 * real time (timers and I/O stay real). The in-process service and the engine read the same
 * clock, so minutes or hours pass for both without waiting.
 */
import { afterEach, beforeEach, vi } from 'vitest';

/** Fakes Date around each test of the calling file; returns the function that moves it on. */
export function movableClock(): (ms: number) => void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  return (ms) => {
    vi.setSystemTime(Date.now() + ms);
  };
}
