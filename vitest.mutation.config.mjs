/**
 * The tests a mutation run (`npm run test:mutation`, stryker.config.mjs) may use: those of the
 * groups MUTATION_GROUP names, in one project. vitest.config.ts's projects are left out: each
 * has an include of its own, which would run the whole suite for every mutant. The hostile
 * service's seed is fixed, so that two runs score the same mutants the same way (HOSTILE_SEED
 * still chooses another).
 *
 * Files run in the order their groups list them, cheapest first: a mutant stops at its first
 * failing test (Stryker's bail), so one a unit test kills never waits for a slow scenario.
 * Vitest's own order runs the slowest file of the last run first, which made every mutant
 * pay for it.
 */
import path from 'node:path';
import { BaseSequencer } from 'vitest/node';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';
import { chosenGroups } from './stryker.config.mjs';

const { projects: _projects, ...shared } = base.test ?? {};
const testFiles = [...new Set(chosenGroups().flatMap((group) => group.testFiles))];

class ListedOrder extends BaseSequencer {
  /** @param {import('vitest/node').TestSpecification[]} files */
  async sort(files) {
    /** @param {import('vitest/node').TestSpecification} spec */
    const rank = (spec) => testFiles.indexOf(path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/'));
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    ...shared,
    include: testFiles,
    sequence: { sequencer: ListedOrder },
    env: { HOSTILE_SEED: process.env.HOSTILE_SEED ?? '20240611' },
  },
});
