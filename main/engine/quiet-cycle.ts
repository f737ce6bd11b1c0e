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
 * The fields are hashed where they are, each ended by its length: building a string per file to
 * hash cost more than the hashing (2 s at a million files).
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
  for (const [key, d] of scan.folders) {
    print.text('d');
    print.text(key);
    print.text(d.path === key ? '' : d.path);
    print.number(d.inode ?? -1);
    print.add();
  }
  for (const s of scan.skipped) {
    print.text(`s\0${JSON.stringify(s)}`);
    print.add();
  }
  return `${scan.files.size}/${scan.folders.size}/${scan.skipped.length}/${print.sumA}/${print.sumB}/${print.xorA}/${print.xorB}`;
}

/** Entries hashed field by field (`text`, `number`), each then added (`add`) to sums and xors. */
class OrderFreePrint {
  sumA = 0;
  sumB = 0;
  xorA = 0;
  xorB = 0;
  private a = 0x811c9dc5;
  private b = 0x050c5d1f;

  /**
   * The text two UTF-16 units at a time (a multiplication by an odd number keeps every
   * difference), then its length, which ends it unambiguously.
   */
  text(value: string): void {
    let { a, b } = this;
    for (let i = 0; i < value.length; i += 2) {
      const c = value.charCodeAt(i) | (value.charCodeAt(i + 1) << 16);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    this.a = a;
    this.b = b;
    this.unit(value.length);
  }

  /** An integer (sizes, inodes: below 2^53) as two 32-bit units. */
  number(value: number): void {
    this.unit(value | 0);
    this.unit(Math.floor(value / 0x1_0000_0000) | 0);
  }

  add(): void {
    this.sumA = (this.sumA + (this.a >>> 0)) >>> 0;
    this.sumB = (this.sumB + (this.b >>> 0)) >>> 0;
    this.xorA = (this.xorA ^ this.a) >>> 0;
    this.xorB = (this.xorB ^ this.b) >>> 0;
    this.a = 0x811c9dc5;
    this.b = 0x050c5d1f;
  }

  private unit(c: number): void {
    this.a = Math.imul(this.a ^ c, 0x01000193);
    this.b = Math.imul(this.b ^ c, 0x5bd1e995);
  }
}

/** Whether a cycle that saw `remote`, `scan` and the index at `index` would plan what `quiet` planned: nothing. */
export const stillQuiet = (quiet: QuietCycle | null, remote: PlacedRemoteTree, scan: string, index: string): quiet is QuietCycle =>
  quiet !== null && quiet.remote === remote && quiet.scan === scan && quiet.index === index;
