/**
 * The index's count of placed files no base row holds in their listed version (what `status`
 * reports as not on disk yet), against the same count made by hand over random trees: remote
 * assets synced, in an older version, missing, held under another name or twice, not placed;
 * base rows of assets the service no longer lists, or holding another asset's version; ids that
 * are UUIDs (stored as bytes) or not (stored as text); and a second workspace holding the very
 * pairs the first one lacks, which must not count for it.
 */
import { describe, expect, it } from 'vitest';
import type { RawAsset } from '../../main/index/remote-state.js';
import type { BaseFile } from '../../main/model/views.js';
import { Rng, testSeed } from '../helpers/rng.js';
import { checksumOf, useTempIndex, workspace } from './index-fixtures.js';

const { withIndex } = useTempIndex();

const hex = (rng: Rng, bytes: number): string => Array.from({ length: bytes }, () => rng.int(0, 255).toString(16).padStart(2, '0')).join('');
const uuid = (rng: Rng): string => hex(rng, 16).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
/** Mostly UUIDs; now and then an id of another form, of any length. */
const anId = (rng: Rng, n: number): string => (rng.chance(0.8) ? uuid(rng) : `id-${n}${'x'.repeat(rng.int(0, 3))}`);

type Kind = 'synced' | 'older' | 'missing' | 'renamed' | 'twice' | 'unplaced' | 'crossed';

interface Drawn {
  remote: Array<{ asset: RawAsset; path: string | null }>;
  base: BaseFile[];
  /** The paths of the placed assets no base row holds in their listed version, counted by hand. */
  behind: string[];
}

function draw(rng: Rng, count: number): Drawn {
  const drawn: Drawn = { remote: [], base: [], behind: [] };
  let previous: RawAsset | undefined;
  for (let i = 0; i < count; i += 1) {
    const kind = rng.weighted<Kind>({ synced: 4, older: 2, missing: 2, renamed: 1, twice: 1, unplaced: 1, crossed: 1 });
    const path = `Shots/${rng.pick(['cut', 'Cut', 'plate'])}-${i}.psd`;
    const asset: RawAsset = {
      id: anId(rng, i),
      fileName: `cut-${i}.psd`,
      folderId: null,
      versionId: anId(rng, 1000 + i),
      versionNumber: 2,
      checksum: checksumOf(i),
      size: 10 + i,
      lockedByUserId: null,
      sequence: i + 1,
    };
    drawn.remote.push({ asset, path: kind === 'unplaced' ? null : path });
    const row = (at: string, versionId: string, assetId = asset.id): BaseFile => ({ path: at, assetId, versionId, checksum: checksumOf(i), size: 10 + i, mtimeNs: '1700000000000000000', inode: 1000 + i });
    if (kind === 'synced' || (kind === 'unplaced' && rng.chance(0.5))) drawn.base.push(row(path, asset.versionId));
    if (kind === 'older') drawn.base.push(row(path, anId(rng, 2000 + i)));
    if (kind === 'renamed') drawn.base.push(row(`Old/cut-${i}.psd`, asset.versionId));
    if (kind === 'twice') drawn.base.push(row(path, asset.versionId), row(`Copy/cut-${i}.psd`, asset.versionId));
    // This asset's id with the previous one's version, and this one's version under the previous
    // id: its id and its version are both held, but not as a pair, so it is not synced.
    if (kind === 'crossed' && previous) drawn.base.push(row(path, previous.versionId), row(`Swap/cut-${i}.psd`, asset.versionId, previous.id));
    // Gone from the service, still on disk.
    if (rng.chance(0.2)) drawn.base.push(row(`Gone/left-${i}.psd`, anId(rng, 3000 + i), anId(rng, 4000 + i)));
    previous = asset;
  }
  const held = new Set(drawn.base.map((b) => `${b.assetId}\0${b.versionId}`));
  for (const { asset, path } of drawn.remote) if (path !== null && !held.has(`${asset.id}\0${asset.versionId}`)) drawn.behind.push(path);
  return drawn;
}

describe('files behind: placed files no base row holds in their listed version', () => {
  it('are counted and named as by hand, per workspace, whatever else the base and the tree hold', () => {
    const seed = testSeed('index-files-behind');
    for (let round = 0; round < 12; round += 1) {
      const rng = new Rng(seed, `round-${round}`);
      const mine = draw(rng.fork('mine'), rng.int(0, 40));
      // The other workspace holds every pair of this one's tree in its base: none is this one's.
      const other = draw(rng.fork('other'), rng.int(0, 10));
      other.base.push(...mine.remote.map(({ asset }, i) => ({ path: `Theirs/${i}.psd`, assetId: asset.id, versionId: asset.versionId, checksum: checksumOf(i), size: 1, mtimeNs: '1', inode: i })));
      withIndex((index) => {
        // One index for every round, as a device holds many workspaces over time.
        const [one, two] = [`ws-${round}-a`, `ws-${round}-b`];
        for (const [id, tree] of [[one, mine], [two, other]] as const) {
          index.workspaces.add(workspace(id));
          index.remote.saveTree(id, { sequence: '7', full: true, assets: tree.remote.map(({ asset, path }) => ({ item: asset, path })) });
          index.base.putFiles(id, tree.base);
        }
        const context = `seed ${seed}, round ${round}`;
        expect(index.remote.countBehind(one), context).toBe(mine.behind.length);
        expect([...index.remote.pathsBehind(one)].sort(), context).toEqual([...mine.behind].sort());
        expect(index.remote.countBehind(two), context).toBe(other.behind.length);
        expect([...index.remote.pathsBehind(two)].sort(), context).toEqual([...other.behind].sort());
      });
    }
  });
});
