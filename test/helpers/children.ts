/**
 * The tests' own child programs (a sync a test may SIGKILL, a sync under `ulimit -f`, writers
 * killed mid-write), started as built JavaScript when Vitest's global setup built them
 * (test/build-first.ts, into dist/test), else from their TypeScript source through tsx
 * (`npm run soak`, which runs outside Vitest).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The children, by the name of their built file. */
export const TEST_CHILDREN = {
  'sync-child': 'test/helpers/sync-child.ts',
  'index-crash-child': 'test/unit/index-crash-child.ts',
  'cache-writer-child': 'test/media/cache-writer-child.ts',
  'heap-churn-child': 'test/unit/heap-churn-child.ts',
} as const;

export type TestChild = keyof typeof TEST_CHILDREN;

export const TEST_CHILDREN_DIR = join(REPO, 'dist', 'test');

/** The child `name` as `fork` takes it: its build under Vitest, its source through tsx elsewhere. */
export function childModule(name: TestChild): { modulePath: string; execArgv: string[] } {
  const built = join(TEST_CHILDREN_DIR, `${name}.js`);
  if (process.env.VITEST && existsSync(built)) return { modulePath: built, execArgv: ['--enable-source-maps'] };
  return { modulePath: join(REPO, TEST_CHILDREN[name]), execArgv: ['--import', 'tsx'] };
}

/** Node's arguments that run the child `name` (see `childModule`). */
export function childArgs(name: TestChild): string[] {
  const { modulePath, execArgv } = childModule(name);
  return [...execArgv, modulePath];
}
