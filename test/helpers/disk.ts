/** What the disk under the OS temp folder (where tests put their folders) can do. */
import { existsSync, linkSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
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
    removeTreeSync(dir);
  }
})();

/** Whether it holds symbolic links (exFAT and FAT drives do not): the symlink escape tests need one. */
export const symlinkDisk = ((): boolean => {
  const dir = mkdtempSync(path.join(tmpdir(), 'symlink-probe-'));
  try {
    symlinkSync(dir, path.join(dir, 'link'), 'dir');
    return true;
  } catch {
    return false;
  } finally {
    removeTreeSync(dir);
  }
})();

/** Whether the disk holding `parent` makes hard links (FAT and exFAT drives do not). */
export function hardLinkDisk(parent: string): boolean {
  const dir = mkdtempSync(path.join(parent, 'hardlink-probe-'));
  try {
    writeFileSync(path.join(dir, 'a'), '');
    linkSync(path.join(dir, 'a'), path.join(dir, 'b'));
    return true;
  } catch {
    return false;
  } finally {
    removeTreeSync(dir);
  }
}

/**
 * The folder the `trash` package moves files under `dir` to, by the freedesktop rules it follows:
 * the home trash on the home's disk, else `<mount>/.Trash-<uid>` on the file's own disk (a sticky
 * `<mount>/.Trash/<uid>`, where an administrator made one, is not looked for: no test disk has it).
 */
export function trashFilesFor(dir: string, homeTrash: string): string {
  const home = mountOf(os.homedir());
  const own = mountOf(dir);
  if (own === home) return path.join(homeTrash, 'files');
  return path.join(own, `.Trash-${String(process.getuid?.() ?? 0)}`, 'files');
}

/** The top folder of the disk holding `dir`: the last ancestor on the same device. */
function mountOf(dir: string): string {
  let at = path.resolve(dir);
  const device = statSync(at).dev;
  for (;;) {
    const up = path.dirname(at);
    if (up === at || statSync(up).dev !== device) return at;
    at = up;
  }
}

/**
 * Removes a test's folder. A FUSE disk (exfat-fuse) may still list a file it just deleted and
 * answer ENOTEMPTY: Node retries that, as it does EBUSY.
 */
export function removeTreeSync(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
}
