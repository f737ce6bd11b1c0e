/**
 * Each connection to the index keeps SQLite's own page cache of 2 MiB, not the 16 MiB
 * better-sqlite3 compiles in (main/index/database.ts): an engine reads its index once at
 * start-up into its model, so a larger cache only held pages already copied into the heap.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase, PAGE_CACHE_KIB } from '../../main/index/database.js';
import { useTempIndex } from './index-fixtures.js';

const { file, withIndex } = useTempIndex();

describe("the index's page cache", () => {
  it('is at most 2 MiB on a connection the index opens', () => {
    expect(PAGE_CACHE_KIB).toBeLessThanOrEqual(2048);
    // Opening the index migrates it: the connection is the one the engine uses.
    withIndex(() => undefined);
    const db = openDatabase(file());
    try {
      // A negative cache_size is a size in KiB.
      expect(db.pragma('cache_size', { simple: true })).toBe(-PAGE_CACHE_KIB);
    } finally {
      db.close();
    }
  });
});
