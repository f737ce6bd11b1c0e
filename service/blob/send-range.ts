/**
 * Sends a byte range of a blob file as a response body from two buffers used in turn: one is
 * read into while the other is on its way out.
 *
 * A `fs.ReadStream` piped into the response allocates a new 1 MiB buffer per chunk. Those count
 * as external memory, which makes V8 run a full mark-compact about every 64 MiB: serving one
 * 2 GiB download cost the service 2.9 CPU seconds, half of it in garbage collection. On a
 * machine where the service shares two cores with the client under test (the benchmarks, the
 * demo), those seconds were the client's.
 */
import type { ServerResponse } from 'node:http';
import { open } from 'node:fs/promises';

const CHUNK_BYTES = 1024 * 1024;

/**
 * Writes bytes `start`..`end` (inclusive) of the file at `path` to `res`, then ends it. With
 * `cutAfter`, sends only that many bytes and destroys the connection instead (an injected fault).
 */
export async function sendRange(path: string, range: { start: number; end: number }, res: ServerResponse, cutAfter?: number): Promise<void> {
  const file = await open(path, 'r');
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  try {
    const buffers: [Buffer, Buffer] = [Buffer.allocUnsafeSlow(CHUNK_BYTES), Buffer.allocUnsafeSlow(CHUNK_BYTES)];
    // When each buffer may be filled again: its last write has been handed to the socket.
    const free: [Promise<void>, Promise<void>] = [Promise.resolve(), Promise.resolve()];
    const stop = cutAfter === undefined ? range.end + 1 : range.start + cutAfter;
    let position = range.start;
    for (let turn: 0 | 1 = 0; position < stop; turn = turn === 0 ? 1 : 0) {
      const buffer = buffers[turn];
      await free[turn];
      if (res.destroyed) return;
      const { bytesRead } = await file.read(buffer, 0, Math.min(CHUNK_BYTES, stop - position), position);
      if (bytesRead === 0) throw new Error(`the blob at ${path} ended at byte ${position}, before ${stop}`);
      const written = new Promise<void>((resolve) => res.write(buffer.subarray(0, bytesRead), () => resolve()));
      // A response that closes never calls back: the buffer is free then too.
      free[turn] = Promise.race([written, closed]);
      position += bytesRead;
    }
    await Promise.all(free);
    if (cutAfter === undefined) res.end();
    else res.destroy();
  } finally {
    await file.close();
  }
}
