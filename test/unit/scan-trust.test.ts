import { describe, expect, it } from 'vitest';
import { markBeforeScan, unchangedSince } from '../../main/engine/scan-trust.js';
import type { TreeWatcher } from '../../main/local/watcher.js';

/** A watcher's state as scan-trust.ts reads it: how many events it saw, and whether it is trusted. */
function watcher(state: { seen: number; trusted: boolean }): TreeWatcher {
  return { ready: Promise.resolve(), close: async () => undefined, suppress: () => undefined, seen: () => state.seen, trusted: () => state.trusted };
}

const HOUR = 3_600_000;

describe('whether a cycle may skip its scan', () => {
  it('trusts a watcher that saw nothing since the scan began, within the interval', () => {
    const w = watcher({ seen: 4, trusted: true });
    const mark = markBeforeScan(w, 1000);
    expect(unchangedSince(mark, w, 1000 + HOUR - 1, HOUR)).toBe(true);
  });

  it('walks the folder again after any event, an error, another watcher, the interval, or a clock set back', () => {
    const state = { seen: 4, trusted: true };
    const w = watcher(state);
    const mark = markBeforeScan(w, 1000);
    expect(unchangedSince(mark, w, 1000 + HOUR, HOUR)).toBe(false);
    expect(unchangedSince(mark, w, 999, HOUR)).toBe(false);
    expect(unchangedSince(mark, watcher({ seen: 4, trusted: true }), 1001, HOUR)).toBe(false);
    expect(unchangedSince(mark, null, 1001, HOUR)).toBe(false);
    state.seen = 5;
    expect(unchangedSince(mark, w, 1001, HOUR)).toBe(false);
    state.seen = 4;
    state.trusted = false;
    expect(unchangedSince(mark, w, 1001, HOUR)).toBe(false);
  });

  it('takes no mark without a trusted watcher: a scan before the watcher is ready vouches for nothing', () => {
    expect(markBeforeScan(null, 1000)).toBeNull();
    expect(markBeforeScan(watcher({ seen: 0, trusted: false }), 1000)).toBeNull();
  });
});
