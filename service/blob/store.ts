import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, type ReadStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';

const KEY = /^[A-Za-z0-9_-]{1,100}$/;
const CHUNK = 1024 * 1024;

/** Bytes by key in a folder. Keys are ours (never a client's file name), so they are safe paths. */
export class BlobStore {
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

  /** Streams `source` to a temp file, hashing on the way; the caller keeps the bytes under a key once it has seen the checksum. */
  async stage(source: Readable): Promise<{ size: number; checksum: string; keep(key: string): Promise<void>; discard(): Promise<void> }> {
    const tmp = join(this.dir, 'tmp', randomUUID());
    const hash = createHash('sha256');
    let size = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(source, tap, createWriteStream(tmp, { highWaterMark: CHUNK }));
    } catch (error) {
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

  async size(key: string): Promise<number | undefined> {
    try {
      return (await stat(this.path(key))).size;
    } catch {
      return undefined;
    }
  }

  read(key: string, range?: { start: number; end: number }): ReadStream {
    return createReadStream(this.path(key), { highWaterMark: CHUNK, ...range });
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}
