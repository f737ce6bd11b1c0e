/**
 * SHA-256 of files and buffers, lowercase hex: the checksum used everywhere in the protocol.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

/** 1 MiB reads hash about 2.5x faster than the default 64 KiB stream chunks. */
export const HASH_CHUNK_BYTES = 1024 * 1024;
const MIN_BUFFER_BYTES = 64 * 1024;

export interface HashFileOptions {
  signal?: AbortSignal;
  /** Expected size (from a stat): small files then get a small buffer instead of 1 MiB. */
  sizeHint?: number;
  /** Called after each chunk with the bytes read so far (for progress on large files). */
  onBytes?: (bytesRead: number) => void;
}

export interface FileHash {
  checksum: string;
  /** Bytes actually read: differs from a prior stat if the file changed meanwhile. */
  size: number;
}

export async function hashFile(absPath: string, opts: HashFileOptions = {}): Promise<FileHash> {
  opts.signal?.throwIfAborted();
  const bufferBytes =
    opts.sizeHint === undefined ? HASH_CHUNK_BYTES : Math.min(HASH_CHUNK_BYTES, Math.max(MIN_BUFFER_BYTES, opts.sizeHint + 1));
  const buffer = Buffer.allocUnsafe(bufferBytes);
  const hash = createHash('sha256');
  const handle = await open(absPath, 'r');
  let size = 0;
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      size += bytesRead;
      opts.onBytes?.(size);
      opts.signal?.throwIfAborted();
    }
  } finally {
    await handle.close();
  }
  return { checksum: hash.digest('hex'), size };
}

export function hashBuffer(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}
