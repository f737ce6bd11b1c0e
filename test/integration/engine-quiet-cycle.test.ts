/**
 * A cycle that planned nothing lets the next one skip its planning when nothing it plans from
 * changed (main/engine/quiet-cycle.ts). Whatever changes after such a cycle, on either side,
 * must still be synced by the next one: each round makes quiet cycles, then one random change,
 * and checks both sides agree afterwards. SEED=n replays the random choices of a failed run.
 */
import { mkdir, rename, rm, rmdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { bytesFor, localChecksums, localFolders, remoteChecksums, remoteFolders, worlds, type Device, type World } from '../helpers/engine.js';
import { Rng, testSeed } from '../helpers/rng.js';

const world = worlds();
const seed = testSeed('engine-quiet-cycle');

type Change = (rng: Rng, laptop: Device, w: World, round: number) => Promise<void>;

const CHANGES: Record<string, Change> = {
  'edit a file here': async (rng, laptop) => {
    const files = [...(await localChecksums(laptop.dir))].map(([path]) => path);
    await laptop.write(files[rng.int(0, files.length - 1)] as string, bytesFor(`edit ${rng.next()}`, rng.int(1, 5000)));
  },
  'add a file here': async (rng, laptop, _w, round) => laptop.write(`Quiet/new-${round}.txt`, bytesFor(`new ${rng.next()}`, rng.int(1, 5000))),
  'delete a file here': async (rng, laptop) => {
    const files = [...(await localChecksums(laptop.dir))].map(([path]) => path);
    await rm(laptop.path(files[rng.int(0, files.length - 1)] as string));
  },
  'rename a file here': async (rng, laptop, _w, round) => {
    const files = [...(await localChecksums(laptop.dir))].map(([path]) => path);
    const from = files[rng.int(0, files.length - 1)] as string;
    await rename(laptop.path(from), laptop.path(`${from}.renamed-${round}`));
  },
  'add an empty folder here': async (_rng, laptop, _w, round) => void (await mkdir(laptop.path(`Empty-${round}`), { recursive: true })),
  'swap an empty folder for another here': async (_rng, laptop, _w, round) => {
    await mkdir(laptop.path(`Swap-${round}`), { recursive: true });
    await laptop.sync();
    await laptop.sync();
    await rmdir(laptop.path(`Swap-${round}`));
    await mkdir(laptop.path(`Swapped-${round}`));
  },
  'a colleague adds a file': async (rng, _laptop, w, round) => void (await w.colleague.createFile(`Colleague/file-${round}.txt`, bytesFor(`colleague ${rng.next()}`, rng.int(1, 5000)))),
};

describe('after a cycle that planned nothing', () => {
  it('the next cycle still syncs whatever changed on either side', async () => {
    const rng = new Rng(seed, 'quiet');
    const w = await world({ demo: { assets: 6 } });
    const laptop = await w.device('laptop');
    await laptop.converge();
    const kinds = Object.keys(CHANGES);
    for (let round = 0; round < 10; round += 1) {
      // Two quiet cycles: the first leaves what it saw, the second plans from it.
      await laptop.sync();
      await laptop.sync();
      const kind = round < kinds.length ? (kinds[round] as string) : (kinds[rng.int(0, kinds.length - 1)] as string);
      await (CHANGES[kind] as Change)(rng, laptop, w, round);
      await laptop.converge();
      const context = { seed, round, kind };
      expect({ ...context, files: await localChecksums(laptop.dir) }).toEqual({ ...context, files: await remoteChecksums(w.user.client, w.workspaceId) });
      expect({ ...context, folders: await localFolders(laptop.dir) }).toEqual({ ...context, folders: await remoteFolders(w.user) });
    }
  });
});
