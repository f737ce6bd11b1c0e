import { createHash } from 'node:crypto';
import { closeSync, createReadStream, createWriteStream, mkdirSync, open, openSync, readSync, renameSync, statSync, writeSync, type ReadStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';

const openAsync = promisify(open);
const KEY = /^[A-Za-z0-9_-]{1,100}$/;
const CHUNK = 1024 * 1024;
/**
 * Blobs up to this size are handled in one piece with synchronous file calls (but for creating a
 * file). Each asynchronous file call is a hand-off to libuv's thread pool, and on our 2-core VMs
 * that hand-off costs 5-10 times the call itself (about 30 µs of CPU against 5 µs): a small blob's
 * open, stat, read and close through the pool cost more than its HTTP request. Reading or writing
 * this much from the page cache holds the event loop for less than those hand-offs took.
 */
export const SMALL_BLOB_BYTES = 256 * 1024;

/** A body that went past the most bytes it may have: nothing of it was kept. */
export class TooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the body is longer than ${maxBytes} bytes`);
  }
}

export interface StageOptions {
  /** The request's Content-Length: a small body is held in memory and written only when kept. */
  expectedSize?: number | undefined;
  /** Reading stops, and the body is refused (TooLargeError), past this many bytes. */
  maxBytes?: number | undefined;
}

export interface StagedBlob {
  size: number;
  checksum: string;
  keep(key: string): Promise<void>;
  discard(): Promise<void>;
}

/** Bytes by key in a folder. Keys are ours (never a client's file name), so they are safe paths. */
export class BlobStore {
  /** Streamed bodies still being written (or cleaned up after a sender went away). */
  private readonly staging = new Set<Promise<unknown>>();

  constructor(private readonly dir: string) {
    mkdirSync(join(dir, 'tmp'), { recursive: true });
  }

  static isKey(key: string): boolean {
    return KEY.test(key);
  }

  path(key: string): string {
    if (!BlobStore.isKey(key)) throw new Error('invalid blob key');
    return join(this.dir, key);
  }

  /**
   * Reads `source` to the end, hashing on the way; the caller keeps the bytes under a key once it
   * has seen the checksum. A small body (by its expected size) is held in memory and written only
   * when kept; anything else streams to a temp file.
   */
  async stage(source: Readable, options: StageOptions = {}): Promise<StagedBlob> {
    const { expectedSize, maxBytes = Number.POSITIVE_INFINITY } = options;
    if (expectedSize !== undefined && expectedSize <= SMALL_BLOB_BYTES) return this.stageSmall(source, maxBytes);
    const staged = this.stageStreamed(source, maxBytes);
    this.staging.add(staged);
    return staged.finally(() => this.staging.delete(staged));
  }

  /**
   * Waits until no body is being written: a service that stops lets its uploads close their temp
   * files first, so its data folder can then be removed (a FUSE disk refuses to remove a folder
   * holding a file that is still open).
   */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.staging]);
  }

  private async stageStreamed(source: Readable, maxBytes: number): Promise<StagedBlob> {
    const tmp = this.tmpPath();
    const hash = createHash('sha256');
    let size = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > maxBytes) return done(new TooLargeError(maxBytes));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const out = createWriteStream(tmp, { highWaterMark: CHUNK });
    try {
      await pipeline(source, tap, out);
    } catch (error) {
      // Removed once closed: on a FUSE disk an open file that is removed lingers as .fuse_hidden*.
      if (!out.closed) await once(out, 'close').catch(() => undefined);
      await rm(tmp, { force: true });
      throw error;
    }
    return {
      size,
      checksum: hash.digest('hex'),
      keep: (key) => rename(tmp, this.path(key)),
      discard: () => rm(tmp, { force: true }),
    };
  }

  private async stageSmall(source: Readable, maxBytes: number): Promise<StagedBlob> {
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    let size = 0;
    // Rejects when the sender goes away mid-body: nothing was written, as with the streamed path.
    for await (const chunk of source as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw new TooLargeError(maxBytes);
      hash.update(chunk);
      chunks.push(chunk);
    }
    return {
      size,
      checksum: hash.digest('hex'),
      keep: async (key) => {
        // Through a temp file and a rename, as the streamed path: a reader never sees half a blob.
        const tmp = this.tmpPath();
        try {
          // Creating a file can take long (the file system looks for a free inode): that one call
          // stays off the event loop. Writing, closing and renaming are quick and stay on it.
          const fd = await openAsync(tmp, 'w');
          try {
            writeAll(fd, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
          } finally {
            closeSync(fd);
          }
          renameSync(tmp, this.path(key));
        } catch (error) {
          await rm(tmp, { force: true });
          throw error;
        }
      },
      discard: async () => undefined,
    };
  }

  private tmpPath(): string {
    return join(this.dir, 'tmp', randomUUID());
  }

  /** The blob's size, or undefined when it is not on disk. A stat is cheaper done synchronously (see SMALL_BLOB_BYTES). */
  async size(key: string): Promise<number | undefined> {
    try {
      return statSync(this.path(key), { throwIfNoEntry: false })?.size;
    } catch {
      return undefined;
    }
  }

  /** Bytes `start`..`end` (inclusive) of a blob of at most SMALL_BLOB_BYTES, read synchronously. */
  readSmall(key: string, range: { start: number; end: number }): Buffer {
    const length = range.end - range.start + 1;
    const buffer = Buffer.allocUnsafe(length);
    const fd = openSync(this.path(key), 'r');
    try {
      let filled = 0;
      while (filled < length) {
        const n = readSync(fd, buffer, filled, length - filled, range.start + filled);
        if (n === 0) break;
        filled += n;
      }
      return filled === length ? buffer : buffer.subarray(0, filled);
    } finally {
      closeSync(fd);
    }
  }

  read(key: string, range?: { start: number; end: number }): ReadStream {
    return createReadStream(this.path(key), { highWaterMark: CHUNK, ...range });
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written);
}
