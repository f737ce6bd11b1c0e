/**
 * Entry names of the workspace zip [ours]. Whatever the database holds (a name stored before the
 * name rules of names.ts, or written by other means), every entry stays inside the folder it is
 * extracted to, on POSIX and on Windows, and no entry overwrites another: each stored name
 * becomes exactly one path segment, and a segment taken twice in a folder gets a number.
 */
import { FORBIDDEN_IN_NAMES } from './names.js';

/**
 * What an extractor may read as a path: what names.ts keeps out of names (separators, controls,
 * which some tools take as the end of the name, direction overrides, lone surrogates), and `:`
 * (a drive letter, or an NTFS stream on Windows).
 */
const UNSAFE = new RegExp(`[${FORBIDDEN_IN_NAMES}:]|\\p{Cs}`, 'gu');

/** One safe path segment for a stored name. */
export function entrySegment(name: string): string {
  const segment = name.replace(UNSAFE, '_');
  // Windows drops trailing dots and spaces, so ". ." and ".. " are ".." there; "" is no name.
  return /^[. ]*$/.test(segment) ? segment.replace(/[. ]/g, '_').padEnd(1, '_') : segment;
}

/** Two segments that land on the same file: letter case, Unicode form and Windows' trailing dots and spaces aside. */
const clashKey = (segment: string): string => segment.normalize('NFC').toLowerCase().replace(/[. ]+$/, '');

/** `a.txt`, `a (2).txt`, `a (3).txt`… */
function numbered(segment: string, n: number): string {
  const dot = segment.lastIndexOf('.');
  return dot > 0 ? `${segment.slice(0, dot)} (${n})${segment.slice(dot)}` : `${segment} (${n})`;
}

/** Hands out entry paths, each unique in its folder. */
export class EntryPaths {
  /** Clash keys taken, per folder path ('' is the top). */
  private readonly taken = new Map<string, Set<string>>();

  /** The path of a child named `name` in the folder at `parent` ('' for the top). */
  child(parent: string, name: string): string {
    const keys = this.taken.get(parent) ?? new Set<string>();
    this.taken.set(parent, keys);
    const segment = entrySegment(name);
    let candidate = segment;
    for (let n = 2; keys.has(clashKey(candidate)); n += 1) candidate = numbered(segment, n);
    keys.add(clashKey(candidate));
    return parent === '' ? candidate : `${parent}/${candidate}`;
  }
}
