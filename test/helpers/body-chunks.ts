import { seededRandom } from '../../shared/random.js';

/** `total` bytes as a body arrives: chunks of 1 to 200,000 bytes, each filled with its own byte. */
export function bodyChunks(total: number, seed: number): Buffer[] {
  const random = seededRandom(seed);
  const chunks: Buffer[] = [];
  for (let made = 0; made < total; ) {
    const size = Math.min(total - made, 1 + Math.floor(random() * 200_000));
    chunks.push(Buffer.alloc(size, made % 251));
    made += size;
  }
  return chunks;
}
