import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdtemp, open, readFile, rm, stat, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALIGNED_BLOCK_BYTES } from '../../main/local/aligned-blocks.js';
import { FileWriteError } from '../../main/sync/executor/batched-writer.js';
import { DIRECT_IO_ALIGN, DIRECT_IO_MIN_BYTES, DirectWriter, openDirect } from '../../main/sync/executor/direct-writer.js';
import { bodyChunks } from '../helpers/body-chunks.js';

let dir: string | undefined;
const handles: FileHandle[] = [];
afterEach(async () => {
  for (const h of handles.splice(0)) await h.close().catch(() => undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function tempFile(): Promise<{ file: string; handle: FileHandle }> {
  dir = await mkdtemp(path.join(tmpdir(), 'direct-'));
  const file = path.join(dir, 'body');
  const handle = await open(file, 'w+');
  handles.push(handle);
  return { file, handle };
}

const linux = process.platform === 'linux';

describe.runIf(linux)('DirectWriter', () => {
  it('leaves exactly the bytes received after a block-aligned prefix, at the exact size', async () => {
    const { file, handle } = await tempFile();
    const prefix = Buffer.alloc(3 * DIRECT_IO_ALIGN, 9);
    await handle.write(prefix, 0, prefix.length, 0);
    const direct = await openDirect(handle, DIRECT_IO_MIN_BYTES);
    expect(direct).toBeDefined();
    handles.push(direct as FileHandle);
    // Not a whole number of blocks or of alignment units: the last write is padded, then cut.
    const chunks = bodyChunks(5 * ALIGNED_BLOCK_BYTES + 12_345, 3);
    const written: number[] = [];
    // A slow hasher: a block reused before its hash is done would hash other bytes.
    const hash = createHash('sha256');
    const hashBlock = async (bytes: Buffer): Promise<void> => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      hash.update(bytes);
    };
    const writer = new DirectWriter(handle, direct as FileHandle, prefix.length, { onWritten: (end) => void written.push(end), hashBlock });
    for (const chunk of chunks) await writer.add(chunk);
    await writer.end();
    const expected = Buffer.concat([prefix, ...chunks]);
    expect((await stat(file)).size).toBe(expected.length);
    expect((await readFile(file)).equals(expected)).toBe(true);
    expect(written.at(-1)).toBe(expected.length);
    expect(hash.digest('hex')).toBe(createHash('sha256').update(Buffer.concat(chunks)).digest('hex'));
  });

  it('takes bytes read into the space it offers where they lie, between chunks it copies', async () => {
    const { file, handle } = await tempFile();
    const direct = (await openDirect(handle, DIRECT_IO_MIN_BYTES)) as FileHandle;
    handles.push(direct);
    const hash = createHash('sha256');
    const writer = new DirectWriter(handle, direct, 0, { hashBlock: (bytes) => Promise.resolve(void hash.update(bytes)) });
    const body = Buffer.concat(bodyChunks(3 * ALIGNED_BLOCK_BYTES + 777, 5));
    let at = 0;
    let inPlace = 0;
    for (let i = 0; at < body.length; i += 1) {
      const length = Math.min(100_003, body.length - at);
      const space = i % 4 === 3 ? undefined : writer.space();
      if (space === undefined) {
        // A read into the socket reader's own buffer: copied.
        await writer.add(Buffer.from(body.subarray(at, at + length)));
        at += length;
        continue;
      }
      // A read into the offered space, as the socket makes it: at most what fits.
      const n = body.copy(space, 0, at, at + Math.min(length, space.length));
      await writer.add(space.subarray(0, n));
      at += n;
      inPlace += n;
      const next = writer.space() as Buffer;
      // Taken where it lay: the next space starts right after it (or a new block began).
      expect(next.byteOffset === space.byteOffset + n || next.length === ALIGNED_BLOCK_BYTES).toBe(true);
    }
    await writer.end();
    expect(inPlace).toBeGreaterThan(body.length / 2);
    expect((await readFile(file)).equals(body)).toBe(true);
    expect(hash.digest('hex')).toBe(createHash('sha256').update(body).digest('hex'));
  });

  it('is not offered for small files, and refuses to start mid-block', async () => {
    const { handle } = await tempFile();
    expect(await openDirect(handle, DIRECT_IO_MIN_BYTES - 1)).toBeUndefined();
    const direct = (await openDirect(handle, DIRECT_IO_MIN_BYTES)) as FileHandle;
    handles.push(direct);
    expect(() => new DirectWriter(handle, direct, 100)).toThrow(RangeError);
  });

  it('reports a failed write (a full disk) as a write failure, and stops taking chunks', async () => {
    const { file, handle } = await tempFile();
    // Opened for reading only: every write fails, as a full or read-only disk makes it.
    const readOnly = await open(file, constants.O_RDONLY);
    handles.push(readOnly);
    const writer = new DirectWriter(handle, readOnly, 0);
    const adding = (async () => {
      for (let i = 0; i < 20; i += 1) await writer.add(Buffer.alloc(ALIGNED_BLOCK_BYTES, i));
    })();
    await expect(adding).rejects.toBeInstanceOf(FileWriteError);
    await expect(writer.end()).rejects.toBeInstanceOf(FileWriteError);
  });

  it('goes through the page cache when the filesystem refuses the first direct write, losing nothing', async () => {
    const { file, handle } = await tempFile();
    // What a filesystem that takes O_DIRECT but not our alignment answers.
    const refusing = {
      write: () => Promise.reject(Object.assign(new Error('EINVAL: invalid argument, write'), { code: 'EINVAL' })),
    } as unknown as FileHandle;
    const chunks = bodyChunks(2 * ALIGNED_BLOCK_BYTES + 777, 5);
    const writer = new DirectWriter(handle, refusing, 0);
    for (const chunk of chunks) await writer.add(chunk);
    await writer.end();
    expect((await readFile(file)).equals(Buffer.concat(chunks))).toBe(true);
  });
});
