import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { eachChunk } from '../../main/sync/executor/each-chunk.js';

const chunks = (n: number): Buffer[] => Array.from({ length: n }, (_, i) => Buffer.alloc(1000 + i, i));

describe('eachChunk', () => {
  it('hands over every chunk in order, as delivered, not concatenated', async () => {
    const sent = chunks(50);
    const seen: Buffer[] = [];
    await eachChunk(Readable.from(sent, { objectMode: false }), (chunk) => {
      seen.push(chunk);
      return undefined;
    });
    expect(seen.map((c) => c.length)).toEqual(sent.map((c) => c.length));
    expect(Buffer.concat(seen).equals(Buffer.concat(sent))).toBe(true);
  });

  it('hands over no chunk while the previous answer is pending, and waits for the last one', async () => {
    const body = new PassThrough();
    const order: string[] = [];
    let pending = 0;
    const done = eachChunk(body, (chunk) => {
      expect(pending).toBe(0);
      order.push(`got ${chunk.length}`);
      if (chunk.length % 2 === 1) return undefined;
      pending += 1;
      return new Promise<void>((resolve) =>
        setTimeout(() => {
          pending -= 1;
          order.push(`done ${chunk.length}`);
          resolve();
        }, 5),
      );
    });
    for (const chunk of chunks(6)) body.write(chunk);
    body.end();
    await done;
    expect(order).toEqual(['got 1000', 'done 1000', 'got 1001', 'got 1002', 'done 1002', 'got 1003', 'got 1004', 'done 1004', 'got 1005']);
  });

  it('rejects with the first failure, of the consumer or of the body, and hands over nothing after it', async () => {
    const seen: number[] = [];
    await expect(
      eachChunk(Readable.from(chunks(10), { objectMode: false }), (chunk) => {
        seen.push(chunk.length);
        if (chunk.length === 1003) throw new Error('disk full');
        return undefined;
      }),
    ).rejects.toThrow('disk full');
    expect(seen).toEqual([1000, 1001, 1002, 1003]);

    const body = new PassThrough();
    const failing = eachChunk(body, () => Promise.reject(new Error('write failed')));
    body.write(Buffer.alloc(10));
    await expect(failing).rejects.toThrow('write failed');

    const broken = new PassThrough();
    const reading = eachChunk(broken, () => undefined);
    broken.destroy(new Error('socket hang up'));
    await expect(reading).rejects.toThrow('socket hang up');

    const aborted = new PassThrough();
    const cut = eachChunk(aborted, () => undefined);
    aborted.destroy();
    await expect(cut).rejects.toThrow('closed before it ended');
  });

  // A caller may await something else between receiving a body and handing it over (a resume
  // whose Range was ignored empties its temp file first): the body may break meanwhile, and its
  // 'error' and 'close' are then gone by.
  it('rejects a body that broke or was closed before it was handed over, rather than waiting for events gone by', async () => {
    const broken = new PassThrough();
    broken.write(Buffer.alloc(10));
    broken.on('error', () => undefined);
    broken.destroy(new Error('socket hang up'));
    await new Promise((resolve) => broken.once('close', resolve));
    const seen: number[] = [];
    await expect(eachChunk(broken, (chunk) => void seen.push(chunk.length))).rejects.toThrow('socket hang up');

    const closed = new PassThrough();
    closed.destroy();
    await new Promise((resolve) => closed.once('close', resolve));
    await expect(eachChunk(closed, (chunk) => void seen.push(chunk.length))).rejects.toThrow('closed before it ended');
    expect(seen).toEqual([]);
  });
});
