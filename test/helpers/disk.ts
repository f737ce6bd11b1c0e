/** What the disk under the OS temp folder (where tests put their folders) can do. */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Whether it folds case (macOS and Windows by default, exFAT drives; `npm run test:casefold`):
 * there, tests that need two spellings of one name side by side cannot run, and tests of what
 * only such a disk does can.
 */
export const caseInsensitiveDisk = ((): boolean => {
  const dir = mkdtempSync(path.join(tmpdir(), 'case-probe-'));
  try {
    writeFileSync(path.join(dir, 'Probe'), '');
    return existsSync(path.join(dir, 'PROBE'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
})();
