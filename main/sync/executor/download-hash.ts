/**
 * The checksum of a download as it lands on disk. A file up to HASH_BEHIND_BYTES is hashed on
 * the main thread as its chunks arrive: a message to a worker would cost more than its hash. So
 * is a larger one written with direct I/O (direct-writer.ts, Linux), which the page cache does
 * not hold for a worker to read back. Any other is hashed by a worker thread that reads the temp
 * file behind the writer (`hashBehind` in fs-workers.ts): SHA-256 runs at about 1.85 GB/s on one core here, and on the
 * main thread it took 1.2 s of a 2 GiB download's 4.5 s while the other core waited.
 */
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { fsWorkers, type HashBehind } from '../../local/fs-workers.js';
import { HASH_CHUNK_BYTES } from '../../local/hash.js';

export const HASH_BEHIND_BYTES = 16 * 1024 * 1024;

/** How far the writer gets before the worker is told to read on: a message per 16 MiB costs nothing. */
const STEP_BYTES = 16 * 1024 * 1024;

export interface DownloadHash {
  /** The temp file already holds the body's first `length` bytes (a resumed download). */
  prefix(file: FileHandle, length: number): Promise<void>;
  /** A chunk of the body, in order, as it arrives. */
  received(chunk: Buffer): void;
  /** The file now holds the body's first `end` bytes. */
  written(end: number): void;
  /** SHA-256 (hex) of the body's `size` bytes, all written. */
  digest(size: number): Promise<string>;
  /** The download failed: no checksum is wanted. */
  drop(): void;
}

/**
 * `direct`: the file is written past the page cache, where reading it back would go to the disk;
 * its chunks are hashed as they arrive instead, whatever their size.
 */
export function downloadHash(size: number, tempPath: string, direct = false): DownloadHash {
  return size >= HASH_BEHIND_BYTES && !direct ? hashBehindWriter(tempPath) : hashAsReceived();
}

function hashAsReceived(): DownloadHash {
  const hash = createHash('sha256');
  return {
    async prefix(file, length) {
      const buffer = Buffer.allocUnsafe(Math.min(HASH_CHUNK_BYTES, Math.max(length, 1)));
      let position = 0;
      while (position < length) {
        const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, length - position), position);
        if (bytesRead === 0) throw new Error(`the download's temp file holds ${position} bytes where ${length} were written`);
        hash.update(buffer.subarray(0, bytesRead));
        position += bytesRead;
      }
    },
    received: (chunk) => void hash.update(chunk),
    written: () => undefined,
    digest: () => Promise.resolve(hash.digest('hex')),
    drop: () => undefined,
  };
}

function hashBehindWriter(tempPath: string): DownloadHash {
  let job: HashBehind | undefined = fsWorkers().hashBehind(tempPath);
  let told = 0;
  const tell = (end: number): void => {
    told = end;
    job?.to(end);
  };
  return {
    prefix: (_file, length) => Promise.resolve(tell(length)),
    received: () => undefined,
    written(end) {
      if (end - told >= STEP_BYTES) tell(end);
    },
    async digest(size) {
      if (job === undefined) throw new Error('the hash of this download was dropped');
      tell(size);
      const answer = await job.end();
      job = undefined;
      // A file shorter than `size` is an error of the worker's (ESHORT), not a short checksum.
      if ('error' in answer) throw Object.assign(new Error(`reading back the download: ${answer.error.message}`), { code: answer.error.code });
      return answer.checksum;
    },
    drop() {
      void job?.end().catch(() => undefined);
      job = undefined;
    },
  };
}
