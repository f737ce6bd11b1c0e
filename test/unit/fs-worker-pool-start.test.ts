/** When the file-system worker pool starts its workers: one at first, more only while work queues. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsWorkerPool } from '../../main/local/fs-workers.js';

let dir: string;
let pool: FsWorkerPool;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fs-worker-pool-'));
  await writeFile(path.join(dir, 'a.bin'), 'a');
  pool = new FsWorkerPool(3);
});

afterEach(async () => {
  await pool.close();
  await rm(dir, { recursive: true, force: true });
});

const prefix = (): string => `${dir}${path.sep}`;

describe('the file-system worker pool', () => {
  it('warms one worker, not one per core', () => {
    pool.warm();
    expect(pool.running).toBe(1);
    pool.warm();
    expect(pool.running).toBe(1);
  });

  it('answers requests sent one after another on a single worker', async () => {
    for (let i = 0; i < 20; i++) {
      const [answer] = await pool.list([prefix()]);
      expect(answer && 'listing' in answer ? answer.listing.names : answer).toBe('a.bin');
    }
    expect(pool.running).toBe(1);
  });

  it('starts more workers, up to its size, while work keeps queuing on the ones it has', async () => {
    let sent = 0;
    // Four requests in flight at every moment: the first worker never runs out of work.
    const lane = async (): Promise<void> => {
      while (pool.running < pool.size && sent < 100_000) {
        sent += 1;
        await pool.list([prefix()]);
      }
    };
    await Promise.all([lane(), lane(), lane(), lane()]);
    expect(pool.running).toBe(pool.size);
  });

  it('gives a download hashed while another is a worker of its own at once', async () => {
    const first = pool.hashBehind(path.join(dir, 'a.bin'));
    const second = pool.hashBehind(path.join(dir, 'a.bin'));
    expect(pool.running).toBe(2);
    first.to(1);
    second.to(1);
    const answers = await Promise.all([first.end(), second.end()]);
    expect(answers.map((a) => ('checksum' in a ? a.size : a))).toEqual([1, 1]);
  });
});
