/**
 * The engine's process collects its old generation once it has grown by 20% over what
 * survived, not by up to 4 times (main/heap-growth.ts): V8 says at each full collection which
 * limit it set (`--trace-gc-verbose`), in a child that churns objects as a download does.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT } from '../../main/heap-growth.js';
import { childArgs } from '../helpers/children.js';

/** The factor of each old-generation limit V8 set: `[HeapController] Limit: old size: A KB, new limit: B KB (F)`. */
function limitFactors(): number[] {
  const run = spawnSync(process.execPath, ['--trace-gc-verbose', ...childArgs('heap-churn-child')], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(run.status, run.stderr).toBe(0);
  return [...run.stdout.matchAll(/\[HeapController\] Limit: old size: \d+ KB, new limit: \d+ KB \(([\d.]+)\)/g)].map((m) => Number(m[1]));
}

describe('heap growth of an engine process', () => {
  it('sets every old-generation limit at most 20% above what survived the collection', () => {
    const factors = limitFactors();
    expect(factors.length).toBeGreaterThan(0);
    for (const factor of factors) expect(factor).toBeLessThanOrEqual(1 + HEAP_GROWING_PERCENT / 100);
  });
});
