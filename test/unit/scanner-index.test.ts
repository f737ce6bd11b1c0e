/**
 * The scanner with the index's hash cache, as the engine runs it: the cache is asked a folder at
 * a time, never loaded whole, and vouches, tells renames and forgets gone files as the cache in
 * memory does (scanner.test.ts).
 */
import { mkdir, mkdtemp, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openIndex, type SyncIndex } from '../../main/index/sync-index.js';
import { hashBuffer } from '../../main/local/hash.js';
import { type HashCache, MemoryHashCache } from '../../main/local/hash-cache-contract.js';
import { createIgnoreMatcher } from '../../main/local/ignore.js';
import { type ScanOptions, scanTree, scanUnlessUnchanged } from '../../main/local/scanner.js';
import { Rng, testSeed } from '../helpers/rng.js';
import { workspace } from './index-fixtures.js';

/** Older than the scanner's racy window, with sub-second digits (renames are told by them). */
const PAST = new Date('2024-03-01T12:00:00.123Z');

let base: string;
let root: string;
let index: SyncIndex;

async function put(rel: string, content: string): Promise<void> {
  const abs = path.join(root, rel);
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(abs, content);
  await utimes(abs, PAST, PAST);
}

/** The index's cache of the workspace, which refuses to be loaded whole. */
function folderwiseCache(alike?: ReadonlyMap<string, { path: string; checksum: string }>): HashCache {
  const cache = index.hashCache('ws-1', alike);
  cache.loadAll = () => {
    throw new Error('the scan loaded the whole hash cache');
  };
  return cache;
}

function scan(extra: Partial<ScanOptions> = {}, alike?: ReadonlyMap<string, { path: string; checksum: string }>) {
  return scanTree(root, { hashCache: folderwiseCache(alike), ignore: createIgnoreMatcher(), ...extra });
}

const cachedKeys = (): string[] => [...index.hashCache('ws-1').keysAndInodes()].map(([key]) => key).sort();

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'scan-index-'));
  root = path.join(base, 'root');
  await mkdir(root);
  index = openIndex(path.join(base, 'index.db'));
  index.workspaces.add(workspace('ws-1'));
  await put('a.txt', 'alpha');
  await put('Brand/Hero.psd', 'hero bytes');
  await put('Brand/Sub/deep.txt', 'deep');
});

afterEach(async () => {
  index.close();
  await rm(base, { recursive: true, force: true });
});

describe('scanTree with the index hash cache', () => {
  it('rescans an unchanged tree without reading a byte, and finds the same files', async () => {
    const first = await scan();
    expect(first.hashed).toBe(3);
    const second = await scan();
    expect(second.hashed).toBe(0);
    expect(second.files).toEqual(first.files);
    expect(second.files.get('brand/hero.psd')).toMatchObject({ path: 'Brand/Hero.psd', checksum: hashBuffer('hero bytes') });
  });

  it('keeps the on-disk spelling when the synced path is spelled otherwise, and shares the synced strings', async () => {
    await scan();
    const synced = new Map([
      ['brand/hero.psd', { path: 'brand/HERO.psd', checksum: hashBuffer('hero bytes') }],
      ['a.txt', { path: 'a.txt', checksum: hashBuffer('alpha') }],
    ]);
    const again = await scan({}, synced);
    expect(again.hashed).toBe(0);
    expect(again.files.get('brand/hero.psd')?.path).toBe('Brand/Hero.psd');
    expect(again.files.get('a.txt')).toEqual({ path: 'a.txt', size: 5, mtimeNs: expect.any(String), ctimeNs: expect.any(String), inode: expect.any(Number), checksum: hashBuffer('alpha') });
  });

  it('reads again only the file that changed', async () => {
    await scan();
    await writeFile(path.join(root, 'Brand/Hero.psd'), 'hero BYTES');
    await utimes(path.join(root, 'Brand/Hero.psd'), PAST, PAST);
    const second = await scan();
    expect(second.hashed).toBe(1);
    expect(second.files.get('brand/hero.psd')?.checksum).toBe(hashBuffer('hero BYTES'));
  });

  it('reads nothing when a folder is renamed, and forgets the old names', async () => {
    await scan();
    await rename(path.join(root, 'Brand'), path.join(root, 'Brand 2026'));
    const second = await scan();
    expect(second.hashed).toBe(0);
    expect(second.renamed).toBe(2);
    expect(second.files.get('brand 2026/sub/deep.txt')?.checksum).toBe(hashBuffer('deep'));
    expect(cachedKeys()).toEqual(['a.txt', 'brand 2026/hero.psd', 'brand 2026/sub/deep.txt']);
    expect((await scan()).hashed).toBe(0);
  });

  it('forgets the entries of files that are gone or now ignored, and keeps the others', async () => {
    await put('renders/frame1.png', 'x');
    await scan();
    expect(cachedKeys()).toEqual(['a.txt', 'brand/hero.psd', 'brand/sub/deep.txt', 'renders/frame1.png']);
    await rm(path.join(root, 'Brand', 'Sub'), { recursive: true });
    await scan({ ignore: createIgnoreMatcher('renders/\n') });
    expect(cachedKeys()).toEqual(['a.txt', 'brand/hero.psd']);
  });

  it('trusts an entry kept without a ctime, and fills the ctime in', async () => {
    const first = await scan();
    const cache = index.hashCache('ws-1');
    const { ctimeNs, ...withoutCtime } = cache.get('a.txt') ?? { ctimeNs: '' };
    cache.put('a.txt', withoutCtime as Parameters<HashCache['put']>[1]);
    const second = await scan();
    expect(second.hashed).toBe(0);
    expect(second.files.get('a.txt')).toEqual(first.files.get('a.txt'));
    expect(cache.get('a.txt')?.ctimeNs).toBe(ctimeNs);
  });
});

describe('scanUnlessUnchanged', () => {
  const seed = testSeed('scanner-index deferred');

  /** A few random changes: new, edited, renamed and deleted files, new folders, a symlink. */
  async function changeSome(rng: Rng, round: number): Promise<void> {
    for (let i = rng.int(0, 4); i > 0; i--) {
      const kind = rng.pick(['new', 'edit', 'rename', 'delete', 'folder', 'link'] as const);
      const files = [...(await scanTree(root, { hashCache: new MemoryHashCache(), ignore: createIgnoreMatcher() })).files.values()].map((f) => f.path);
      const some = files.length > 0 ? rng.pick(files) : undefined;
      if (kind === 'new' || some === undefined) await put(`${rng.pick(['', 'Brand/', 'New/'])}f-${round}-${i}.txt`, `new ${rng.next()}`);
      else if (kind === 'edit') await put(some, `edited ${rng.next()}`);
      else if (kind === 'rename') await rename(path.join(root, some), path.join(root, `${some}-${round}-${i}`));
      else if (kind === 'delete') await rm(path.join(root, some));
      else if (kind === 'folder') await mkdir(path.join(root, `Empty-${round}-${i}`));
      else await symlink('/nowhere', path.join(root, `link-${round}-${i}`));
    }
  }

  it('asks the cache nothing when the stamps are known, and else completes to what scanTree finds', async () => {
    const rng = new Rng(seed, 'deferred');
    let known = (await scan()).stamps;
    for (let round = 0; round < 12; round++) {
      await changeSome(rng, round);
      const cache = folderwiseCache();
      let asked = 0;
      const getMany = cache.getMany?.bind(cache);
      cache.getMany = (keys) => {
        asked++;
        return (getMany as NonNullable<typeof getMany>)(keys);
      };
      const seen: string[] = [];
      const deferred = await scanUnlessUnchanged(root, { hashCache: cache, ignore: createIgnoreMatcher() }, (stamps) => (seen.push(stamps), stamps === known ? 'known' : undefined));
      const full = await scan();
      const context = { seed, round };
      if ('unchanged' in deferred) {
        // Only a round that changed nothing on disk.
        expect({ ...context, asked, stamps: full.stamps }).toEqual({ ...context, asked: 0, stamps: known });
      } else {
        expect({ ...context, files: deferred.files, folders: deferred.folders, skipped: deferred.skipped }).toEqual({ ...context, files: full.files, folders: full.folders, skipped: full.skipped });
        expect({ ...context, stamps: seen }).toEqual({ ...context, stamps: [full.stamps] });
      }
      known = full.stamps;
    }
  });

  it('tells a file dated past 2262, beyond 64 bits of nanoseconds, by its exact times', async () => {
    const far = path.join(root, 'far.txt');
    await writeFile(far, 'far');
    // 2300-01-01 and a fraction: a wrapped time would still match itself, but not the file's real one.
    await utimes(far, 10_413_792_000.25, 10_413_792_000.25);
    const first = await scan();
    expect(first.files.get('far.txt')?.mtimeNs).toBe('10413792000250000000');
    const again = await scan();
    expect({ hashed: again.hashed, stamps: again.stamps }).toEqual({ hashed: 0, stamps: first.stamps });
    await utimes(far, 10_413_792_000.5, 10_413_792_000.5);
    const unchanged = (stamps: string): true | undefined => (stamps === first.stamps ? true : undefined);
    expect(await scanUnlessUnchanged(root, { hashCache: folderwiseCache(), ignore: createIgnoreMatcher() }, unchanged)).not.toHaveProperty('unchanged');
  });

  it('keeps no stamps for a scan that read a file too fresh for the cache', async () => {
    await scan();
    await writeFile(path.join(root, 'a.txt'), 'fresh');
    const fresh = await scan();
    expect(fresh.hashed).toBe(1);
    expect(fresh.stamps).toBeNull();
    await utimes(path.join(root, 'a.txt'), PAST, PAST);
    expect((await scan()).stamps).not.toBeNull();
  });
});
