/**
 * placeRemoteTree's naming: each name the service sends is placed under its safe form, one
 * folder below its parent, unique in that folder whatever the case or normalisation, and no
 * path longer than a disk holds. Random trees come from fast-check, which prints the seed of a
 * failing run (`seed` in fc.assert's options replays it).
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placeRemoteTree, type RawAsset, type RawFolder, type RawRemoteTree } from '../../main/engine/remote-tree.js';
import { MAX_PATH_BYTES, pathKey, sanitizeName } from '../../main/local/paths.js';

const checksum = createHash('sha256').update('').digest('hex');

function rawTree(folders: RawFolder[], assets: Array<Pick<RawAsset, 'id' | 'folderId' | 'fileName'>>): RawRemoteTree {
  return {
    folders: new Map(folders.map((f) => [f.id, f])),
    assets: new Map(assets.map((a) => [a.id, { ...a, versionId: 'v', versionNumber: 1, checksum, size: 0, lockedByUserId: null, sequence: 1 }])),
    sequence: '1',
    unknown: new Map(),
  };
}

/** A chain of folders, each in the one before, named `names`. */
const chain = (names: string[]): RawFolder[] => names.map((name, i) => ({ id: `f${i}`, parentId: i === 0 ? null : `f${i - 1}`, name }));

const pathOf = (placed: ReturnType<typeof placeRemoteTree>, assetId: string): string | undefined => [...placed.files.values()].find((f) => f.assetId === assetId)?.path;

describe('placeRemoteTree naming', () => {
  it('places each item under its safe name, one folder below its parent, and the top level without a leading slash', () => {
    const placed = placeRemoteTree(rawTree(chain(['Docs:2024', 'con']), [
      { id: 'top', folderId: null, fileName: 'a|b.txt' },
      { id: 'mid', folderId: 'f0', fileName: 'x.txt' },
      { id: 'low', folderId: 'f1', fileName: 'y?.txt' },
    ]));
    expect(pathOf(placed, 'top')).toBe('a_b.txt');
    expect(pathOf(placed, 'mid')).toBe('Docs_2024/x.txt');
    expect(pathOf(placed, 'low')).toBe('Docs_2024/con_/y_.txt');
    expect([...placed.folders.values()].map((f) => f.path)).toEqual(['Docs_2024', 'Docs_2024/con_']);
    expect(placed.folderIds.get(pathKey('Docs_2024/con_'))).toBe('f1');
  });

  it('numbers names that clash in one folder, and lets the same name stand in another', () => {
    const placed = placeRemoteTree(rawTree(chain(['sub']), [
      { id: 'a1', folderId: null, fileName: 'Report.txt' },
      { id: 'a2', folderId: null, fileName: 'report.txt' },
      { id: 'a3', folderId: null, fileName: 'report?.txt' },
      { id: 'a4', folderId: 'f0', fileName: 'report.txt' },
    ]));
    expect(pathOf(placed, 'a1')).toBe('Report.txt');
    expect(pathOf(placed, 'a2')).toBe('report (2).txt');
    expect(pathOf(placed, 'a3')).toBe('report_.txt');
    expect(pathOf(placed, 'a4')).toBe('sub/report.txt');
  });

  it('gives random trees safe, unique paths inside their parents', () => {
    const name = fc.string({ unit: fc.constantFrom('a', 'A', 'é', 'e\u0301', '.', ' ', ':', '/', '\\', '*', 'x'), minLength: 0, maxLength: 6 });
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 6 }), fc.array(fc.tuple(fc.nat(6), name), { maxLength: 12 }), (folderNames, files) => {
        const folders = chain(folderNames);
        const assets = files.map(([at, fileName], i) => ({ id: `a${i}`, folderId: at < folders.length ? `f${at}` : null, fileName }));
        const placed = placeRemoteTree(rawTree(folders, assets));
        const keys = new Set<string>();
        for (const file of placed.files.values()) {
          const asset = assets.find((a) => a.id === file.assetId);
          const parent = asset?.folderId == null ? '' : placed.paths.folders.get(asset.folderId);
          const segments = file.path.split('/');
          const leaf = segments.pop() as string;
          expect(segments.join('/')).toBe(parent);
          expect(sanitizeName(leaf)).toBe(leaf);
          expect(leaf.startsWith(sanitizeName(asset?.fileName ?? '').replace(/\.[^.]*$/u, ''))).toBe(true);
          expect(keys.has(pathKey(file.path))).toBe(false);
          keys.add(pathKey(file.path));
        }
        for (const folder of placed.folders.values()) for (const segment of folder.path.split('/')) expect(sanitizeName(segment)).toBe(segment);
        expect(placed.files.size).toBe(assets.length);
      }),
      { numRuns: 300 },
    );
  });

  it('places a tree 10,000 folders deep only as deep as a disk can hold, and says what it left out', () => {
    const placed = placeRemoteTree(rawTree(chain(Array<string>(10_000).fill('deep-folder')), [{ id: 'a-bottom', folderId: 'f9999', fileName: 'x' }]));
    expect(placed.folders.size).toBe(Math.floor((MAX_PATH_BYTES + 1) / 'deep-folder/'.length));
    for (const folder of placed.folders.values()) expect(Buffer.byteLength(folder.path)).toBeLessThanOrEqual(MAX_PATH_BYTES);
    expect([...placed.unplaced]).toEqual(['a-bottom']);
  });

  it('places a path of as many bytes as a disk holds, and leaves out one a byte longer', () => {
    // 15 folders of 255 bytes and one of 254, then a one-byte name: 4,096 bytes with the slashes.
    const folders = chain([...Array<string>(15).fill('a'.repeat(255)), 'b'.repeat(254)]);
    const placed = placeRemoteTree(rawTree(folders, [
      { id: 'fits', folderId: 'f15', fileName: 'x' },
      { id: 'too-long', folderId: 'f15', fileName: 'xy' },
    ]));
    expect(Buffer.byteLength(pathOf(placed, 'fits') ?? '')).toBe(MAX_PATH_BYTES);
    expect([...placed.unplaced]).toEqual(['too-long']);
  });

  it('counts the bytes of a path, not its characters: two-byte names fill a disk\'s limit in half the characters', () => {
    // 16 folders of 127 "é" (254 bytes each), each with its slash: 4,080 bytes in 2,048 characters.
    const folders = chain(Array<string>(16).fill('é'.repeat(127)));
    const placed = placeRemoteTree(rawTree(folders, [
      { id: 'fits', folderId: 'f15', fileName: 'é'.repeat(8) },
      { id: 'too-long', folderId: 'f15', fileName: 'é'.repeat(9) },
    ]));
    expect(Buffer.byteLength(pathOf(placed, 'fits') ?? '')).toBe(MAX_PATH_BYTES);
    expect([...placed.unplaced]).toEqual(['too-long']);
  });
});
