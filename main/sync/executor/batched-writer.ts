/**
 * Writes a stream of received chunks to a file at increasing offsets, a batch at a time, with
 * one write in flight while the next batch is received and hashed. Awaiting a write per 64 KiB
 * network chunk left the disk idle while the body was hashed and the socket idle while the disk
 * wrote: a 2 GiB download ran at half of curl's speed.
 */
import type { FileHandle } from 'node:fs/promises';

/**
 * Big enough that the thread-pool round trip of a write costs little per byte; small enough
 * that the page cache fills quickly: Linux 6.x gives ext4 folios as large as the write, and
 * filling 2 MiB ones was slow here. A 2 GiB download took 3.9-4.6 s with 512 KiB batches, against
 * 4.6-5.5 s with 2 MiB ones and 4.9-7.1 s with 128 KiB ones (A/B in one script).
 */
export const WRITE_BATCH_BYTES = 512 * 1024;

/**
 * Bytes received but not yet written before the body waits for the disk: a write held up by a
 * flush (pages under writeback) should not stop the socket at once.
 */
export const MAX_UNWRITTEN_BYTES = 12 * 1024 * 1024;

/**
 * Large files are flushed to disk every so often while they download, so the final fsync has
 * little left to do and the disk works while the network does.
 */
export const FLUSH_EVERY_BYTES = 64 * 1024 * 1024;

/** A write to the file failed (e.g. a full disk): the file's fault, not the connection's. */
export class FileWriteError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'FileWriteError';
  }
}

/** Where a download's body goes, chunk by chunk (BatchedWriter, or DirectWriter for large files). */
export interface FileWriter {
  /** Takes the next chunk; answers a promise only when the caller must wait (too much is unwritten). */
  add(chunk: Buffer): Promise<void> | undefined;
  /** Where the next bytes may be read to so that `add` takes them in place, if the writer offers that. */
  space?(): Buffer | undefined;
  /** Writes what is left and waits for every write: the bytes are then in the file. */
  end(): Promise<void>;
  /** Waits for the writes in flight, ignoring their failure (before closing after another error). */
  settle(): Promise<void>;
}

export class BatchedWriter implements FileWriter {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private inFlight: Promise<void> = Promise.resolve();
  /** Bytes handed to writes that have not completed. */
  private unwritten = 0;
  /** A flush to disk running beside the writes (at most one at a time). */
  private flushing: Promise<void> | undefined;
  private flushedAt: number;

  constructor(
    private readonly file: FileHandle,
    /** Where the next byte goes. */
    private position: number,
    /** Told, after each write, the offset up to which the file holds the bytes (in order). */
    private readonly onWritten: (end: number) => void = () => undefined,
  ) {
    this.flushedAt = position;
  }

  /** Takes a chunk; waits only when a batch is full and the previous one is still being written. */
  add(chunk: Buffer): Promise<void> | undefined {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    return this.bytes >= WRITE_BATCH_BYTES ? this.startWrite() : undefined;
  }

  /** Writes what is left and waits for every write and flush: the bytes are then in the file. */
  async end(): Promise<void> {
    await this.startWrite();
    await this.inFlight;
    await this.flushing;
  }

  /** Waits for the write and flush in flight, ignoring their failure (before closing after another error). */
  async settle(): Promise<void> {
    await this.inFlight.catch(() => undefined);
    await this.flushing?.catch(() => undefined);
  }

  private async startWrite(): Promise<void> {
    if (this.bytes === 0) return;
    const batch = this.chunks;
    const at = this.position;
    const size = this.bytes;
    this.chunks = [];
    this.position += this.bytes;
    this.bytes = 0;
    // Writes run one after another, in order; the body only waits when too much is queued.
    const previous = this.inFlight;
    this.unwritten += size;
    this.inFlight = previous.then(() => this.writeFully(batch, at)).finally(() => {
      this.unwritten -= size;
    });
    // Seen by the next add or end; until then a failure must not count as unhandled.
    this.inFlight.catch(() => undefined);
    if (this.unwritten > MAX_UNWRITTEN_BYTES) await previous;
  }

  private async writeFully(batch: Buffer[], at: number): Promise<void> {
    try {
      let buffers = batch;
      let position = at;
      while (buffers.length > 0) {
        const { bytesWritten } = await this.file.writev(buffers, position);
        position += bytesWritten;
        buffers = rest(buffers, bytesWritten);
      }
      this.onWritten(position);
      if (position - this.flushedAt >= FLUSH_EVERY_BYTES && this.flushing === undefined) {
        this.flushedAt = position;
        // Beside the next writes, not before them: the disk and the network work at once.
        this.flushing = this.file.datasync().then(
          () => {
            this.flushing = undefined;
          },
          (err: unknown) => {
            throw new FileWriteError(err);
          },
        );
        this.flushing.catch(() => undefined);
      }
    } catch (err) {
      throw new FileWriteError(err);
    }
  }
}

/** What a short writev left unwritten. */
function rest(buffers: Buffer[], written: number): Buffer[] {
  let skip = written;
  let i = 0;
  while (i < buffers.length && skip >= (buffers[i] as Buffer).length) skip -= (buffers[i++] as Buffer).length;
  if (i === buffers.length) return [];
  return [(buffers[i] as Buffer).subarray(skip), ...buffers.slice(i + 1)];
}
