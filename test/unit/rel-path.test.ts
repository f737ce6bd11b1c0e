/**
 * The model's relative paths ("a/b/c.txt", "" = the root) checked against the list of their
 * segments on random paths: the planner places, moves and deletes by them,
 * so a parent or a depth off by one acts on the wrong file. fast-check prints the seed of a
 * failing run (`seed` in fc.assert's options replays it).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pathKey } from '../../main/local/paths.js';
import { ancestorKeys, compareStrings, depthOf, isRename, joinPath, nameOf, parentOf, sortedEntries } from '../../main/sync/rel-path.js';

/** A name: any text without "/" (case, accents and dots included), never empty. */
const segment = fc.string({ unit: fc.constantFrom('a', 'B', 'é', 'e\u0301', '.', ' ', '\\', 'z', '😀'), minLength: 1, maxLength: 4 });
const segments = fc.array(segment, { minLength: 1, maxLength: 6 });

describe('relative paths', () => {
  it('splits and joins a path as its segments say, at any depth', () => {
    fc.assert(
      fc.property(segments, (parts) => {
        const rel = parts.join('/');
        const parent = parts.slice(0, -1).join('/');
        const name = parts[parts.length - 1] as string;
        expect(parentOf(rel)).toBe(parent);
        expect(nameOf(rel)).toBe(name);
        expect(joinPath(parent, name)).toBe(rel);
        expect(depthOf(rel)).toBe(parts.length - 1);
        expect(ancestorKeys(rel)).toEqual(parts.slice(0, -1).map((_, i) => pathKey(parts.slice(0, parts.length - 1 - i).join('/'))));
      }),
      { numRuns: 500 },
    );
  });

  it('puts a name at the root without a leading slash', () => {
    expect(joinPath('', 'a.txt')).toBe('a.txt');
    expect(parentOf('a.txt')).toBe('');
    expect(nameOf('a.txt')).toBe('a.txt');
    expect(depthOf('a.txt')).toBe(0);
    expect(ancestorKeys('a.txt')).toEqual([]);
    expect(ancestorKeys('Docs/É/a.txt')).toEqual(['docs/é', 'docs']);
  });

  it('calls a change a rename when the key or the name itself changes, not a parent folder spelled otherwise', () => {
    expect(isRename('a.txt', 'a.txt')).toBe(false);
    expect(isRename('Docs/a.txt', 'docs/a.txt')).toBe(false);
    expect(isRename('Docs/a.txt', 'docs/A.txt')).toBe(true);
    expect(isRename('a.txt', 'A.txt')).toBe(true);
    expect(isRename('a.txt', 'b.txt')).toBe(true);
    expect(isRename('x/a.txt', 'y/a.txt')).toBe(true);
    fc.assert(
      fc.property(segments, segments, (from, to) => {
        const a = from.join('/');
        const b = to.join('/');
        expect(isRename(a, b)).toBe(pathKey(a) !== pathKey(b) || from[from.length - 1] !== to[to.length - 1]);
        expect(isRename(a, a)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('orders strings by UTF-16 code unit, the same on every machine', () => {
    expect(compareStrings('a', 'b')).toBe(-1);
    expect(compareStrings('b', 'a')).toBe(1);
    expect(compareStrings('a', 'a')).toBe(0);
    // Code units, not code points nor the locale: U+10000 (a surrogate pair) sorts before U+FFFF.
    expect(compareStrings('\u{10000}', '\uFFFF')).toBe(-1);
    expect(compareStrings('B', 'a')).toBe(-1);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        const byUnits = Buffer.compare(Buffer.from(a, 'utf16le').swap16(), Buffer.from(b, 'utf16le').swap16());
        expect(compareStrings(a, b)).toBe(byUnits);
      }),
      { numRuns: 300 },
    );
  });

  it('lists a map sorted by key, each key with its own value, whatever order it was filled in', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: 'binary' }), { maxLength: 20 }), (keys) => {
        const map = new Map(keys.map((key, i) => [key, i]));
        const sorted = [...keys].sort(compareStrings);
        expect(sortedEntries(map)).toEqual(sorted.map((key) => [key, map.get(key)]));
      }),
      { numRuns: 300 },
    );
  });
});
