/**
 * A cycle after a quiet one (main/engine/quiet-cycle.ts) on a folder that did not change asks
 * the hash cache nothing and reads no file: with the cache unchanged since (the index's write
 * mark), the same paths and stamps give the same checksums, so listing and stat'ing the folder
 * is enough to tell. Whatever changed must still be synced by that next cycle, even a change
 * that leaves the size and the mtime as they were; and a file whose checksum the cache could
 * not keep (modified just before the scan) must still be read again. SEED=n replays a run.
 */
import { mkdir, rename, rm, stat, symlink, utimes } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openIndex } from '../../main/index/sync-index.js';
import { watchCacheAndReads } from '../helpers/cache-watch.js';
import { bytesFor, localChecksums, localFolders, remoteChecksums, remoteFolders, worlds, type Device, type World } from '../helpers/engine.js';
import { Rng, testSeed } from '../helpers/rng.js';

const world = worlds();
const seed = testSeed('engine-noop-scan');

afterEach(() => vi.restoreAllMocks());

const HOUR_MS = 3_600_000;

/** Every file's mtime set an hour or more back: old enough for the cache to keep its checksum, and for no quiet period. */
async function ageFiles(laptop: Device, round: number): Promise<void> {
  const past = new Date(Date.now() - HOUR_MS - round * 1000);
  for (const [rel] of await localChecksums(laptop.dir)) await utimes(laptop.path(rel), past, past);
}

async function filePaths(laptop: Device): Promise<string[]> {
  return (await localChecksums(laptop.dir)).map(([rel]) => rel);
}

interface Context {
  rng: Rng;
  laptop: Device;
  w: World;
  round: number;
}

/** A change, and what must hold after the one cycle that follows it. */
interface Change {
  make(c: Context): Promise<void>;
  check(c: Context, report: Awaited<ReturnType<Device['sync']>>): Promise<void>;
}

const bothSidesAgree = async ({ laptop, w, round }: Context, kind: string): Promise<void> => {
  const context = { seed, round, kind };
  expect({ ...context, files: await localChecksums(laptop.dir) }).toEqual({ ...context, files: await remoteChecksums(w.user.client, w.workspaceId) });
  expect({ ...context, folders: await localFolders(laptop.dir) }).toEqual({ ...context, folders: await remoteFolders(w.user) });
};

const problemAt = (report: Awaited<ReturnType<Device['sync']>>, path: string): boolean => report.workspaces.some((ws) => ws.problems.some((p) => p.path === path));

const CHANGES: Record<string, Change> = {
  // Only the ctime tells this one: same size, same mtime, same inode.
  'new content of the same size, the mtime put back': {
    async make({ rng, laptop }) {
      const rel = rng.pick(await filePaths(laptop));
      const size = (await laptop.read(rel)).length;
      const { mtime } = await stat(laptop.path(rel));
      await laptop.write(rel, bytesFor(`same size ${rng.next()}`, size));
      await utimes(laptop.path(rel), mtime, mtime);
    },
    check: (c) => bothSidesAgree(c, 'same size, mtime put back'),
  },
  'new content of the same size, a new mtime': {
    async make({ rng, laptop }) {
      const rel = rng.pick(await filePaths(laptop));
      const size = (await laptop.read(rel)).length;
      await laptop.write(rel, bytesFor(`edit ${rng.next()}`, size));
      const past = new Date(Date.now() - 2 * HOUR_MS);
      await utimes(laptop.path(rel), past, past);
    },
    check: (c) => bothSidesAgree(c, 'same size, new mtime'),
  },
  'a touch': {
    async make({ rng, laptop }) {
      const rel = rng.pick(await filePaths(laptop));
      const past = new Date(Date.now() - 3 * HOUR_MS);
      await utimes(laptop.path(rel), past, past);
    },
    check: (c) => bothSidesAgree(c, 'touch'),
  },
  'a rename': {
    async make({ rng, laptop, round }) {
      const from = rng.pick(await filePaths(laptop));
      await rename(laptop.path(from), laptop.path(`${from}.renamed-${round}`));
    },
    check: (c) => bothSidesAgree(c, 'rename'),
  },
  // Only the path tells this one: the key stays.
  'a change of letter case': {
    async make({ rng, laptop }) {
      const from = rng.pick(await filePaths(laptop));
      const to = from.replace(/[^/]*$/, (name) => (name === name.toUpperCase() ? name.toLowerCase() : name.toUpperCase()));
      await rename(laptop.path(from), laptop.path(to));
    },
    check: (c) => bothSidesAgree(c, 'change of case'),
  },
  // The files below keep their stamps (a rename changes the folder's ctime, not theirs): only
  // their keys and the folder tell this one.
  'a folder renamed': {
    async make({ rng, laptop, round }) {
      const inFolders = (await filePaths(laptop)).filter((rel) => rel.includes('/'));
      const folder = (rng.pick(inFolders).split('/')[0] as string);
      await rename(laptop.path(folder), laptop.path(`${folder}-moved-${round}`));
    },
    check: (c) => bothSidesAgree(c, 'folder renamed'),
  },
  'a new file': {
    async make({ rng, laptop, round }) {
      const rel = `Noop/new-${round}.bin`;
      await laptop.write(rel, bytesFor(`new ${rng.next()}`, rng.int(0, 5000)));
      const past = new Date(Date.now() - HOUR_MS);
      await utimes(laptop.path(rel), past, past);
    },
    check: (c) => bothSidesAgree(c, 'new file'),
  },
  'a deleted file': {
    async make({ rng, laptop }) {
      await rm(laptop.path(rng.pick(await filePaths(laptop))));
    },
    check: (c) => bothSidesAgree(c, 'deleted file'),
  },
  'a new empty folder': {
    async make({ laptop, round }) {
      await mkdir(laptop.path(`Empty-${round}`));
    },
    check: (c) => bothSidesAgree(c, 'new empty folder'),
  },
  // Only the skipped entries tell this one: no file or folder changed.
  'a symlink appears': {
    async make({ laptop, round }) {
      await symlink('/nowhere', laptop.path(`link-${round}`));
    },
    async check({ round }, report) {
      expect({ seed, round, told: problemAt(report, `link-${round}`) }).toEqual({ seed, round, told: true });
    },
  },
  'a file turned into a symlink': {
    async make({ rng, laptop, round }) {
      const rel = rng.pick(await filePaths(laptop));
      await rm(laptop.path(rel));
      await symlink('/nowhere', laptop.path(rel));
      turned.set(round, rel);
    },
    async check({ round }, report) {
      const rel = turned.get(round) as string;
      expect({ seed, round, told: problemAt(report, rel) }).toEqual({ seed, round, told: true });
    },
  },
  // Only the index tells this one: another process forgets a file's synced state.
  'a synced state forgotten from another connection': {
    async make({ rng, laptop, w, round }) {
      const rel = rng.pick(await filePaths(laptop));
      forgotten.set(round, rel);
      const other = openIndex(laptop.indexFile);
      try {
        other.base.deleteFile(w.workspaceId, rel);
      } finally {
        other.close();
      }
    },
    async check(c) {
      const { laptop, w, round } = c;
      const rel = forgotten.get(round) as string;
      expect({ seed, round, rel, synced: laptop.index.base.getFile(w.workspaceId, rel) !== undefined }).toEqual({ seed, round, rel, synced: true });
      await bothSidesAgree(c, 'forgotten state');
    },
  },
};
const turned = new Map<number, string>();
const forgotten = new Map<number, string>();

/** Ages the files and lets the engine settle into quiet cycles whose checksums the cache vouches for. */
async function quietDown(laptop: Device, round: number): Promise<void> {
  await laptop.converge();
  await ageFiles(laptop, round);
  await laptop.sync();
  await laptop.sync();
}

describe('a cycle after a quiet one', () => {
  it('asks the hash cache nothing and reads no file when the folder did not change, and still syncs each kind of change', async () => {
    const rng = new Rng(seed, 'noop-scan');
    const w = await world({ demo: { assets: 6 } });
    const laptop = await w.device('laptop');
    const kinds = Object.keys(CHANGES);
    const order = [...kinds, ...Array.from({ length: 4 }, () => rng.pick(kinds))];
    for (const [round, kind] of order.entries()) {
      await quietDown(laptop, round);
      const seen = watchCacheAndReads();
      await laptop.sync({ maxRounds: 1 });
      expect({ seed, round, asked: seen.asked, read: seen.read }).toEqual({ seed, round, asked: [], read: [] });
      vi.restoreAllMocks();

      const c = { rng: rng.fork(`${round}`), laptop, w, round };
      await (CHANGES[kind] as Change).make(c);
      const report = await laptop.sync({ maxRounds: 1 });
      await (CHANGES[kind] as Change).check(c, report);
      // A symlink is no file to sync: the next rounds start without it.
      for (const [, rel] of turned) await rm(laptop.path(rel), { force: true });
      await rm(laptop.path(`link-${round}`), { force: true });
    }
  });

  it('reads again a file modified just before the quiet cycle: the cache could not keep its checksum', async () => {
    const rng = new Rng(seed, 'fresh');
    const w = await world({ demo: { assets: 4 } });
    const laptop = await w.device('laptop');
    await quietDown(laptop, 0);
    const rel = rng.pick(await filePaths(laptop));
    // Within the scanner's racy window (2 s) but past the quiet period (100 ms here): the file
    // is read and synced, and its checksum is not cached. A slow machine may let the window
    // pass before the cycle scans: then the round is tried again.
    for (let attempt = 0; ; attempt++) {
      const fresh = new Date(Date.now() - 300);
      await utimes(laptop.path(rel), fresh, fresh);
      // The first cycle records the new stamp; the second plans nothing and leaves the memo
      // the next cycle starts from.
      await laptop.sync();
      await laptop.sync();
      const { mtimeNs } = await stat(laptop.path(rel), { bigint: true });
      // Read on the engine's own connection: that writes nothing, so the index's mark stays.
      const cached = laptop.index.hashCache(w.workspaceId).get(rel.normalize('NFC').toLowerCase());
      if (cached?.mtimeNs !== `${mtimeNs}`) break;
      if (attempt === 4) throw new Error('the machine is too slow for this test: the fresh file was cached each time');
    }
    const seen = watchCacheAndReads();
    await laptop.sync({ maxRounds: 1 });
    expect({ seed, rel, read: seen.read.some((p) => p.endsWith(`/${rel}`)) }).toEqual({ seed, rel, read: true });
  });
});
