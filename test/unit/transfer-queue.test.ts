import { describe, expect, it } from 'vitest';
import type { TransferProgress } from '../../shared/engine.js';
import { SMALL_IN_FLIGHT, SMALL_TRANSFER_BYTES, TransferQueue, type TransferHandle } from '../../main/sync/transfer-queue.js';

/** A promise and the function that settles it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Lets every pending promise callback and timer-free continuation run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const job = (path: string, direction: 'download' | 'upload' = 'download', bytesTotal = 100) => ({ workspaceId: 'ws', path, direction, bytesTotal });
const LARGE = SMALL_TRANSFER_BYTES + 1;

describe('TransferQueue', () => {
  it('never runs more large files than the limit of each direction at once', async () => {
    const queue = new TransferQueue({ maxDownloads: 3, maxUploads: 1 });
    const running = { download: 0, upload: 0 };
    const most = { download: 0, upload: 0 };
    const gates = Array.from({ length: 12 }, () => gate());
    const runs = gates.map((g, i) => {
      const direction = i % 3 === 0 ? 'upload' : 'download';
      return queue.run(job(`f${i}`, direction, LARGE), async () => {
        running[direction]++;
        most[direction] = Math.max(most[direction], running[direction]);
        await g.promise;
        running[direction]--;
        return i;
      });
    });
    await settle();
    expect(running).toEqual({ download: 3, upload: 1 });
    expect(queue.active().filter((t) => t.state === 'queued')).toHaveLength(8);
    for (const g of gates) {
      g.open();
      await settle();
    }
    await expect(Promise.all(runs)).resolves.toEqual(gates.map((_, i) => i));
    expect(most).toEqual({ download: 3, upload: 1 });
    expect(queue.active()).toEqual([]);
  });

  it('runs several small files in a slot, and lets a large file in line wait for no newcomer', async () => {
    const queue = new TransferQueue({ maxDownloads: 2, maxUploads: 1 });
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const start = (path: string, bytes: number) =>
      queue.run(job(path, 'download', bytes), async () => {
        started.push(path);
        const g = gate();
        gates.set(path, g);
        await g.promise;
      });
    const finish = async (path: string) => {
      gates.get(path)?.open();
      await settle();
    };
    const perSlot = SMALL_IN_FLIGHT / 2;
    const small = Array.from({ length: SMALL_IN_FLIGHT + 2 }, (_, i) => start(`s${i}`, SMALL_TRANSFER_BYTES));
    await settle();
    // Two slots share SMALL_IN_FLIGHT small files.
    expect(started).toHaveLength(SMALL_IN_FLIGHT);
    const big = start('big', LARGE);
    const late = start('late', 10);
    await finish('s0');
    // The two small files queued first take the free room; the large one waits for a whole slot.
    expect(started).toEqual([...Array.from({ length: SMALL_IN_FLIGHT }, (_, i) => `s${i}`), `s${SMALL_IN_FLIGHT}`]);
    for (let i = 1; i < perSlot; i++) await finish(`s${i}`);
    await finish(`s${SMALL_IN_FLIGHT}`);
    await finish(`s${SMALL_IN_FLIGHT + 1}`);
    // Room for the large one at last; the small file that came after it did not overtake it,
    // and now waits for room beside it.
    expect(started.slice(-1)).toEqual(['big']);
    expect(started).not.toContain('late');
    for (const path of [...gates.keys()]) await finish(path);
    expect(started.slice(-1)).toEqual(['late']);
    await finish('late');
    await Promise.all([...small, big, late]);
    expect(queue.active()).toEqual([]);
  });

  it('holds queued jobs while paused and makes running ones wait in throttle', async () => {
    const queue = new TransferQueue({ maxDownloads: 1, maxUploads: 1 });
    const first = gate();
    let handle: TransferHandle | undefined;
    const running = queue.run(job('a'), async (t) => {
      handle = t;
      await first.promise;
    });
    await settle();
    queue.pause();
    expect(queue.paused).toBe(true);
    let secondStarted = false;
    const second = queue.run(job('b', 'upload'), async () => {
      secondStarted = true;
    });
    let throttled = false;
    const waiting = handle?.throttle(10)?.then(() => {
      throttled = true;
    });
    for (let i = 0; i < 5; i++) await settle();
    expect(secondStarted).toBe(false);
    expect(throttled).toBe(false);

    queue.resume();
    await waiting;
    expect(throttled).toBe(true);
    await second;
    expect(secondStarted).toBe(true);
    first.open();
    await running;
  });

  it('waits for the shared bandwidth limit only when the bucket runs dry', async () => {
    const queue = new TransferQueue({ maxDownloads: 2, maxUploads: 1, bandwidthLimit: 1000 });
    await queue.run(job('a'), async (t) => {
      await t.throttle(600);
      await t.throttle(390);
    });
    expect(queue.throttleWaits).toBe(0);
    // The bucket holds one second's worth: 10 more bytes than that is a short wait, counted once.
    await queue.run(job('b'), async (t) => {
      await t.throttle(20);
    });
    expect(queue.throttleWaits).toBe(1);

    queue.setBandwidthLimit(undefined);
    await queue.run(job('c'), async (t) => {
      await t.throttle(1_000_000_000);
    });
    expect(queue.throttleWaits).toBe(1);
  });

  it('reports bytes, speed and ETA, at most every 100 ms per transfer', async () => {
    let clock = 0;
    const queue = new TransferQueue({ maxDownloads: 1, maxUploads: 1, now: () => clock });
    const events: TransferProgress[] = [];
    queue.on('progress', (p) => events.push(p));
    await queue.run(job('big', 'download', 10_000), async (t) => {
      clock += 1000;
      t.progress(1000);
      clock += 1000;
      t.progress(2000);
      clock += 10;
      t.progress(2010);
      clock += 10;
      t.progress(2020);
    });
    expect(events.map((e) => e.state)).toEqual(['queued', 'active', 'active', 'active', 'done']);
    const last = events[3];
    expect(last).toMatchObject({ path: 'big', direction: 'download', bytesDone: 2000, bytesTotal: 10_000, speed: 1000, etaSeconds: 8 });
    expect(events[4]).toMatchObject({ state: 'done', bytesDone: 2020 });
  });

  it('drops a queued job whose signal aborts, without taking its slot', async () => {
    const queue = new TransferQueue({ maxDownloads: 1, maxUploads: 1 });
    const first = gate();
    const running = queue.run(job('a', 'download', LARGE), () => first.promise);
    const controller = new AbortController();
    let ran = false;
    const queued = queue.run({ ...job('b', 'download', LARGE), signal: controller.signal }, async () => {
      ran = true;
    });
    controller.abort(new Error('stop'));
    await expect(queued).rejects.toThrow('stop');
    first.open();
    await running;
    await queue.run(job('c'), async () => undefined);
    expect(ran).toBe(false);
    expect(queue.active()).toEqual([]);
  });

  it('takes new limits while running: more start at once when raised, and one waiting from before is never starved', async () => {
    const queue = new TransferQueue({ maxDownloads: 1, maxUploads: 1 });
    let running = 0;
    const gates = Array.from({ length: 4 }, () => gate());
    const runs = gates.map((g, i) =>
      queue.run(job(`big${i}`, 'download', LARGE), async () => {
        running++;
        await g.promise;
        running--;
      }),
    );
    await settle();
    expect(running).toBe(1);
    queue.setTransferLimits({ maxDownloads: 3, maxUploads: 1 });
    await settle();
    expect(running).toBe(3);
    // Lowered: the three running keep going; the last one waits for room under the new limit.
    queue.setTransferLimits({ maxDownloads: 2, maxUploads: 1 });
    gates[0]?.open();
    await settle();
    expect(running).toBe(2);
    gates[1]?.open();
    await settle();
    expect(running).toBe(2);
    for (const g of gates) g.open();
    await Promise.all(runs);
    expect(queue.active()).toEqual([]);
    expect(() => queue.setTransferLimits({ maxDownloads: 0, maxUploads: 1 })).toThrow(RangeError);
  });
});
