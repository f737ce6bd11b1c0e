/**
 * What a walk of a folder saw, without reading a file or asking the hash cache: every file's key
 * and path with its stamp (size, inode, mtime, ctime), every folder with its inode and every
 * skipped entry, in a form that does not depend on the order the workers listed them in
 * (order-free-print.ts). Two walks with the same print saw the same names with the same stamps.
 */
import type { LocalFolder } from '../model/views.js';
import type { FolderListing } from './fs-worker-protocol.js';
import { OrderFreePrint } from './order-free-print.js';
import type { SkippedEntry } from './skipped-entry.js';

export class StampPrint {
  private readonly print = new OrderFreePrint();
  private files = 0;
  /** The times of the listing last printed from, as 32-bit words: read so, no BigInt is made. */
  private times: BigInt64Array | undefined;
  private words: Uint32Array = new Uint32Array(0);

  /** File entry `index` of `listing`, found at `rel` under `key`. */
  file(key: string, rel: string, listing: FolderListing, index: number): void {
    const { print } = this;
    print.text(key);
    print.text(rel === key ? '' : rel);
    print.number(listing.sizes[index] as number);
    print.number(listing.inodes[index] as number);
    const far = listing.farTimes?.get(index);
    if (far !== undefined) {
      print.text(far);
    } else {
      this.timeWords(listing);
      // The mtime and the ctime, in ns: two 64-bit numbers.
      print.words(this.words, 4 * index, 4 * index + 4);
    }
    print.add();
    this.files++;
  }

  /** Keeps `words` on the times of `listing`. */
  private timeWords(listing: FolderListing): void {
    if (this.times !== listing.times) {
      const { times } = listing;
      this.times = times;
      this.words = new Uint32Array(times.buffer, times.byteOffset, times.length * 2);
    }
  }

  /** The print, with the folders and skipped entries the walk found. Call once. */
  result(folders: ReadonlyMap<string, LocalFolder>, skipped: readonly SkippedEntry[]): string {
    addFoldersAndSkipped(this.print, folders, skipped);
    return this.print.result(this.files, folders.size, skipped.length);
  }
}

/** Every folder with its inode (and its path where it differs from its key), and every skipped entry. */
export function addFoldersAndSkipped(print: OrderFreePrint, folders: ReadonlyMap<string, LocalFolder>, skipped: readonly SkippedEntry[]): void {
  for (const [key, d] of folders) {
    print.text('d');
    print.text(key);
    print.text(d.path === key ? '' : d.path);
    print.number(d.inode ?? -1);
    print.add();
  }
  for (const s of skipped) {
    print.text(`s\0${JSON.stringify(s)}`);
    print.add();
  }
}
