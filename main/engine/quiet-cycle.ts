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
import { OrderFreePrint } from '../local/order-free-print.js';
import type { ScanResult } from '../local/scanner.js';
import { addFoldersAndSkipped } from '../local/stamp-print.js';
import type { Plan } from '../sync/planner/plan.js';
import type { PlacedRemoteTree } from './remote-tree.js';
import type { ScanMark } from './scan-trust.js';

export interface QuietCycle {
  remote: PlacedRemoteTree;
  scan: string;
  /**
   * What its scan's walk saw without checksums (ScanResult.stamps), when the hash cache vouched
   * for every checksum the scan found; else null. While the index is unchanged, so is the cache,
   * and a walk that sees these stamps again would take the same checksums from it: the next
   * cycle then asks the cache nothing (`scanUnlessUnchanged`).
   */
  stamps: string | null;
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
 * and a xor of each entry's hash (order-free-print.ts), and the counts. A file's path is hashed
 * only where it differs from its key.
 */
export function scanFingerprint(scan: ScanResult): string {
  const print = new OrderFreePrint();
  for (const [key, f] of scan.files) {
    print.text(key);
    print.text(f.path === key ? '' : f.path);
    print.number(f.size);
    print.number(f.inode);
    print.text(f.mtimeNs);
    print.text(f.ctimeNs);
    print.text(f.checksum);
    print.add();
  }
  addFoldersAndSkipped(print, scan.folders, scan.skipped);
  return print.result(scan.files.size, scan.folders.size, scan.skipped.length);
}

/** Whether a cycle that saw `remote`, `scan` and the index at `index` would plan what `quiet` planned: nothing. */
export const stillQuiet = (quiet: QuietCycle | null, remote: PlacedRemoteTree, scan: string, index: string): quiet is QuietCycle =>
  quiet !== null && quiet.remote === remote && quiet.scan === scan && quiet.index === index;

/** Whether a cycle whose walk saw `stamps` would scan what `quiet` scanned, and so plan nothing (`QuietCycle.stamps`). */
export const stillQuietByStamps = (quiet: QuietCycle | null, remote: PlacedRemoteTree, stamps: string, index: string): quiet is QuietCycle =>
  quiet !== null && quiet.stamps === stamps && quiet.remote === remote && quiet.index === index;
