/**
 * A conflicted copy is the client's own file, never a rename by the user, and its name clashing
 * on the service never touches the original asset. Two races of a busy workspace, made on purpose
 * with the service's route faults:
 * - the local edit's commit meets a colleague's version that just landed (409 version_conflict),
 *   so the edit is kept as "name (conflicted copy …).ext", and the copy's create meets an asset
 *   of exactly that name that just appeared (409 name_conflict): the copy takes the next free
 *   conflicted-copy name;
 * - the copy's create is refused once (an injected 409 without details), so the conflict stops
 *   after the copy was made: the next cycle uploads it as a new file.
 * In both, the original asset keeps its name, its id and the colleague's version as its current
 * one, every file survives, and no name nests a conflicted copy in another.
 *
 * Which file and which bytes vary with CLASH_SEED (printed; set it to replay a run).
 */
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AssetVersion } from '../../shared/api/index.js';
import { bytesFor, faults, injector, localChecksums, remoteChecksums, sha256, worlds, type Device, type RemoteEntry, type World } from '../helpers/engine.js';
import { Rng } from '../helpers/rng.js';

const world = worlds();

const seed = Number(process.env.CLASH_SEED ?? Date.now() % 1_000_000);
console.log(`engine-conflict-copy-clash: CLASH_SEED=${seed}`);
const rng = new Rng(seed);

const FILES = ['README.txt', 'Docs/asset-naming.md', 'Campaigns/Spring/brief.md', 'Brand/Logos/logo-primary.svg'];

/** The conflicted copies of `path` on the laptop's disk, as paths in the workspace. */
async function copiesOnDisk(device: Device, path: string): Promise<string[]> {
  const folder = dirname(path) === '.' ? '' : dirname(path);
  const stem = path.slice(folder.length === 0 ? 0 : folder.length + 1).replace(/\.[^.]*$/, '');
  const names = await readdir(join(device.dir, ...folder.split('/').filter(Boolean)));
  return names.filter((n) => n.startsWith(`${stem} (conflicted copy `)).map((n) => (folder ? `${folder}/${n}` : n));
}

/** What must hold once it converged: the original untouched but for the colleague's version, every file kept. */
async function expectOriginalKept(w: World, laptop: Device, path: string, original: { assetId: string }, theirs: AssetVersion): Promise<void> {
  const now = await w.user.assetAt(path);
  expect(now.assetId).toBe(original.assetId);
  expect(now.versionId).toBe(theirs.id);
  expect(now.checksum).toBe(theirs.checksum);
  expect(sha256(await laptop.read(path))).toBe(theirs.checksum);
  const remote = await remoteChecksums(w.user.client, w.workspaceId);
  expect(remote.filter(([p]) => /conflicted copy.*conflicted copy/.test(p))).toEqual([]);
  expect(await localChecksums(laptop.dir)).toEqual(remote);
}

/** A world whose laptop has synced, a file picked by the seed, and its asset. */
async function synced(): Promise<{ w: World; injected: ReturnType<typeof injector>; path: string; laptop: Device; original: RemoteEntry }> {
  const w = await world({ service: { faults: faults({}) } });
  const path = FILES[rng.int(0, FILES.length - 1)] as string;
  const laptop = await w.device('laptop');
  await laptop.converge();
  return { w, injected: injector(w), path, laptop, original: await w.user.assetAt(path) };
}

describe('a conflicted copy', () => {
  it('whose create meets an asset of its name takes the next free name, and the original asset keeps its name, id and the colleague\'s version', async () => {
    const { w, injected, path, laptop, original } = await synced();

    const mine = bytesFor(`laptop edit ${seed}`, rng.int(10, 40_000));
    const colleagueBytes = bytesFor(`colleague edit ${seed}`, rng.int(10, 40_000));
    const clashBytes = bytesFor(`clashing asset ${seed}`, rng.int(10, 40_000));
    let theirs: AssetVersion | undefined;
    let clash: { id: string; path: string } | undefined;
    // The colleague's version lands just before the laptop commits its edit; then, just before
    // the laptop creates the conflicted copy on the service, an asset of exactly that name.
    const clashWithCopy = {
      method: 'POST',
      path: '/workspaces/assets',
      answer: 'pass' as const,
      times: 1,
      before: async () => {
        const [copy] = await copiesOnDisk(laptop, path);
        if (copy === undefined) throw new Error('no conflicted copy on disk when it is created on the service');
        const slash = copy.lastIndexOf('/');
        const folderId = slash < 0 ? null : await w.colleague.folder(copy.slice(0, slash));
        const made = await w.colleague.createIn(folderId, copy.slice(slash + 1), clashBytes);
        clash = { id: made.id, path: copy };
      },
    };
    injected.setRoutes([
      {
        method: 'POST',
        path: `/workspaces/assets/${original.assetId}/versions`,
        answer: 'pass',
        times: 1,
        before: async () => {
          theirs = await w.colleague.newVersion(original.assetId, colleagueBytes);
          injected.setRoutes([clashWithCopy]);
        },
      },
    ]);

    await laptop.write(path, mine);
    const report = await laptop.converge();
    expect(report.ok).toBe(true);
    if (!theirs || !clash) throw new Error('the races did not happen');
    expect(injected.counts.route).toBe(2);

    await expectOriginalKept(w, laptop, path, original, theirs);
    // The clashing asset is the colleague's, untouched, and on the laptop too.
    const clashed = await w.user.assetAt(clash.path);
    expect(clashed.assetId).toBe(clash.id);
    expect(clashed.checksum).toBe(sha256(clashBytes));
    // The edit is kept under the next free conflicted-copy name of the original (" 2" within
    // the same second), here and on the service.
    const copies = await copiesOnDisk(laptop, path);
    expect(copies).toHaveLength(2);
    const kept = copies.find((p) => p !== clash?.path) as string;
    const ext = /\.[^./]*$/.exec(path)?.[0] ?? '';
    expect(kept).toBe(`${path.slice(0, path.length - ext.length)} (conflicted copy laptop ${/\d{4}-\d\d-\d\d \d{6}(?: \d+)?/.exec(kept)?.[0] ?? '?'})${ext}`);
    expect(sha256(await laptop.read(kept))).toBe(sha256(mine));
    expect((await w.user.assetAt(kept)).checksum).toBe(sha256(mine));
    // Still listed for the user: the original against the copy that holds the edit.
    expect(laptop.engine.status().workspaces[0]?.problems).toEqual([expect.objectContaining({ kind: 'conflict', path, message: expect.stringContaining(kept) as string })]);
  });

  it('whose create is refused once is uploaded at the next cycle, never taken for a rename of the original', async () => {
    const { w, injected, path, laptop, original } = await synced();

    const theirs = await w.colleague.newVersion(original.assetId, bytesFor(`colleague ${seed}`, rng.int(10, 40_000)));
    const mine = bytesFor(`laptop ${seed}`, rng.int(10, 40_000));
    await laptop.write(path, mine);
    injected.setRoutes([{ method: 'POST', path: '/workspaces/assets', answer: 409, times: 1 }]);
    const report = await laptop.converge();
    expect(report.ok).toBe(true);
    expect(injected.counts.route).toBe(1);

    await expectOriginalKept(w, laptop, path, original, theirs);
    const copies = await copiesOnDisk(laptop, path);
    expect(copies).toHaveLength(1);
    const [copy] = copies as [string];
    expect(sha256(await laptop.read(copy))).toBe(sha256(mine));
    expect((await w.user.assetAt(copy)).checksum).toBe(sha256(mine));
  });
});
