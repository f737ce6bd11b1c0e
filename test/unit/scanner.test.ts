import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { link, mkdir, mkdtemp, readFile, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashBuffer } from '../../main/local/hash.js';
import { type HashCacheEntry, MemoryHashCache } from '../../main/local/hash-cache-contract.js';
import { createIgnoreMatcher } from '../../main/local/ignore.js';
import { MARKER_FILE_NAME } from '../../main/local/own-files.js';
import { resolveInsideRoot } from '../../main/local/paths.js';
import { type ScanOptions, type ScanProgress, scanTree } from '../../main/local/scanner.js';
import { filterUnstable } from '../../main/local/stability.js';

/** Files older than the scanner's racy window, so their checksums may be cached. */
const PAST = new Date('2024-03-01T12:00:00Z');
const LATER_PAST = new Date('2024-03-02T12:00:00Z');

let base: string;
let root: string;
let cache: MemoryHashCache;

async function put(rel: string, content: string, mtime = PAST): Promise<void> {
  const abs = path.join(root, rel);
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(abs, content);
  await utimes(abs, mtime, mtime);
}

function scan(extra: Partial<ScanOptions> = {}) {
  return scanTree(root, { hashCache: cache, ignore: createIgnoreMatcher(), ...extra });
}

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'scan-'));
  root = path.join(base, 'root');
  await mkdir(root);
  cache = new MemoryHashCache();
  await put('a.txt', 'alpha');
  await put('Brand/Hero.psd', 'hero bytes');
  await put('Brand/Sub/deep.txt', 'deep');
  await mkdir(path.join(root, 'Empty'));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('scanTree', () => {
  it('finds files and folders, keyed by pathKey, with checksums', async () => {
    const result = await scan();
    expect([...result.folders.keys()].sort()).toEqual(['brand', 'brand/sub', 'empty']);
    // With its inode: a rename keeps it, which tells an empty folder renamed from one deleted.
    expect(result.folders.get('brand/sub')).toEqual({ path: 'Brand/Sub', inode: (await stat(path.join(root, 'Brand/Sub'))).ino });
    expect([...result.files.keys()].sort()).toEqual(['a.txt', 'brand/hero.psd', 'brand/sub/deep.txt']);
    expect(result.files.get('brand/hero.psd')).toMatchObject({
      path: 'Brand/Hero.psd',
      size: 10,
      checksum: hashBuffer('hero bytes'),
      mtimeNs: (BigInt(PAST.getTime()) * 1_000_000n).toString(),
    });
    expect(result.files.get('a.txt')?.inode).toBeGreaterThan(0);
    expect(result.hashed).toBe(3);
    expect(result.skipped).toEqual([]);
  });

  it('leaves out ignored files and does not enter ignored folders', async () => {
    await put('.DS_Store', 'x');
    await put('Brand/Thumbs.db', 'x');
    await put(MARKER_FILE_NAME, '{}');
    await put('renders/frame1.png', 'x');
    const result = await scan({ ignore: createIgnoreMatcher('renders/\n') });
    expect([...result.files.keys()].sort()).toEqual(['a.txt', 'brand/hero.psd', 'brand/sub/deep.txt']);
    expect(result.folders.has('renders')).toBe(false);
  });

  it('reports symlinks as skipped and never follows them', async () => {
    const outside = path.join(base, 'outside');
    await mkdir(outside);
    await writeFile(path.join(outside, 'secret.txt'), 'secret');
    await symlink(outside, path.join(root, 'Brand', 'linked-dir'), 'dir');
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'linked.txt'));
    const result = await scan();
    expect(result.skipped.sort((x, y) => x.path.localeCompare(y.path))).toEqual([
      { path: 'Brand/linked-dir', reason: 'symlink' },
      { path: 'linked.txt', reason: 'symlink' },
    ]);
    expect([...result.files.keys()].sort()).toEqual(['a.txt', 'brand/hero.psd', 'brand/sub/deep.txt']);
    expect(result.folders.has('brand/linked-dir')).toBe(false);
  });

  it('rescans an unchanged tree without reading a byte', async () => {
    const first = await scan();
    const second = await scan();
    expect(second.hashed).toBe(0);
    expect(second.files).toEqual(first.files);
    expect(second.folders).toEqual(first.folders);
  });

  it('reads again only the file whose mtime changed', async () => {
    const first = await scan();
    await utimes(path.join(root, 'Brand/Hero.psd'), LATER_PAST, LATER_PAST);
    const second = await scan();
    expect(second.hashed).toBe(1);
    const hero = second.files.get('brand/hero.psd');
    expect(hero?.mtimeNs).not.toBe(first.files.get('brand/hero.psd')?.mtimeNs);
    expect(hero?.checksum).toBe(hashBuffer('hero bytes'));
  });

  it('sees an edit that keeps the size', async () => {
    await scan();
    await put('a.txt', 'ALPHA', LATER_PAST);
    const second = await scan();
    expect(second.hashed).toBe(1);
    expect(second.files.get('a.txt')?.checksum).toBe(hashBuffer('ALPHA'));
  });

  it('sees an edit that keeps the size and the mtime: its ctime moved', async () => {
    await scan();
    await put('a.txt', 'ALPHA', PAST);
    const second = await scan();
    expect(second.hashed).toBe(1);
    expect(second.files.get('a.txt')?.checksum).toBe(hashBuffer('ALPHA'));
    expect((await scan()).hashed).toBe(0);
  });

  it('keeps the inode across a rename, so the engine can tell a move', async () => {
    const first = await scan();
    await rename(path.join(root, 'a.txt'), path.join(root, 'Brand', 'moved.txt'));
    const second = await scan();
    expect(second.files.has('a.txt')).toBe(false);
    const moved = second.files.get('brand/moved.txt');
    expect(moved?.inode).toBe(first.files.get('a.txt')?.inode);
    expect(moved?.checksum).toBe(first.files.get('a.txt')?.checksum);
    expect(second.hashed).toBe(1);
  });

  describe('a renamed file keeps its cached checksum (same inode, size and mtime; the old name gone)', () => {
    /** An mtime with sub-second digits, as every modern file system keeps them. */
    const FINE = new Date('2024-03-01T12:00:00.123Z');

    beforeEach(async () => {
      await put('Brand/Hero.psd', 'hero bytes', FINE);
      await put('Brand/Sub/deep.txt', 'deep', FINE);
    });

    it('reads nothing when a folder is renamed', async () => {
      await scan();
      await rename(path.join(root, 'Brand'), path.join(root, 'Brand 2026'));
      const second = await scan();
      expect(second.hashed).toBe(0);
      expect(second.renamed).toBe(2);
      expect(second.files.get('brand 2026/hero.psd')?.checksum).toBe(hashBuffer('hero bytes'));
      expect(second.files.get('brand 2026/sub/deep.txt')?.checksum).toBe(hashBuffer('deep'));
      // The cache now vouches for the new names, and forgot the old ones.
      expect(cache.get('brand 2026/hero.psd')?.checksum).toBe(hashBuffer('hero bytes'));
      expect(cache.get('brand/hero.psd')).toBeUndefined();
      expect((await scan()).hashed).toBe(0);
    });

    it('reads a second name of a file whose first name is still there (a hard link, or an inode reused)', async () => {
      await scan();
      await link(path.join(root, 'Brand/Hero.psd'), path.join(root, 'hero-link.psd'));
      const second = await scan();
      expect(second.renamed).toBe(0);
      // The link moved the inode's ctime: the first name is read again too.
      expect(second.hashed).toBe(2);
      expect(second.files.get('hero-link.psd')?.checksum).toBe(hashBuffer('hero bytes'));
    });

    it('reads a renamed file whose mtime has whole seconds only (FAT, ext3: a reused inode could match by chance)', async () => {
      await put('Brand/Hero.psd', 'hero bytes', PAST);
      await scan();
      await rename(path.join(root, 'Brand/Hero.psd'), path.join(root, 'Hero.psd'));
      const second = await scan();
      expect(second.renamed).toBe(0);
      expect(second.hashed).toBe(1);
    });

    it('reads a renamed file that was changed as well', async () => {
      await scan();
      const abs = path.join(root, 'Brand/Hero.psd');
      await writeFile(abs, 'hero BYTES');
      await rename(abs, path.join(root, 'Hero.psd'));
      const second = await scan();
      expect(second.renamed).toBe(0);
      expect(second.files.get('hero.psd')?.checksum).toBe(hashBuffer('hero BYTES'));
    });
  });

  it('keeps the on-disk spelling of names that are not NFC, and keys them on NFC', async () => {
    const nfd = 'Brand/e\u0301te\u0301.txt';
    await put(nfd, 'summer');
    const result = await scan();
    const file = result.files.get('brand/été.txt');
    expect(file?.path).toBe(nfd);
    await expect(readFile(resolveInsideRoot(root, file?.path ?? ''), 'utf8')).resolves.toBe('summer');
  });

  it('keeps one of two names that differ only by case, the same one every time', async () => {
    await put('Brand/photo.jpg', 'lower');
    await put('Brand/Photo.jpg', 'upper');
    for (let i = 0; i < 2; i++) {
      const result = await scan();
      expect(result.files.get('brand/photo.jpg')?.path).toBe('Brand/Photo.jpg');
      // With its inode: a synced file renamed so is held, not taken for deleted (local-view.ts).
      expect(result.skipped).toEqual([{ path: 'Brand/photo.jpg', reason: 'case_clash', error: 'Photo.jpg', inode: (await stat(path.join(root, 'Brand/photo.jpg'))).ino }]);
    }
  });

  it('of two names that differ only by their Unicode normalisation, keeps the NFC one', async () => {
    const nfc = 'caf\u00e9.txt';
    const nfd = 'cafe\u0301.txt';
    await put(nfd, 'decomposed');
    await put(nfc, 'composed');
    const result = await scan();
    expect(result.files.get(nfc)?.path).toBe(nfc);
    expect(result.skipped).toEqual([{ path: nfd, reason: 'case_clash', error: nfc, inode: (await stat(path.join(root, nfd))).ino }]);
  });

  it('skips names with a backslash', async () => {
    await put('back\\slash.txt', 'x');
    const result = await scan();
    expect(result.skipped).toEqual([
      { path: 'back\\slash.txt', reason: 'invalid_name', error: expect.stringContaining('folder separator') as string, inode: expect.any(Number) as number },
    ]);
  });

  it('skips names that other computers cannot hold, saying why, and keeps their folders out of the scan', async () => {
    await put('a:b.txt', 'colon');
    await put('con.txt', 'device');
    await put('trailing.', 'dot');
    await put('Q: notes/inside.txt', 'in a folder that cannot sync');
    await put('fine.txt', 'fine');
    const result = await scan();
    expect(result.files.has('fine.txt')).toBe(true);
    for (const key of ['a:b.txt', 'con.txt', 'trailing.', 'q: notes/inside.txt']) expect(result.files.has(key)).toBe(false);
    const why = new Map(result.skipped.map((s) => [s.path, s.error]));
    expect(why.get('a:b.txt')).toContain('":"');
    expect(why.get('con.txt')).toContain('"con" is a device name');
    expect(why.get('trailing.')).toContain('ends with a dot');
    expect(why.get('Q: notes')).toContain('":"');
    expect(why.has('Q: notes/inside.txt')).toBe(false);
  });

  it('skips names that are not valid UTF-8, saying how they read, why and what to rename them to, with their inodes', async () => {
    const latin = Buffer.from('caf\xe9.txt', 'latin1');
    writeFileSync(Buffer.concat([Buffer.from(`${root}/Brand/`), latin]), 'a Latin-1 name');
    const folder = Buffer.concat([Buffer.from(`${root}/`), Buffer.from('Fotos \x81', 'latin1')]);
    mkdirSync(folder);
    writeFileSync(Buffer.concat([folder, Buffer.from('/inside.txt')]), 'in a folder that cannot sync');
    // U+FFFD itself is a character like any other: a name holding it syncs.
    await put('Brand/replacement \uFFFD.txt', 'valid UTF-8');
    const result = await scan();
    expect(result.files.get('brand/replacement \uFFFD.txt')?.checksum).toBe(hashBuffer('valid UTF-8'));
    expect([...result.files.keys()].some((key) => key.startsWith('fotos'))).toBe(false);
    const byPath = new Map(result.skipped.map((entry) => [entry.path, entry]));
    expect(byPath.get('Brand/caf\\xE9.txt')).toEqual({
      path: 'Brand/caf\\xE9.txt',
      reason: 'invalid_name',
      error: expect.stringContaining('not valid UTF-8') as string,
      rename: 'café.txt',
      inode: lstatSync(Buffer.concat([Buffer.from(`${root}/Brand/`), latin])).ino,
    });
    expect(byPath.get('Fotos \\x81')).toMatchObject({ reason: 'invalid_name', rename: 'Fotos _', inode: lstatSync(folder).ino });
    expect(byPath.get('Fotos \\x81')?.inodesBelow).toEqual([lstatSync(Buffer.concat([folder, Buffer.from('/inside.txt')])).ino]);
    expect(result.skipped).toHaveLength(2);
  });

  it('stores checksums in batches when the cache supports it', async () => {
    const batches: number[] = [];
    class BatchingCache extends MemoryHashCache {
      putMany(entries: Iterable<readonly [string, HashCacheEntry]>): void {
        let n = 0;
        for (const [key, entry] of entries) {
          this.entries.set(key, entry);
          n++;
        }
        batches.push(n);
      }
    }
    cache = new BatchingCache();
    await scan();
    expect(batches).toEqual([3]);
    expect((await scan()).hashed).toBe(0);
  });

  it('reports progress', async () => {
    const events: ScanProgress[] = [];
    await scan({ onProgress: (p) => events.push(p) });
    expect(events.at(-1)).toEqual({ phase: 'hash', folders: 3, files: 3, toHash: 3, hashed: 3 });
  });

  it('fails for a missing root instead of reporting an empty tree', async () => {
    await expect(scanTree(path.join(base, 'unmounted'), { hashCache: cache, ignore: createIgnoreMatcher() })).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('stops when aborted', async () => {
    await expect(scan({ signal: AbortSignal.abort() })).rejects.toThrow(/abort/i);
  });

  it('stops when aborted while hashing, keeps what it hashed, and scans again afterwards', async () => {
    for (let i = 0; i < 300; i++) await put(`Many/f${i}.txt`, `file ${i}`);
    const controller = new AbortController();
    const scanning = scan({ signal: controller.signal, onProgress: (p) => p.hashed > 0 && controller.abort() });
    await expect(scanning).rejects.toThrow(/abort/i);
    const kept = cache.entries.size;
    expect(kept).toBeGreaterThan(0);
    const again = await scan();
    expect(again.files.size).toBe(303);
    expect(again.files.get('many/f299.txt')?.checksum).toBe(hashBuffer('file 299'));
    expect(again.hashed).toBe(303 - kept);
  });

  it('hashes many files and large ones, each with its own checksum', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    await writeFile(path.join(root, 'big.bin'), big);
    await utimes(path.join(root, 'big.bin'), PAST, PAST);
    for (let i = 0; i < 200; i++) await put(`Shots/${i % 7}/s${i}.jpg`, `shot ${i}`);
    const result = await scan();
    expect(result.hashed).toBe(204);
    expect(result.files.get('big.bin')).toMatchObject({ size: big.length, checksum: hashBuffer(big) });
    for (let i = 0; i < 200; i++) expect(result.files.get(`shots/${i % 7}/s${i}.jpg`)?.checksum).toBe(hashBuffer(`shot ${i}`));
    expect((await scan()).hashed).toBe(0);
  });

  it('forgets the cache entries of files that are gone or now ignored', async () => {
    await put('renders/frame1.png', 'x');
    await scan();
    expect([...cache.entries.keys()].sort()).toEqual(['a.txt', 'brand/hero.psd', 'brand/sub/deep.txt', 'renders/frame1.png']);
    await rm(path.join(root, 'Brand', 'Sub'), { recursive: true });
    await scan({ ignore: createIgnoreMatcher('renders/\n') });
    expect([...cache.entries.keys()].sort()).toEqual(['a.txt', 'brand/hero.psd']);
  });

  it('sees every change to a folder it listed before: new, removed, renamed, retyped entries', async () => {
    const ignore = createIgnoreMatcher();
    await scan({ ignore });
    await put('Brand/new.txt', 'new');
    await rename(path.join(root, 'a.txt'), path.join(root, 'b.txt'));
    await rm(path.join(root, 'Brand', 'Hero.psd'));
    await mkdir(path.join(root, 'Brand', 'Hero.psd'));
    await rm(path.join(root, 'Empty'), { recursive: true });
    await put('Empty', 'now a file');
    const result = await scan({ ignore });
    expect([...result.files.keys()].sort()).toEqual(['b.txt', 'brand/new.txt', 'brand/sub/deep.txt', 'empty']);
    expect([...result.folders.keys()].sort()).toEqual(['brand', 'brand/hero.psd', 'brand/sub']);
    // The cache is keyed by path: the renamed file is read again, like the two new ones.
    expect(result.hashed).toBe(3);
  });

  it('applies new ignore rules to folders it listed before', async () => {
    await scan();
    const result = await scan({ ignore: createIgnoreMatcher('Brand/Sub/\n') });
    expect([...result.files.keys()].sort()).toEqual(['a.txt', 'brand/hero.psd']);
    expect(result.folders.has('brand/sub')).toBe(false);
  });

  it('scans two trees with the same ignore rules side by side', async () => {
    const ignore = createIgnoreMatcher();
    const other = path.join(base, 'other');
    await mkdir(path.join(other, 'Brand'), { recursive: true });
    await writeFile(path.join(other, 'Brand', 'Logo.svg'), 'logo');
    const [mine, theirs] = await Promise.all([scan({ ignore }), scanTree(other, { hashCache: new MemoryHashCache(), ignore })]);
    expect([...mine.files.keys()].sort()).toEqual(['a.txt', 'brand/hero.psd', 'brand/sub/deep.txt']);
    expect([...theirs.files.keys()]).toEqual(['brand/logo.svg']);
    expect([...(await scan({ ignore })).files.keys()].sort()).toEqual(['a.txt', 'brand/hero.psd', 'brand/sub/deep.txt']);
  });
});

describe('filterUnstable', () => {
  const file = (mtimeMs: number) => ({ path: 'x', mtimeNs: (BigInt(mtimeMs) * 1_000_000n).toString() });

  it('holds back files changed within the quiet period', () => {
    const now = 1_700_000_000_000;
    const files = new Map([
      ['old', file(now - 60_000)],
      ['settled', file(now - 2_000)],
      ['writing', file(now - 500)],
      ['skewed', file(now + 500)],
      ['future', file(now + 86_400_000)],
    ]);
    const { stable, unstable } = filterUnstable(files, now, 2_000);
    expect([...stable.keys()]).toEqual(['old', 'settled', 'future']);
    expect([...unstable.keys()]).toEqual(['writing', 'skewed']);
  });
});
