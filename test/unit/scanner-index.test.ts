/**
 * The scanner with the index's hash cache, as the engine runs it: the cache is asked a folder at
 * a time, never loaded whole, and vouches, tells renames and forgets gone files as the cache in
 * memory does (scanner.test.ts).
 */
import { mkdir, mkdtemp, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openIndex, type SyncIndex } from '../../main/index/sync-index.js';
import { hashBuffer } from '../../main/local/hash.js';
import type { HashCache } from '../../main/local/hash-cache-contract.js';
import { createIgnoreMatcher } from '../../main/local/ignore.js';
import { type ScanOptions, scanTree } from '../../main/local/scanner.js';
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
