import { defineConfig } from 'vitest/config';

/**
 * Engine scenarios run a second time against a service that uses every switch the reference
 * leaves open at its other value (test/helpers/service-variant.ts, service/http/variants.ts): the
 * sync listing and the changes feed with only the fields docs/protocol.md shows, MD5 checksums,
 * optional strings sent empty instead of left out, sequences as digit strings, a field no client
 * knows in every record, and every list in reverse order. The client must converge as it does
 * against the default service. The run goes through Stoplight Prism as a validating proxy
 * (test/helpers/prism.ts): a request or an answer outside docs/openapi.json fails the scenario.
 */
const VARIANT_SCENARIOS = [
  'test/integration/engine-mirror.test.ts',
  'test/integration/engine-conflicts.test.ts',
  'test/integration/engine-deletes.test.ts',
  'test/integration/engine-moves.test.ts',
];
const OTHER_VARIANT = 'listingShape=minimal,checksumAlgorithm=md5,absentFields=empty,sequenceType=string,extraFields=some,arrayOrder=reversed';

export default defineConfig({
  test: {
    // Tests start real servers and move real bytes: give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The command line, the demo and the service are tested as built, as they are installed.
    globalSetup: ['test/build-first.ts'],
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'default', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'] } },
      {
        extends: true,
        test: { name: 'service-variants', include: VARIANT_SCENARIOS, env: { ASSET_SYNC_SERVICE_VARIANT: OTHER_VARIANT, ASSET_SYNC_VIA_PRISM: '1' } },
      },
    ],
  },
});
