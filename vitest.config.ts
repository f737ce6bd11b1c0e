import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Engine scenarios run a second time against a service that uses every switch the reference
 * leaves open at its other value (test/helpers/service-variant.ts, service/http/variants.ts): the
 * sync listing and the changes feed with only the fields docs/protocol.md shows, MD5 checksums,
 * optional strings sent empty instead of left out, sequences as digit strings, a field no client
 * knows in every record, every list in reverse order, the token answered as an object, flat
 * error bodies and `GET /workspaces` as a list. The client must converge as it does
 * against the default service. The run goes through Stoplight Prism as a validating proxy
 * (test/helpers/prism.ts): a request or an answer outside docs/openapi.json fails the scenario.
 */
const VARIANT_SCENARIOS = [
  'test/integration/engine-mirror.test.ts',
  'test/integration/engine-conflicts.test.ts',
  'test/integration/engine-deletes.test.ts',
  'test/integration/engine-moves.test.ts',
];
/**
 * Each switch the reference leaves open, at the value the default service does not use; all at
 * once here, and one at a time in `npm run test:variants` (scripts/test-variants.mjs).
 */
const COMBINED_VARIANT = (JSON.parse(readFileSync(new URL('./test/service-switches.json', import.meta.url), 'utf8')) as string[]).join(',');

export default defineConfig({
  test: {
    // Tests start real servers and move real bytes: give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two test files at a time at least: Vitest's default (one fewer than the cores) runs them one
    // by one on two cores, yet most of a file's time is spent waiting on child processes, sockets,
    // Chromium and bandwidth limits, not on the processor.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The command line, the demo and the service are tested as built, as they are installed.
    globalSetup: ['test/build-first.ts'],
    setupFiles: ['test/setup/byte-equality.ts', 'test/setup/sandbox-trash.ts'],
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'default', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'] } },
      {
        extends: true,
        test: { name: 'service-variants', include: VARIANT_SCENARIOS, env: { ASSET_SYNC_SERVICE_VARIANT: process.env.ASSET_SYNC_SERVICE_VARIANT || COMBINED_VARIANT, ASSET_SYNC_VIA_PRISM: '1' } },
      },
    ],
  },
});
