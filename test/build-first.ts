/**
 * Vitest's global setup: builds dist/node (scripts/build.mjs) before any test runs, so the tests
 * that start `bin/asset-sync.js`, the demo or the Electron entry run today's sources as built,
 * as an installation runs them, whichever test files are chosen. The tests' own child programs
 * (TEST_CHILDREN) are built by the same script into dist/test, beside a copy of the workers they
 * start: a child started through tsx paid about a second of processor time to compile the engine
 * and each of its workers, and the kill and soak tests start dozens.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { TEST_CHILDREN, TEST_CHILDREN_DIR } from './helpers/children.js';

export default async function buildFirst(): Promise<void> {
  const repo = fileURLToPath(new URL('..', import.meta.url));
  const build = (...args: string[]) => promisify(execFile)(process.execPath, ['scripts/build.mjs', ...args], { cwd: repo });
  const entries = Object.entries(TEST_CHILDREN).flatMap(([name, path]) => ['--entry', `${name}=${path}`]);
  try {
    await Promise.all([build(), build('--outdir', TEST_CHILDREN_DIR, ...entries)]);
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`The build before the tests failed:\n${stderr ?? String(error)}`);
  }
}
