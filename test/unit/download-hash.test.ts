/**
 * The checksum a download is verified against, in each of the ways it is computed: on the main
 * thread as chunks arrive, on a worker reading the temp file behind the writer, and on a worker
 * handed each direct-I/O block. Whichever way, it is the SHA-256 of the bytes on disk, and a
 * file shorter than what was written fails instead of giving a checksum.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HASH_BEHIND_BYTES, downloadHash } from '../../main/sync/executor/download-hash.js';
import { bytesFor } from '../helpers/engine.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
/** Chunks of a body as a connection hands them over: uneven sizes. */
const CHUNK = 256 * 1024 + 17;

let dir: string;
let file: FileHandle | undefined;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'download-hash-'));
});
afterEach(async () => {
  await file?.close();
  file = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Writes `bytes` to a temp file chunk by chunk, telling the hash as the executor's writers do. */
async function writeThrough(bytes: Buffer, direct: boolean): Promise<string> {
  const temp = path.join(dir, '.assetsync-0011223344556677.part');
  file = await open(temp, 'w');
  const hash = downloadHash(bytes.length, temp, direct, 'sha256');
  // Blocks are taken only by the hash of a direct write, which the worker does not read back.
  expect(hash.block !== undefined).toBe(direct && bytes.length >= HASH_BEHIND_BYTES);
  for (let at = 0; at < bytes.length; at += CHUNK) {
    const chunk = bytes.subarray(at, Math.min(at + CHUNK, bytes.length));
    hash.received(chunk);
    await file.write(chunk, 0, chunk.length, at);
    if (hash.block !== undefined) {
      // A direct write's block lies in shared memory and stays put until hashed.
      const shared = Buffer.from(new SharedArrayBuffer(chunk.length));
      chunk.copy(shared);
      await hash.block(shared);
    }
    hash.written(at + chunk.length);
  }
  return hash.digest(bytes.length);
}

describe('downloadHash', () => {
  it.each([
    ['on the main thread, as the chunks arrive', 3 * CHUNK + 5, false],
    ['on a worker reading the file behind the writer', HASH_BEHIND_BYTES + 3 * CHUNK + 5, false],
    ['on a worker handed each direct-I/O block', HASH_BEHIND_BYTES + 3 * CHUNK + 5, true],
  ])('is the SHA-256 of the bytes written, %s', async (_how, size, direct) => {
    const bytes = bytesFor(`download of ${size}`, size);
    expect(await writeThrough(bytes, direct)).toBe(sha256(bytes));
  });

  it.each([
    ['on the main thread', 200_000],
    ['on a worker', HASH_BEHIND_BYTES + 200_000],
  ])('takes in the bytes a resumed download already holds, %s', async (_how, size) => {
    const bytes = bytesFor(`resumed ${size}`, size);
    const temp = path.join(dir, 'resumed.part');
    const held = Math.floor(size / 2) + 3;
    await writeFile(temp, bytes.subarray(0, held));
    file = await open(temp, 'r+');
    const hash = downloadHash(size, temp, false, 'sha256');
    await hash.prefix(file, held);
    const rest = bytes.subarray(held);
    hash.received(rest);
    await file.write(rest, 0, rest.length, held);
    hash.written(size);
    expect(await hash.digest(size)).toBe(sha256(bytes));
  });

  it('fails on a resumed temp file shorter than the bytes it was said to hold', async () => {
    const temp = path.join(dir, 'short.part');
    await writeFile(temp, Buffer.alloc(1000, 1));
    file = await open(temp, 'r');
    await expect(downloadHash(5000, temp, false, 'sha256').prefix(file, 2000)).rejects.toThrow("the download's temp file holds 1000 bytes where 2000 were written");
  });

  it('fails, rather than give a checksum, when the file holds fewer bytes than were written to it', async () => {
    const size = HASH_BEHIND_BYTES + 1000;
    const temp = path.join(dir, 'shrunk.part');
    await writeFile(temp, Buffer.alloc(1000, 2));
    const hash = downloadHash(size, temp, false, 'sha256');
    await expect(hash.digest(size)).rejects.toMatchObject({ code: 'ESHORT', message: expect.stringContaining('reading back the download') });
  });

  it('gives no checksum once dropped', async () => {
    const temp = path.join(dir, 'dropped.part');
    await writeFile(temp, Buffer.alloc(10));
    const hash = downloadHash(HASH_BEHIND_BYTES + 10, temp, true, 'sha256');
    hash.drop();
    await expect(hash.digest(HASH_BEHIND_BYTES + 10)).rejects.toThrow('the hash of this download was dropped');
    await expect(hash.block?.(Buffer.from(new SharedArrayBuffer(10)))).rejects.toThrow('the hash of this download was dropped');
    // Told of a write once dropped (a writer's late callback): nothing to tell, nothing thrown.
    const late = downloadHash(HASH_BEHIND_BYTES + 10, temp, false, 'sha256');
    late.drop();
    expect(() => late.written(HASH_BEHIND_BYTES + 10)).not.toThrow();
  });
});
