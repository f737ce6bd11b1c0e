/**
 * SHA-256 of a download computed on a worker thread that reads back, from the page cache, what
 * the writer has already written. Hashing each received chunk on the main thread took about
 * 3 s per 2 GiB, serial with receiving: the socket waited while the hash ran. A worker uses the
 * second core instead, and it hashes the bytes as they are in the file, which is what the
 * checksum is meant to vouch for.
 *
 * A worker follows one file at a time and waits on shared memory for the writer's progress, so
 * a 2 MiB batch written costs the main thread one atomic store, not a message. Idle workers are
 * kept a little while for the next large download.
 */
import { Worker } from 'node:worker_threads';

/** Files smaller than this are hashed inline: a worker's round trips cost more than the hash. */
export const FOLLOW_MIN_BYTES = 16 * 1024 * 1024;
/** More than the download slots would only queue behind the disk. */
const MAX_WORKERS = 4;
const IDLE_MS = 30_000;

const State = { Running: 0, AllWritten: 1, Cancelled: 2 } as const;

/**
 * CommonJS run with `eval`, like the scanner's workers (fs-workers.ts), so it runs the same
 * under tsx, Vitest and inside the packaged app. O_NOFOLLOW and the inode check make sure the
 * worker reads the temp file the download opened, not whatever may have been put at its path.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { closeSync, constants, fstatSync, openSync, readSync } = require('node:fs');
const { createHash } = require('node:crypto');
const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW || 0) | (constants.O_NONBLOCK || 0);
const buffer = Buffer.allocUnsafe(4 * 1024 * 1024);

function follow(path, inode, written, control) {
  let fd;
  try {
    fd = openSync(path, FLAGS);
    if (fstatSync(fd).ino !== inode) return { error: { code: 'EREPLACED', message: 'the temp file was replaced while it downloaded' } };
    const hash = createHash('sha256');
    let position = 0;
    for (;;) {
      const seen = Atomics.load(control, 0);
      const state = Atomics.load(control, 1);
      if (state === ${State.Cancelled}) return { cancelled: true };
      const limit = Number(Atomics.load(written, 0));
      if (position < limit) {
        const n = readSync(fd, buffer, 0, Math.min(buffer.length, limit - position), position);
        if (n === 0) return { error: { code: 'ESHORT', message: 'the temp file ends at byte ' + position + ' of the ' + limit + ' written' } };
        hash.update(buffer.subarray(0, n));
        position += n;
        continue;
      }
      if (state === ${State.AllWritten}) return { checksum: hash.digest('hex'), size: position };
      Atomics.wait(control, 0, seen, 1000);
    }
  } catch (err) {
    return { error: { code: err && typeof err.code === 'string' ? err.code : undefined, message: String(err && err.message) } };
  } finally {
    if (fd !== undefined) try { closeSync(fd); } catch {}
  }
}

parentPort.on('message', (m) => parentPort.postMessage(follow(m.path, m.inode, new BigInt64Array(m.shared, 0, 1), new Int32Array(m.shared, 8, 2))));
`;

type Answer = { checksum: string; size: number } | { cancelled: true } | { error: { code?: string; message: string } };

/** The checksum of a file as it is being written; see `followHash`. */
export interface FollowedHash {
  /** The file holds its bytes up to `position` (the writer's writes up to there completed). */
  written(position: number): void;
  /** After the last write: the SHA-256 of the file's first `size` bytes. */
  digest(size: number): Promise<string>;
  /** Stops the worker (the download failed or starts over); safe to call more than once. */
  cancel(): void;
}

const idle: Worker[] = [];
let busy = 0;
let idleTimer: NodeJS.Timeout | undefined;

/**
 * Starts hashing the file at `absPath` (the temp file the caller has open, `inode` from its
 * fstat) from byte 0 as `written` reports progress; undefined when every worker is busy (the
 * caller hashes inline then).
 */
export function followHash(absPath: string, inode: number): FollowedHash | undefined {
  if (busy >= MAX_WORKERS) return undefined;
  const worker = idle.pop() ?? new Worker(WORKER_SOURCE, { eval: true });
  busy++;
  clearTimeout(idleTimer);
  worker.ref();
  const shared = new SharedArrayBuffer(16);
  const writtenUpTo = new BigInt64Array(shared, 0, 1);
  const control = new Int32Array(shared, 8, 2);
  const wake = (): void => {
    Atomics.add(control, 0, 1);
    Atomics.notify(control, 0);
  };

  const answer = new Promise<Answer>((resolve) => {
    const onMessage = (a: Answer): void => finish(a, true);
    const onError = (err: Error): void => finish({ error: { message: err.message } }, false);
    const onExit = (code: number): void => finish({ error: { message: `the hashing worker exited (code ${code})` } }, false);
    const finish = (a: Answer, reusable: boolean): void => {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      release(worker, reusable);
      resolve(a);
    };
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
  worker.postMessage({ path: absPath, inode, shared });

  let cancelled = false;
  return {
    written(position) {
      Atomics.store(writtenUpTo, 0, BigInt(position));
      wake();
    },
    async digest(size) {
      Atomics.store(writtenUpTo, 0, BigInt(size));
      Atomics.store(control, 1, State.AllWritten);
      wake();
      const a = await answer;
      if ('checksum' in a) {
        if (a.size !== size) throw new Error(`the temp file holds ${a.size} bytes, not the ${size} written`);
        return a.checksum;
      }
      if ('error' in a) throw Object.assign(new Error(`hashing the download failed: ${a.error.message}`), { code: a.error.code });
      throw new Error('hashing the download was cancelled');
    },
    cancel() {
      if (cancelled) return;
      cancelled = true;
      Atomics.store(control, 1, State.Cancelled);
      wake();
    },
  };
}

function release(worker: Worker, reusable: boolean): void {
  busy--;
  worker.unref();
  if (reusable) idle.push(worker);
  else void worker.terminate();
  clearTimeout(idleTimer);
  if (busy === 0) {
    idleTimer = setTimeout(() => {
      for (const w of idle.splice(0)) void w.terminate();
    }, IDLE_MS).unref();
  }
}
