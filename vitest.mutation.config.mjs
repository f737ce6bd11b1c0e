/**
 * The tests a mutation run (`npm run test:mutation`, stryker.config.mjs) may use: those of the
 * groups MUTATION_GROUP names. The hostile service's seed is fixed, so that two runs score the
 * same mutants the same way (HOSTILE_SEED still chooses another).
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';
import { chosenGroups } from './stryker.config.mjs';

export default defineConfig({
  test: {
    ...base.test,
    include: [...new Set(chosenGroups().flatMap((group) => group.testFiles))],
    env: { HOSTILE_SEED: process.env.HOSTILE_SEED ?? '20240611' },
  },
});
