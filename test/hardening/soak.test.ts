/**
 * The CI-sized part of `npm run soak`: a few SIGKILLs of the sync process during two-way churn,
 * and two cells of the fault matrix, with the same verification as the full soak (files equal
 * to the service's current versions, no edit lost, none made twice, no temp file, nothing
 * outside the root). SOAK_SEED=n replays another seed.
 */
import { describe, expect, it } from 'vitest';
import { crashSoak, faultMatrix, runFaultCell, type ChurnPlan } from '../helpers/soak.js';

const MiB = 1024 * 1024;
const seed = Number(process.env.SOAK_SEED ?? 20_240_501);
const churn: ChurnPlan = {
  demoAssets: 12,
  opsPerRun: [2, 5],
  spacingMs: 300,
  sizes: { largeShare: 0.2, largeMaxBytes: 3 * MiB, smallMaxBytes: 64 * 1024 },
};

describe(`soak, CI size (seed ${seed})`, () => {
  it('loses nothing and makes nothing twice across kills during two-way churn', async () => {
    const result = await crashSoak({ ...churn, seed, kills: 5, killAfterMs: [300, 4000], bandwidthLimit: 8 * MiB });
    expect(result.verified.failures).toEqual([]);
    expect(result.edits.local).toBeGreaterThan(0);
    expect(result.edits.remote).toBeGreaterThan(0);
    expect(result.verified.files).toBeGreaterThan(0);
  }, 150_000);

  const cells = faultMatrix(seed).filter((c) => c.name === 'combined' || c.name === 'dropped connections 10%');
  it.each(cells.map((c) => [c.name, c] as const))('converges to the verified state under %s', async (_name, cell) => {
    const result = await runFaultCell(cell, { ...churn, seed, rounds: 2 });
    expect(result.verified.failures).toEqual([]);
    expect(result.verified.files).toBeGreaterThan(0);
    expect(result.injected).toMatch(/dropped/);
  }, 120_000);
});
