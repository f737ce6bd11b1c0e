/**
 * Vitest's global setup: builds dist/node (scripts/build.mjs) before any test runs, so the tests
 * that start `bin/asset-sync.js`, the demo or the Electron entry run today's sources as built,
 * as an installation runs them, whichever test files are chosen.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function buildFirst(): void {
  const repo = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
}
