/** Byte counting for streamed transfers, without buffering and without touching flow control. */
import { Readable } from 'node:stream';

/** What a signed upload can stream: an fs.ReadStream (or any async iterable of bytes) or a Buffer. */
export type UploadSource = Uint8Array | AsyncIterable<Uint8Array>;

const SLICE = 1024 * 1024;

async function* slices(source: UploadSource): AsyncGenerator<Uint8Array> {
  if (source instanceof Uint8Array) {
    for (let at = 0; at < source.length; at += SLICE) yield source.subarray(at, at + SLICE);
    return;
  }
  yield* source;
}

async function* counted(source: UploadSource, onProgress: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  for await (const chunk of slices(source)) {
    bytes += chunk.length;
    yield chunk;
    onProgress(bytes);
  }
}

/**
 * A readable over `source` that reports the running byte count after each chunk is taken.
 * Errors of the source surface on the readable; destroying the readable stops the source.
 */
export function withProgress(source: UploadSource, onProgress: (bytes: number) => void): Readable {
  return Readable.from(counted(source, onProgress), { objectMode: false });
}

/** An upload body for undici: bytes as they are, a stream counted when progress is wanted. */
export function uploadBody(source: UploadSource, onProgress?: (bytes: number) => void): Buffer | Readable {
  // A small buffer goes out in one write: counted as handed over at once. As a stream, undici
  // could see the answer before the stream's end and close the connection after every file.
  if (source instanceof Uint8Array && source.length <= SLICE) {
    onProgress?.(source.length);
    return Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  }
  if (onProgress) return withProgress(source, onProgress);
  if (source instanceof Uint8Array) return Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  return source instanceof Readable ? source : Readable.from(source, { objectMode: false });
}
