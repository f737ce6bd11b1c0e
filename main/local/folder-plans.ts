/**
 * What the scanner makes of one folder's names: which entries the ignore rules leave, which
 * lose a case clash, and each kept entry's relative path and `pathKey`. It is a pure function
 * of the names, their types and the ignore rules, and it cost more than the lstats themselves
 * (about 1.5 µs per entry, mostly in the `ignore` package), so a rescan reuses the previous
 * scan's plan of each folder whose listing did not change.
 */
import type { FolderListing } from './fs-workers.js';
import { EntryType } from './fs-workers.js';
import type { IgnoreMatcher } from './ignore.js';
import { isTempName } from './own-files.js';
import { pathKey, UNDECODABLE_REASON, undecodableName, whyNotPortable } from './paths.js';
import type { SkippedEntry } from './skipped-entry.js';

export interface FolderPlan {
  /** The listing's names, joined as a worker sends them. */
  names: string;
  types: Uint8Array;
  /** Listing index of each entry kept; `rels` and `keys` go with it. */
  kept: number[];
  /** Relative path on disk, POSIX separators. */
  rels: string[];
  keys: string[];
  /** Reported again by every scan that finds the same listing. */
  skipped: SkippedEntry[];
  /** Listing index of each skipped entry: the scan reads its inode from the listing it has. */
  skippedAt: number[];
  /** Our temp names (never synced): listing index and relative path, for the leftover sweep (recovery.ts). */
  tempAt: number[];
  tempRels: string[];
}

export interface FolderRef {
  /** Relative path on disk, POSIX separators; '' is the root. */
  rel: string;
  key: string;
}

/**
 * Drops ignored entries, and of entries sharing a `pathKey` keeps the first by code-unit order
 * (readdir order is arbitrary), so the result is the same on every run.
 */
export function planFolder(listing: FolderListing, parent: FolderRef, ignore: IgnoreMatcher): FolderPlan {
  const { types } = listing;
  const plan: FolderPlan = { names: listing.names, types, kept: [], rels: [], keys: [], skipped: [], skippedAt: [], tempAt: [], tempRels: [] };
  const names = types.length === 0 ? [] : listing.names.split('/');
  const byKey = new Map<string, number>();
  const relAt = new Array<string>(names.length);
  const skip = (index: number, entry: SkippedEntry): void => {
    plan.skipped.push(entry);
    plan.skippedAt.push(index);
  };
  for (let index = 0; index < names.length; index++) {
    const name = names[index] as string;
    if (isTempName(name) && listing.undecodable?.has(index) !== true) {
      plan.tempAt.push(index);
      plan.tempRels.push(childPath(parent.rel, name));
      continue;
    }
    if (ignore.ignoresChild(parent.rel, name, types[index] === EntryType.Folder)) continue;
    const rel = childPath(parent.rel, name);
    relAt[index] = rel;
    const bytes = listing.undecodable?.get(index);
    if (bytes !== undefined) {
      const { shown, suggested } = undecodableName(bytes);
      skip(index, { path: childPath(parent.rel, shown), reason: 'invalid_name', error: UNDECODABLE_REASON, rename: suggested });
      continue;
    }
    const unportable = whyNotPortable(name);
    if (unportable !== null) {
      skip(index, { path: rel, reason: 'invalid_name', error: unportable });
      continue;
    }
    const key = pathKey(name);
    const other = byKey.get(key);
    if (other === undefined) {
      byKey.set(key, index);
      continue;
    }
    const otherName = names[other] as string;
    const [keep, drop, kept] = keepsName(otherName, name) ? [other, name, otherName] : [index, otherName, name];
    byKey.set(key, keep);
    skip(keep === index ? other : index, { path: childPath(parent.rel, drop), reason: 'case_clash', error: kept });
  }
  // A key spelled as its path (most are) is the path's string: one string per entry, not two.
  const sameSpelling = parent.key === parent.rel;
  for (const [key, index] of byKey) {
    const name = names[index] as string;
    const rel = relAt[index] as string;
    plan.kept.push(index);
    plan.rels.push(rel);
    plan.keys.push(sameSpelling && key === name ? rel : childPath(parent.key, key));
  }
  return plan;
}

/**
 * Of two names with one `pathKey`, whether `a` is the one kept: the one spelled in NFC (the
 * spelling the service and every other client use), else the first in code-unit order.
 */
function keepsName(a: string, b: string): boolean {
  const aNfc = a === a.normalize('NFC');
  if (aNfc !== (b === b.normalize('NFC'))) return aNfc;
  return a < b;
}

/**
 * True when `listing` has the same names and types, in the same order, as the plan's. Never for
 * a listing with names that are not UTF-8: two such names may read the same in `names`.
 */
export function fitsListing(plan: FolderPlan, { names, types, undecodable }: FolderListing): boolean {
  if (undecodable !== undefined || plan.names !== names || plan.types.length !== types.length) return false;
  for (let i = 0; i < types.length; i++) if (plan.types[i] !== types[i]) return false;
  return true;
}

/**
 * The plans of the last complete scan of each tree, per ignore matcher (a new matcher, new
 * rules: nothing is reused). A scan reads the last complete scan's plans and writes a fresh set,
 * so the plans of folders that are gone are dropped with it.
 */
export class FolderPlans {
  private static readonly byMatcher = new WeakMap<IgnoreMatcher, Map<string, Map<string, FolderPlan>>>();
  private readonly previous: ReadonlyMap<string, FolderPlan>;
  private readonly next = new Map<string, FolderPlan>();

  constructor(
    private readonly ignore: IgnoreMatcher,
    private readonly root: string,
  ) {
    this.previous = FolderPlans.byMatcher.get(ignore)?.get(root) ?? new Map();
  }

  /** `id`: anything that tells the folder apart within the tree (its absolute path). */
  plan(id: string, listing: FolderListing, folder: FolderRef): FolderPlan {
    const last = this.previous.get(id);
    const plan = last && fitsListing(last, listing) ? last : planFolder(listing, folder, this.ignore);
    this.next.set(id, plan);
    return plan;
  }

  /** Keeps this scan's plans for the next one; call only when the walk saw every folder. */
  commit(): void {
    let roots = FolderPlans.byMatcher.get(this.ignore);
    if (!roots) FolderPlans.byMatcher.set(this.ignore, (roots = new Map()));
    roots.set(this.root, this.next);
  }
}

export function childPath(parent: string, name: string): string {
  return parent === '' ? name : `${parent}/${name}`;
}
