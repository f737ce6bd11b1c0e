/**
 * The benchmark's own rules, which its figures rest on: every tool goes first in some round, the
 * median and p95 are those of the runs, and the README's table says when it was measured, under
 * what load and with which command.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { alternate, median, percentile, rotate, type CaseResult } from '../../bench/lib/measure.js';
import { renderMarkdown } from '../../bench/lib/report.js';

describe('taking turns', () => {
  it('rotate puts each tool first exactly once in as many rounds as there are tools, and keeps them all', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 6 }), (tools) => {
        const firsts = tools.map((_, i) => rotate(tools, i)[0]);
        expect(new Set(firsts)).toEqual(new Set(tools));
        for (let i = 0; i < tools.length * 2; i += 1) expect([...rotate(tools, i)].sort()).toEqual([...tools].sort());
      }),
    );
  });

  it('alternate runs Asset Sync first in even rounds and last in odd ones', async () => {
    const order: string[] = [];
    await alternate(3, async (i) => void order.push(`A${i}`), async (i) => void order.push(`P${i}`));
    expect(order).toEqual(['A0', 'P0', 'P1', 'A1', 'A2', 'P2']);
  });
});

describe('medians and percentiles', () => {
  it('median of an even count is the mean of the middle two; p95 of 20 samples is the 19th smallest', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([3, 1, 2])).toBe(2);
    const samples = Array.from({ length: 20 }, (_, i) => 20 - i);
    expect(percentile(samples, 95)).toBe(19);
    expect(percentile(samples, 50)).toBe(10);
    expect(Number.isNaN(median([]))).toBe(true);
  });
});

describe("the README's table", () => {
  it('is dated, names the machine, the load and the command, and lists each summary line and target', () => {
    const result: CaseResult = {
      rows: [{ case: 'scale 100,000 assets', tool: 'Asset Sync start-up', runs: [{ seconds: 2, load: 3.5 }, { seconds: 4, load: 5.25 }] }],
      targets: [{ case: 'scale 100,000 assets', what: 'start-up to up to date ≤ 1 s', met: false, detail: '3.00 s' }],
      summary: [{ what: '100,000 assets: start-up', assetSync: '3.00 s', peers: 'find 0.20 s' }],
    };
    const text = renderMarkdown([result], {
      startedAt: new Date('2026-01-02T03:04:05Z'),
      finishedAt: new Date('2026-01-02T03:34:05Z'),
      args: '--markdown --only scale',
      loadAtStart: [1, 2, 3],
      loadAtEnd: [4, 5, 6],
      runs: result.rows.flatMap((row) => row.runs),
    });
    expect(text).toContain('Measured 2026-01-02 03:04 UTC (30 min)');
    expect(text).toContain('load average (1 / 5 / 15 min) 1.0 / 2.0 / 3.0 at the start, 4.0 / 5.0 / 6.0 at the end, 3.5–5.3 during the timed runs');
    expect(text).toContain('Command: `npm run bench -- --markdown --only scale`');
    expect(text).toContain('| 100,000 assets: start-up | 3.00 s | find 0.20 s |');
    expect(text).toContain('| scale 100,000 assets: start-up to up to date ≤ 1 s | no | 3.00 s |');
  });
});
