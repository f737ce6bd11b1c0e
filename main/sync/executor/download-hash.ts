/**
 * The checksum of a download as it lands on disk. A file up to HASH_BEHIND_BYTES is hashed on
 * the main thread as its chunks arrive: a message to a worker would cost more than its hash. A
 * larger one is hashed by a worker thread (`hashBehind` in fs-workers.ts): SHA-256 runs at about
 * 1.85 GB/s on one core here, and on the main thread it took 1.2 s of a 2 GiB download's 4.5 s
 * while the other core waited. The worker reads the temp file behind the writer, or, for a file
 * written with direct I/O (direct-writer.ts), which the page cache does not hold, is handed each
 * block where it lies in shared memory: in 6 rounds A/B, medians of 4.3 s against
 * 5.0 s hashed on the main thread for 2 GiB, 1.84 s against 1.99 s for 3 x 256 MiB.
 */
import type { FileHandle } from 'node:fs/promises';
import { fsWorkers, type HashBehind } from '../../local/fs-workers.js';
import { newHasher, type HashAlgorithm } from '../../local/checksum.js';
import { HASH_CHUNK_BYTES } from '../../local/hash.js';

// Stryker disable next-line ArithmeticOperator: where the hash is computed, not what it is
export const HASH_BEHIND_BYTES = 16 * 1024 * 1024;

/** How far the writer gets before the worker is told to read on: a message per 16 MiB costs nothing. */
// Stryker disable next-line ArithmeticOperator: how often the worker reads on, not what it reads
const STEP_BYTES = 16 * 1024 * 1024;

export interface DownloadHash {
  /** The temp file already holds the body's first `length` bytes (a resumed download). */
  prefix(file: FileHandle, length: number): Promise<void>;
  /** A chunk of the body, in order, as it arrives. */
  received(chunk: Buffer): void;
  /** The file now holds the body's first `end` bytes. */
  written(end: number): void;
  /** The checksum (in the client's form) of the body's `size` bytes, all written. */
  digest(size: number): Promise<string>;
  /** The download failed: no checksum is wanted. */
  drop(): void;
  /**
   * Hashes the body's next bytes where they lie in shared memory (a direct write's block), on a
   * worker; only where `downloadHash` was told the file is written directly.
   */
  block?: (bytes: Buffer) => Promise<void>;
}

/**
 * `direct`: the file is written past the page cache, where reading it back would go to the disk;
 * the writer hands each block over instead (`block`).
 */
// Stryker disable all: which thread hashes, and from the file or the blocks, is a matter of
// speed; every way gives the same checksum (download-hash.test.ts checks each).
export function downloadHash(size: number, tempPath: string, direct: boolean, algorithm: HashAlgorithm): DownloadHash {
  if (size < HASH_BEHIND_BYTES) return hashAsReceived(algorithm);
  return hashOnWorker(tempPath, direct ? 'blocks' : 'file', algorithm);
}
// Stryker restore all

function hashAsReceived(algorithm: HashAlgorithm): DownloadHash {
  const hash = newHasher(algorithm);
  return {
    async prefix(file, length) {
      // Stryker disable next-line MethodExpression: the buffer's size, not what is read: each read takes at most the bytes left
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
    digest: () => Promise.resolve(hash.digest()),
    drop: () => undefined,
  };
}

/** `from`: the worker reads what was written from the file, or is handed each block from memory. */
function hashOnWorker(tempPath: string, from: 'file' | 'blocks', algorithm: HashAlgorithm): DownloadHash {
  let job: HashBehind | undefined = fsWorkers().hashBehind(tempPath, algorithm);
  let told = 0;
  const tell = (end: number): void => {
    told = end;
    job?.to(end);
  };
  return {
    prefix: (_file, length) => Promise.resolve(tell(length)),
    received: () => undefined,
    // Stryker disable next-line BlockStatement: how far ahead the worker reads; the digest reads the rest
    written(end) {
      // Stryker disable next-line all: how far ahead the worker reads; the digest reads the rest
      if (from === 'file' && end - told >= STEP_BYTES) tell(end);
    },
    ...(from === 'blocks' ? { block: (bytes: Buffer) => (job ? job.block(bytes) : Promise.reject(new Error('the hash of this download was dropped'))) } : {}),
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
