/** The scanner's worker threads: hashing in batches, and what they refuse to read. */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { appendFile, lstat, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entryTimes, entryTimesAre, FsWorkerPool, type HashAnswer, StatResult } from '../../main/local/fs-workers.js';
import { HashQueue } from '../../main/local/hash-workers.js';
import { returnAlignedBlock, takeAlignedBlock } from '../../main/local/aligned-blocks.js';

const sha256 = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');

let dir: string;
let pool: FsWorkerPool;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hash-workers-'));
  pool = new FsWorkerPool(2);
});

afterEach(async () => {
  await pool.close();
  await rm(dir, { recursive: true, force: true });
});

async function hashAll(paths: string[], signal?: AbortSignal): Promise<Map<string, HashAnswer>> {
  const answers = new Map<string, HashAnswer>();
  const queue = new HashQueue<{ absPath: string; sizeHint: number }>((item, answer) => answers.set(item.absPath, answer), signal, pool);
  for (const absPath of paths) queue.add({ absPath, sizeHint: 0 });
  await queue.finish();
  return answers;
}

describe('hashing on worker threads', () => {
  it('answers every file of many batches with its checksum and size', async () => {
    const files = new Map<string, Buffer>();
    for (let i = 0; i < 300; i++) files.set(path.join(dir, `f${i}.bin`), randomBytes(i * 37));
    files.set(path.join(dir, 'big.bin'), randomBytes(2 * 1024 * 1024 + 5));
    for (const [p, data] of files) await writeFile(p, data);
    const answers = await hashAll([...files.keys()]);
    expect(answers.size).toBe(files.size);
    for (const [p, data] of files) expect(answers.get(p)).toEqual({ checksum: sha256(data), size: data.length });
  });

  it('reports a missing file and does not follow a symlink', async () => {
    await writeFile(path.join(dir, 'target.txt'), 'secret');
    await symlink(path.join(dir, 'target.txt'), path.join(dir, 'link.txt'));
    const answers = await hashAll([path.join(dir, 'missing.txt'), path.join(dir, 'link.txt')]);
    expect(answers.get(path.join(dir, 'missing.txt'))).toMatchObject({ error: { code: 'ENOENT' } });
    expect(answers.get(path.join(dir, 'link.txt'))).toMatchObject({ error: { code: 'ELOOP' } });
  });

  it.runIf(process.platform !== 'win32')('does not hang on a FIFO that took a file\'s place', async () => {
    const fifo = path.join(dir, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const answers = await hashAll([fifo]);
    expect(answers.has(fifo)).toBe(true);
  });

  it('stops when aborted, and the pool still works afterwards', async () => {
    await mkdir(path.join(dir, 'many'));
    const paths: string[] = [];
    for (let i = 0; i < 500; i++) {
      paths.push(path.join(dir, 'many', `f${i}`));
      await writeFile(paths[i] as string, `file ${i}`);
    }
    const controller = new AbortController();
    const queue = new HashQueue<{ absPath: string; sizeHint: number }>(() => controller.abort(), controller.signal, pool);
    for (const absPath of paths) queue.add({ absPath, sizeHint: 0 });
    await expect(queue.finish()).rejects.toThrow(/abort/i);
    await expect(hashAll(paths.slice(0, 3))).resolves.toHaveProperty('size', 3);
  });

  it('lists a folder: names, types, and the stamp of each file', async () => {
    await writeFile(path.join(dir, 'a.txt'), 'alpha');
    await mkdir(path.join(dir, 'Sub'));
    await symlink(path.join(dir, 'a.txt'), path.join(dir, 'link'));
    const [answer] = await pool.list([dir + path.sep]);
    if (!answer || 'error' in answer) throw new Error('the listing failed');
    const { listing } = answer;
    const names = listing.names.split('/');
    expect([...names].sort()).toEqual(['Sub', 'a.txt', 'link']);
    const file = names.indexOf('a.txt');
    expect(listing.sizes[file]).toBe(5);
    expect(listing.inodes[file]).toBeGreaterThan(0);
    expect(listing.stats[file]).toBe(StatResult.File);
    expect(entryTimes(listing, file)).toEqual({ mtimeNs: expect.stringMatching(/^\d{19}$/), ctimeNs: expect.stringMatching(/^\d{19}$/) });
    expect(listing.stats[names.indexOf('link')]).toBe(StatResult.None);
    const [missing] = await pool.list([path.join(dir, 'nope') + path.sep]);
    expect(missing).toMatchObject({ error: { code: 'ENOENT' } });
  });

  it('gives the exact times of a file dated beyond what 64 bits of nanoseconds hold', async () => {
    const far = path.join(dir, 'far.txt');
    await writeFile(far, 'x');
    // 2300-01-01 and half a second: 10^19 ns and more, past 2^63.
    await utimes(far, 10_413_792_000, 10_413_792_000.5);
    const { mtimeNs, ctimeNs } = await lstat(far, { bigint: true });
    const [answer] = await pool.list([dir + path.sep]);
    if (!answer || 'error' in answer) throw new Error('the listing failed');
    const file = answer.listing.names.split('/').indexOf('far.txt');
    expect(entryTimes(answer.listing, file)).toEqual({ mtimeNs: String(mtimeNs), ctimeNs: String(ctimeNs) });
    expect(entryTimesAre(answer.listing, file, String(mtimeNs), String(ctimeNs))).toBe(true);
  });
});

describe('hashing a file behind its writer', () => {
  it('hashes the bytes written so far as it is told, several files at once on two workers', async () => {
    const parts = [randomBytes(3 * 1024 * 1024 + 11), randomBytes(5), randomBytes(1024 * 1024)];
    const files = ['a', 'b', 'c'].map((n) => path.join(dir, `${n}.part`));
    for (const f of files) await writeFile(f, '');
    const jobs = files.map((f) => pool.hashBehind(f));
    let end = 0;
    for (const part of parts) {
      for (const f of files) await appendFile(f, part);
      end += part.length;
      for (const job of jobs) job.to(end);
    }
    const all = Buffer.concat(parts);
    for (const job of jobs) expect(await job.end()).toEqual({ checksum: sha256(all), size: all.length });
  });

  it('hashes a prefix from the file and the rest from shared memory, where a direct write leaves it', async () => {
    const file = path.join(dir, 'direct.part');
    const prefix = Buffer.alloc(5000, 1);
    await writeFile(file, prefix);
    const job = pool.hashBehind(file);
    job.to(prefix.length);
    const block = takeAlignedBlock();
    const parts = [Buffer.alloc(300_000, 2), Buffer.alloc(12_345, 3)];
    for (const part of parts) {
      part.copy(block);
      // The block is reused only once its hash is done, as the direct writer does.
      await job.block(block.subarray(0, part.length));
    }
    returnAlignedBlock(block);
    const all = Buffer.concat([prefix, ...parts]);
    expect(await job.end()).toEqual({ checksum: sha256(all), size: all.length });
    const unshared = pool.hashBehind(file);
    await expect(unshared.block(Buffer.alloc(10))).rejects.toThrow('shared memory');
    await unshared.end();
  });

  it('reports a file shorter than it was said to be, and one it may not open', async () => {
    const short = path.join(dir, 'short.part');
    await writeFile(short, 'abc');
    const job = pool.hashBehind(short);
    job.to(10);
    expect(await job.end()).toMatchObject({ error: { code: 'ESHORT' } });

    await symlink(short, path.join(dir, 'link.part'));
    const viaLink = pool.hashBehind(path.join(dir, 'link.part'));
    viaLink.to(3);
    expect(await viaLink.end()).toMatchObject({ error: { code: 'ELOOP' } });
  });
});
