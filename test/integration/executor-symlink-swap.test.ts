/**
 * A folder inside the root swapped for a symlink to a folder outside it after the plan was made:
 * before the run, or in the middle of it, once downloads into that folder have succeeded (so the
 * executor has already found it a real folder). Nothing may land outside the root, whatever
 * the depth of the folder swapped and of the files below it. Each run draws a seed and prints
 * it: SWAP_SEED=n replays a run.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Download } from '../../main/sync/actions.js';
import { executePlan } from '../../main/sync/executor/execute-plan.js';
import type { TransferQueue } from '../../main/sync/transfer-queue.js';
import type { RemoteFile } from '../../main/model/views.js';
import { seededRandom } from '../../shared/random.js';
import { symlinkDisk } from '../helpers/disk.js';
import { bytesOf, executorWorld, putAsset, remoteFileOf } from './executor-fixture.js';

const seed = Number(process.env.SWAP_SEED ?? randomInt(2 ** 31));
// Printed before anything runs: a run that hangs still tells its seed.
console.log(`executor-symlink-swap: SWAP_SEED=${seed} replays this run`);

const world = executorWorld();
const ROUNDS = 8;

const download = (remote: RemoteFile, at: string): Download => ({ kind: 'download', path: at, remote: { ...remote, path: at }, replaces: null, reason: 'test' });

/** Every file (not folder) below `dir`, as paths relative to it. */
function filesBelow(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    return entry.isDirectory() ? filesBelow(path.join(dir, entry.name), rel) : [rel];
  });
}

describe(`a folder swapped for a symlink out of the root (SWAP_SEED=${seed})`, () => {
  it.runIf(symlinkDisk)('never lets a download through it, before the run or once the folder was written into', async () => {
    const random = seededRandom(seed);
    const pick = (n: number): number => Math.floor(random() * n);
    for (let round = 0; round < ROUNDS; round++) {
      const h = await world.setUp();
      // A chain of folders A/B/C…, files at every level of it.
      const depth = 1 + pick(3);
      const chain = Array.from({ length: depth }, (_, i) => String.fromCharCode(65 + i));
      const folderAt = (level: number): string => chain.slice(0, level).join('/');
      mkdirSync(path.join(h.root, folderAt(depth)), { recursive: true });
      const count = 4 + pick(8);
      const plan: Download[] = [];
      for (let i = 0; i < count; i++) {
        const asset = await putAsset(h.colleague, h.ws, { name: `f${i}.bin`, bytes: bytesOf(1000 + pick(50_000), `${seed} ${round} ${i}`) });
        const remote = await remoteFileOf(h.client, h.ws, asset.id, `f${i}.bin`);
        plan.push(download(remote, `${folderAt(1 + pick(depth))}/f${i}.bin`));
      }
      // The folder swapped, and when: before the run, once the nth download is done, as the nth
      // transfer starts (before its temp file is made), or once its bytes are in the temp file.
      const swapLevel = 1 + pick(depth);
      const moment = (['before-run', 'done', 'transfer-start', 'transfer-end'] as const)[pick(4)] as string;
      const nth = 1 + pick(count - 1);
      const swapped = folderAt(swapLevel);
      const context = `SWAP_SEED=${seed} round ${round}: ${count} files over ${folderAt(depth)}, "${swapped}" swapped at ${moment} ${nth}`;
      const under = (rel: string): boolean => rel.startsWith(`${swapped}/`);
      let isSwapped = false;
      const swap = (): void => {
        // The real folder stays inside the root, under another name; the symlink takes its
        // place and leads to a copy of the folders below it, outside, where a write would land.
        renameSync(path.join(h.root, swapped), path.join(h.root, 'kept'));
        const mirror = path.join(h.outside, 'mirror');
        mkdirSync(path.join(mirror, ...chain.slice(swapLevel)), { recursive: true });
        symlinkSync(mirror, path.join(h.root, swapped), 'dir');
        isSwapped = true;
      };
      const doneBeforeSwap = new Set<string>();
      let done = 0;
      let started = 0;
      // Seen while transfers run: bytes written outside and removed later leave no trace. (An
      // open racing the swap may create an empty file there for a moment: the check after the
      // create removes it before a byte goes in; no path-based check can prevent the create.)
      const seenOutside: string[] = [];
      const bytesOutside = (): string[] => filesBelow(h.outside).filter((rel) => (statSync(path.join(h.outside, rel), { throwIfNoEntry: false })?.size ?? 0) > 0);
      const queue = Object.create(h.queue) as TransferQueue;
      queue.run = ((job, work) =>
        h.queue.run(job, async (t) => {
          // The nth transfer, or the first after it into the folder swapped.
          started += 1;
          const mine = !isSwapped && started >= nth && under(job.path);
          if (moment === 'transfer-start' && mine) swap();
          try {
            return await work(t);
          } finally {
            seenOutside.push(...bytesOutside());
            if (moment === 'transfer-end' && mine && !isSwapped) swap();
          }
        })) as TransferQueue['run'];
      const deps = h.depsWith({
        queue,
        onActivity: (item) => {
          h.activity.push(item);
          if (item.kind !== 'downloaded' || item.path === null) return;
          done += 1;
          if (!isSwapped) doneBeforeSwap.add(item.path);
          if (moment === 'done' && done === nth) swap();
        },
      });
      if (moment === 'before-run') swap();

      const result = await executePlan(plan, deps);

      expect(seenOutside, `bytes written outside the root (${context})`).toEqual([]);
      expect(filesBelow(h.outside), `left outside the root (${context})`).toEqual([]);
      expect(result.downloaded + result.failed.length, context).toBe(count);
      for (const failure of result.failed) {
        expect(under(failure.path), `${failure.path} failed (${context})`).toBe(true);
        // ENOENT: an open that ran while the folder was renamed away and its symlink not yet made.
        expect(['path_escape', 'ENOENT'], `${failure.path} (${context})`).toContain((failure.error as { code?: string }).code);
      }
      // What was downloaded before the swap is in the real folder, kept inside the root (where it
      // was, when no transfer after the nth wrote into that folder and the swap never came).
      for (const done of doneBeforeSwap) {
        const at = isSwapped && under(done) ? path.join(h.root, 'kept', done.slice(swapped.length + 1)) : path.join(h.root, done);
        expect(statSync(at).isFile(), `${done} (${context})`).toBe(true);
      }
      // Every file below the swapped folder not downloaded before the swap was refused.
      const refused = new Set(result.failed.map((f) => f.path));
      const mustFail = plan.map((a) => a.path).filter((p) => under(p) && !doneBeforeSwap.has(p));
      for (const p of mustFail) {
        if (!refused.has(p)) expect(statSync(path.join(h.root, 'kept', p.slice(swapped.length + 1))).isFile(), `${p} neither refused nor kept inside (${context})`).toBe(true);
      }
    }
  });
});
