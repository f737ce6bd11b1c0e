/**
 * Writes a large download with direct I/O (O_DIRECT, Linux), from page-aligned blocks straight
 * to the disk, past the page cache. On this VM, memory the page cache takes must first be faulted
 * in on the host (the balloon hands freed pages back), and that made filling the cache the
 * slowest part of a large download: `dd` wrote 2 GiB in 1.3-1.8 s with `oflag=direct` and in
 * 3.3-4.3 s through the cache with an fsync. A download also has no reason to push the user's
 * working set out of the cache for a file nobody has opened yet.
 *
 * Writes go one at a time, in order, so the file always holds the body's first bytes (what a
 * resume after a crash counts on); the body meanwhile fills the next blocks. The last block is
 * padded to the alignment and the file cut back to its size afterwards. A filesystem that
 * refuses direct I/O on the first write (EINVAL) gets the rest through the page cache.
 */
import { constants, fstatSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { ALIGNED_BLOCK_BYTES, returnAlignedBlock, takeAlignedBlock } from '../../local/aligned-blocks.js';
import { BatchedWriter, FileWriteError, type FileWriter } from './batched-writer.js';

/** From this size a download is written directly: below it, the cache costs little. */
export const DIRECT_IO_MIN_BYTES = 16 * 1024 * 1024;

/** Offsets and lengths of direct writes are multiples of this (the largest common block size). */
export const DIRECT_IO_ALIGN = 4096;

/** Blocks one download fills while earlier ones are written. */
const BLOCKS_PER_WRITER = 4;

const O_DIRECT: number | undefined = (constants as { O_DIRECT?: number }).O_DIRECT;

/** Devices whose filesystem refused direct I/O: not tried again until restart. */
const refusedOn = new Set<number>();

/** `offset` rounded down to where a direct write may start. */
export function directStart(offset: number): number {
  return offset - (offset % DIRECT_IO_ALIGN);
}

/**
 * A second descriptor of `file`, opened for direct writes, or undefined where there is no
 * direct I/O (not Linux, a filesystem without it, a file too small to gain from it). Opened
 * through /proc/self/fd, so it is the same file whatever happened to its name meanwhile.
 */
export async function openDirect(file: FileHandle, size: number): Promise<FileHandle | undefined> {
  if (O_DIRECT === undefined || size < DIRECT_IO_MIN_BYTES) return undefined;
  const dev = fstatSync(file.fd).dev;
  if (refusedOn.has(dev)) return undefined;
  try {
    return await open(`/proc/self/fd/${file.fd}`, constants.O_WRONLY | O_DIRECT);
  } catch {
    refusedOn.add(dev);
    return undefined;
  }
}

export class DirectWriter implements FileWriter {
  private current: Buffer | undefined;
  private filled = 0;
  private readonly idle: Buffer[] = [];
  private owned = 0;
  private blockWaiters: Array<() => void> = [];
  /** Writes run one after another; a failure is kept in `failure`, never left to reject the chain. */
  private chain: Promise<void> = Promise.resolve();
  private failure: FileWriteError | undefined;
  private fallback: BatchedWriter | undefined;
  private wroteDirect = false;
  private padded = false;
  private released = false;

  constructor(
    /** The download's own descriptor: truncation, and the page cache if direct writes are refused. */
    private readonly file: FileHandle,
    private readonly direct: FileHandle,
    /** Where the next byte goes: a multiple of DIRECT_IO_ALIGN. */
    private position: number,
    private readonly hooks: {
      /** Told, after each write, the offset up to which the file holds the bytes (in order). */
      onWritten?: (end: number) => void;
      /** Hashes each block's bytes, in order, beside its write; the block is reused once both are done. */
      hashBlock?: (bytes: Buffer) => Promise<void>;
    } = {},
  ) {
    if (position % DIRECT_IO_ALIGN !== 0) throw new RangeError(`a direct write cannot start at ${position}`);
  }

  /**
   * Where the body's next bytes may be read to: the free part of the block being filled. A chunk
   * read there is taken by `add` without a copy (copying 768 MiB from the socket's buffer into
   * the blocks was a sixth of a download's CPU time). Undefined while every block is busy.
   */
  space(): Buffer | undefined {
    if (this.failure || this.released) return undefined;
    this.current ??= this.idle.pop() ?? this.newBlock();
    return this.current?.subarray(this.filled);
  }

  /** Takes the chunk into blocks; answers a promise only while every block is full and being written. */
  add(chunk: Buffer): Promise<void> | undefined {
    const block = this.current;
    if (block !== undefined && chunk.buffer === block.buffer && chunk.byteOffset === block.byteOffset + this.filled && chunk.length <= block.length - this.filled) {
      // Read into `space()`: the bytes are already where they belong.
      this.filled += chunk.length;
      if (this.filled === ALIGNED_BLOCK_BYTES) this.queue();
      return undefined;
    }
    return this.copyFrom(chunk, 0);
  }

  private copyFrom(chunk: Buffer, start: number): Promise<void> | undefined {
    for (let from = start; from < chunk.length; ) {
      if (this.current === undefined) {
        if (this.failure) throw this.failure;
        this.current = this.idle.pop() ?? this.newBlock();
        if (this.current === undefined) return this.nextBlock().then((block) => {
          this.current = block;
          return this.copyFrom(chunk, from);
        });
      }
      const copied = chunk.copy(this.current, this.filled, from);
      this.filled += copied;
      from += copied;
      if (this.filled === ALIGNED_BLOCK_BYTES) this.queue();
    }
    return undefined;
  }

  /** A block of this writer's own, if it may still take one. */
  private newBlock(): Buffer | undefined {
    if (this.owned >= BLOCKS_PER_WRITER) return undefined;
    this.owned += 1;
    return takeAlignedBlock();
  }

  /** Writes what is left and waits for every write: the bytes are then in the file, at its exact size. */
  async end(): Promise<void> {
    try {
      if (this.filled > 0) {
        const length = Math.ceil(this.filled / DIRECT_IO_ALIGN) * DIRECT_IO_ALIGN;
        (this.current as Buffer).fill(0, this.filled, length);
        this.padded = length > this.filled;
        this.queue(length);
      }
      await this.chain;
      await this.fallback?.end();
      if (this.failure) throw this.failure;
      if (this.padded && this.fallback === undefined) {
        await this.file.truncate(this.position).catch((err: unknown) => {
          throw new FileWriteError(err);
        });
      }
    } finally {
      this.release();
    }
  }

  /** Waits for the write in flight, ignoring failures (before closing after another error). */
  async settle(): Promise<void> {
    await this.chain;
    await this.fallback?.settle();
    this.release();
  }

  private async nextBlock(): Promise<Buffer> {
    for (;;) {
      if (this.failure) throw this.failure;
      const block = this.idle.pop() ?? this.newBlock();
      if (block !== undefined) return block;
      await new Promise<void>((resolve) => this.blockWaiters.push(resolve));
    }
  }

  /** Hands the current block to the chain: `length` bytes from it, of which `filled` are the body's. */
  private queue(length = this.filled): void {
    const block = this.current as Buffer;
    const at = this.position;
    const bytes = this.filled;
    this.position += bytes;
    this.current = undefined;
    this.filled = 0;
    const hashed = this.hooks.hashBlock?.(block.subarray(0, bytes));
    hashed?.catch(() => undefined);
    this.chain = this.chain.then(() => this.write(block, at, length, bytes, hashed));
  }

  private async write(block: Buffer, at: number, length: number, bytes: number, hashed: Promise<void> | undefined): Promise<void> {
    try {
      if (this.failure) return;
      if (this.fallback) return await this.fallback.add(Buffer.from(block.subarray(0, bytes)));
      for (let done = 0; done < length; ) {
        const { bytesWritten } = await this.direct.write(block, done, length - done, at + done);
        if (bytesWritten === 0) throw new Error(`the disk took no bytes at offset ${at + done}`);
        done += bytesWritten;
      }
      this.wroteDirect = true;
      this.hooks.onWritten?.(at + bytes);
    } catch (err) {
      if (!this.wroteDirect && this.fallback === undefined && (err as NodeJS.ErrnoException).code === 'EINVAL') {
        // The filesystem takes the flag but not the writes (alignment it does not support).
        refusedOn.add(fstatSync(this.file.fd).dev);
        this.fallback = new BatchedWriter(this.file, at, this.hooks.onWritten);
        await Promise.resolve(this.fallback.add(Buffer.from(block.subarray(0, bytes)))).catch((fallbackErr: unknown) => this.fail(fallbackErr));
      } else {
        this.fail(err);
      }
    } finally {
      await hashed?.catch((err: unknown) => this.fail(err));
      this.idle.push(block);
      this.blockWaiters.shift()?.();
    }
  }

  private fail(err: unknown): void {
    this.failure ??= err instanceof FileWriteError ? err : new FileWriteError(err);
    // Whoever waits for a block learns of the failure instead of waiting for ever.
    for (const wake of this.blockWaiters.splice(0)) wake();
  }

  private release(): void {
    if (this.released) return;
    this.released = true;
    if (this.current) this.idle.push(this.current);
    this.current = undefined;
    for (const block of this.idle.splice(0)) returnAlignedBlock(block);
  }
}
