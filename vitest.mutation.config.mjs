/**
 * The tests a mutation run (`npm run test:mutation`, stryker.config.mjs) may use: those of the
 * groups MUTATION_GROUP names, in one project. vitest.config.ts's projects are left out: each
 * has an include of its own, which would run the whole suite for every mutant. The hostile
 * service's seed is fixed, so that two runs score the same mutants the same way (HOSTILE_SEED
 * still chooses another).
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';
import { chosenGroups } from './stryker.config.mjs';

const { projects: _projects, ...shared } = base.test ?? {};

export default defineConfig({
  test: {
    ...shared,
    include: [...new Set(chosenGroups().flatMap((group) => group.testFiles))],
    env: { HOSTILE_SEED: process.env.HOSTILE_SEED ?? '20240611' },
  },
});
