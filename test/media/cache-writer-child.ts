/**
 * Writes cache entries as fast as it can until it is killed (cache.test.ts): each entry is a
 * file of one repeated byte, so a test can tell a whole file from a torn one. Prints a line per
 * entry written.
 */
import { MediaCache } from '../../main/media/cache.js';

const cache = new MediaCache(process.argv[2] as string, { capBytes: 4 * 1024 * 1024 });
for (let i = Number(process.argv[3] ?? 0); ; i += 1) {
  const size = 1_000 + ((i * 7_919) % 60_000);
  cache.put(`entry-${i}`, new Uint8Array(size).fill(i % 256), { i });
  process.stdout.write(`${i}\n`);
  if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
}
