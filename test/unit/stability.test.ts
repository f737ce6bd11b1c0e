/**
 * When files held back as still being written may be looked at again (main/local/stability.ts):
 * once the youngest has been left alone for the quiet period, by the same rule that held it back.
 */
import { describe, expect, it } from 'vitest';
import { isRecentlyModified, untilQuiet } from '../../main/local/stability.js';

const NOW = 1_800_000_000_000;
const ns = (ms: number): string => (BigInt(ms) * 1_000_000n).toString();

describe('untilQuiet', () => {
  it('is the time until the youngest file is a quiet period old', () => {
    expect(untilQuiet([ns(NOW - 200), ns(NOW - 700)], NOW, 1000)).toBe(800);
    expect(untilQuiet([ns(NOW - 999)], NOW, 1000)).toBe(1);
  });

  it('is 0 when every file counts as written, and for none', () => {
    expect(untilQuiet([ns(NOW - 1000), ns(NOW - 60_000)], NOW, 1000)).toBe(0);
    expect(untilQuiet([], NOW, 1000)).toBe(0);
  });

  it('agrees with the rule that holds files back, a little-ahead clock and a far-future mtime included', () => {
    for (const age of [-5000, -999, -300, 0, 1, 500, 999, 1000, 1500]) {
      const mtime = ns(NOW - age);
      const wait = untilQuiet([mtime], NOW, 1000);
      expect(wait > 0, `age ${age}`).toBe(isRecentlyModified(mtime, NOW, 1000));
      expect(isRecentlyModified(mtime, NOW + wait, 1000), `age ${age}`).toBe(false);
    }
  });
});
