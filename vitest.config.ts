import { defineConfig } from 'vitest/config';

/**
 * Engine scenarios run a second time against a service that sends only the fields
 * docs/protocol.md shows in the sync listing and the changes feed, as a service written from that
 * document alone would: the client must converge on the documented shape, not on our service's
 * extras (test/helpers/service-variant.ts).
 */
const DOCUMENTED_SHAPE_SCENARIOS = [
  'test/integration/engine-mirror.test.ts',
  'test/integration/engine-conflicts.test.ts',
  'test/integration/engine-deletes.test.ts',
  'test/integration/engine-moves.test.ts',
];

export default defineConfig({
  test: {
    // Tests start real servers and move real bytes: give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'default', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'] } },
      {
        extends: true,
        test: { name: 'documented-listing', include: DOCUMENTED_SHAPE_SCENARIOS, env: { ASSET_SYNC_SERVICE_VARIANT: 'listingShape=minimal' } },
      },
    ],
  },
});
