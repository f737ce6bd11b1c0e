/**
 * The tests' own child programs (a sync a test may SIGKILL, a sync under `ulimit -f`), started as
 * built JavaScript when Vitest's global setup built them (test/build-first.ts, into dist/test),
 * else from their TypeScript source through tsx (`npm run soak`, which runs outside Vitest).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The children, by the name of their built file. */
export const TEST_CHILDREN = {
  'sync-child': 'test/helpers/sync-child.ts',
} as const;

export type TestChild = keyof typeof TEST_CHILDREN;

export const TEST_CHILDREN_DIR = join(REPO, 'dist', 'test');

/** Node's arguments that run the child `name`: its build under Vitest, its source through tsx elsewhere. */
export function childArgs(name: TestChild): string[] {
  const built = join(TEST_CHILDREN_DIR, `${name}.js`);
  if (process.env.VITEST && existsSync(built)) return ['--enable-source-maps', built];
  return ['--import', 'tsx', join(REPO, TEST_CHILDREN[name])];
}
