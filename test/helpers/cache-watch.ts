/**
 * Test helper: what a scan asks the index's hash cache and which files it reads, seen through
 * spies on the real classes (their calls go through unchanged). Restore with vi.restoreAllMocks().
 */
import { vi } from 'vitest';
import { SqliteHashCache } from '../../main/index/hash-cache.js';
import { FsWorkerPool } from '../../main/local/fs-workers.js';

/** Every call of the real hash cache's methods (queries and writes alike) and every file read by the scan's workers. */
export function watchCacheAndReads(): { asked: string[]; read: string[] } {
  const seen = { asked: [] as string[], read: [] as string[] };
  const proto = SqliteHashCache.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of Object.getOwnPropertyNames(SqliteHashCache.prototype)) {
    if (name === 'constructor' || typeof proto[name] !== 'function') continue;
    const real = proto[name];
    vi.spyOn(proto, name).mockImplementation(function (this: unknown, ...args: unknown[]) {
      seen.asked.push(name);
      return real.apply(this, args);
    });
  }
  const hash = FsWorkerPool.prototype.hash;
  vi.spyOn(FsWorkerPool.prototype, 'hash').mockImplementation(function (this: FsWorkerPool, paths, ...rest) {
    seen.read.push(...paths);
    return hash.call(this, paths, ...rest);
  });
  return seen;
}
