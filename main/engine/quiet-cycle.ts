/**
 * What a cycle that planned nothing saw, so that the next one can tell it would plan nothing
 * again without loading the base and planning over every file. The planner is a pure function:
 * the same inputs give the same (empty) plan. Its inputs are the scan (told apart by a
 * fingerprint of every path with its stamp), the placed remote tree (the same object while the
 * feed reports nothing), and what the index holds (told apart by a mark that changes with every
 * write, from this process or another). While the watcher vouches that nothing changed on disk
 * since the scan began (scan-trust.ts), the next cycle does not even scan. Anything the fingerprint cannot vouch for (files still
 * being written, failures waiting out a backoff, items held or unplaced) leaves no memo.
 */
import type { Problem } from '../../shared/engine.js';
import type { ScanResult } from '../local/scanner.js';
import type { Plan } from '../sync/planner/plan.js';
import type { PlacedRemoteTree } from './remote-tree.js';
import type { ScanMark } from './scan-trust.js';

export interface QuietCycle {
  remote: PlacedRemoteTree;
  scan: string;
  /** The watcher as the scan began (scan-trust.ts): while it saw nothing, the folder need not be walked again. */
  local: ScanMark | null;
  index: string;
  plan: Plan;
  /** The problems the cycle told after its scan: a cycle that skips its planning tells them again. */
  problems: Problem[];
}

/**
 * Every file with its size, inode, times and checksum, every folder with its inode, and every
 * skipped entry, in a form that does not depend on the order the workers listed them in: a sum
 * and a xor of each entry's hash in two lanes (FNV-1a, and the same with another seed and
 * multiplier, in one pass), and the counts. A file's path is hashed only where it differs from its key.
 */
export function scanFingerprint(scan: ScanResult): string {
  let sumA = 0;
  let sumB = 0;
  let xorA = 0;
  let xorB = 0;
  const add = (entry: string): void => {
    let a = 0x811c9dc5;
    let b = 0x050c5d1f;
    for (let i = 0; i < entry.length; i += 1) {
      const c = entry.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    sumA = (sumA + (a >>> 0)) >>> 0;
    sumB = (sumB + (b >>> 0)) >>> 0;
    xorA = (xorA ^ a) >>> 0;
    xorB = (xorB ^ b) >>> 0;
  };
  for (const [key, f] of scan.files) add(`${key}\0${f.path === key ? '' : f.path}\0${f.size}\0${f.inode}\0${f.mtimeNs}\0${f.ctimeNs}\0${f.checksum}`);
  for (const [key, d] of scan.folders) add(`d\0${key}\0${d.path === key ? '' : d.path}\0${d.inode ?? ''}`);
  for (const s of scan.skipped) add(`s\0${JSON.stringify(s)}`);
  return `${scan.files.size}/${scan.folders.size}/${scan.skipped.length}/${sumA}/${sumB}/${xorA}/${xorB}`;
}

/** Whether a cycle that saw `remote`, `scan` and the index at `index` would plan what `quiet` planned: nothing. */
export const stillQuiet = (quiet: QuietCycle | null, remote: PlacedRemoteTree, scan: string, index: string): quiet is QuietCycle =>
  quiet !== null && quiet.remote === remote && quiet.scan === scan && quiet.index === index;
