import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HASH_CHUNK_BYTES, hashBuffer, hashFile } from '../../main/local/hash.js';

const sha256 = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');

describe('hashing', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hash-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('hashes buffers and strings like crypto does', () => {
    expect(hashBuffer('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hashBuffer('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const data = randomBytes(1000);
    expect(hashBuffer(data)).toBe(sha256(data));
  });

  it.each([
    ['empty', 0],
    ['small', 10],
    ['exactly one chunk', HASH_CHUNK_BYTES],
    ['several chunks and a tail', 3 * HASH_CHUNK_BYTES + 12345],
  ])('hashes a %s file', async (_label, size) => {
    const data = randomBytes(size);
    const file = path.join(dir, 'f.bin');
    await writeFile(file, data);
    await expect(hashFile(file)).resolves.toEqual({ checksum: sha256(data), size });
    await expect(hashFile(file, { sizeHint: size })).resolves.toEqual({ checksum: sha256(data), size });
  });

  it('reports progress and reads the whole file even with a wrong size hint', async () => {
    const data = randomBytes(2 * HASH_CHUNK_BYTES + 1);
    const file = path.join(dir, 'f.bin');
    await writeFile(file, data);
    const seen: number[] = [];
    const result = await hashFile(file, { sizeHint: 10, onBytes: (n) => seen.push(n) });
    expect(result).toEqual({ checksum: sha256(data), size: data.length });
    expect(seen.at(-1)).toBe(data.length);
  });

  it('stops when aborted', async () => {
    const file = path.join(dir, 'f.bin');
    await writeFile(file, randomBytes(3 * HASH_CHUNK_BYTES));
    const controller = new AbortController();
    const hashing = hashFile(file, { signal: controller.signal, onBytes: () => controller.abort() });
    await expect(hashing).rejects.toThrow(/abort/i);
    await expect(hashFile(file, { signal: AbortSignal.abort() })).rejects.toThrow(/abort/i);
  });

  it('fails for a missing file', async () => {
    await expect(hashFile(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
