import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BatchedWriter, FileWriteError, WRITE_BATCH_BYTES } from '../../main/sync/executor/batched-writer.js';
import { bodyChunks } from '../helpers/body-chunks.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('BatchedWriter', () => {
  it('leaves exactly the bytes received in the file, from the offset it started at', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'batched-'));
    const file = path.join(dir, 'body');
    const prefix = Buffer.from('resumed prefix');
    const handle = await open(file, 'w+');
    await handle.write(prefix, 0, prefix.length, 0);
    const chunks = bodyChunks(3 * WRITE_BATCH_BYTES + 12_345, 7);
    const writer = new BatchedWriter(handle, prefix.length);
    for (const chunk of chunks) await writer.add(chunk);
    await writer.end();
    await handle.close();
    expect((await readFile(file)).equals(Buffer.concat([prefix, ...chunks]))).toBe(true);
  });

  it('reports a failed write as a write failure, not as a broken connection', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'batched-'));
    const file = path.join(dir, 'body');
    await (await open(file, 'w')).close();
    // Opened for reading only: every write fails, as a full or read-only disk makes it.
    const handle = await open(file, 'r');
    const writer = new BatchedWriter(handle, 0);
    await writer.add(Buffer.alloc(10));
    await expect(writer.end()).rejects.toBeInstanceOf(FileWriteError);
    await handle.close();
  });
});
