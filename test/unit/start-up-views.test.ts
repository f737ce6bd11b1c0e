/**
 * What start-up leans on to skip work on a synced tree of 100,000 files: ignore rules matched
 * only where the scan has not matched them already, the base read back as it was stored, and
 * the periodic full listing's comparison with the tree the changes feed kept.
 */
import { describe, expect, it } from 'vitest';
import { notIgnored } from '../../main/engine/local-view.js';
import { noChanges, treeDifferences, type RawRemoteTree } from '../../main/engine/remote-tree.js';
import { createIgnoreMatcher, type IgnoreMatcher } from '../../main/local/ignore.js';
import { pathKey } from '../../main/local/paths.js';
import type { RawAsset } from '../../main/index/remote-state.js';
import { baseFile, useTempIndex, workspace } from './index-fixtures.js';

const { withIndex } = useTempIndex();

/** The real matcher, counting the paths it is asked about. */
function countingMatcher(rules?: string): IgnoreMatcher & { asked: string[] } {
  const inner = createIgnoreMatcher(rules);
  const asked: string[] = [];
  return {
    asked,
    rulesText: inner.rulesText,
    ignores(relPath: string, isDir: boolean): boolean {
      asked.push(relPath);
      return inner.ignores(relPath, isDir);
    },
    ignoresChild(parentRel: string, name: string, isDir: boolean): boolean {
      return this.ignores(parentRel === '' ? name : `${parentRel}/${name}`, isDir);
    },
  };
}

const byKey = <T extends { path: string }>(...items: T[]): Map<string, T> => new Map(items.map((item) => [pathKey(item.path), item]));

describe('notIgnored', () => {
  it('drops files and folders the rules ignore, wherever they come from', () => {
    const ignore = countingMatcher('renders/\n*.bak');
    const tree = {
      files: byKey({ path: 'a.psd' }, { path: 'Thumbs.db' }, { path: 'old.bak' }, { path: 'renders/frame.exr' }),
      folders: byKey({ path: 'renders' }, { path: 'Docs' }),
    };
    const kept = notIgnored(tree, ignore);
    expect([...kept.files.keys()]).toEqual(['a.psd']);
    expect([...kept.folders.keys()]).toEqual(['docs']);
    // The input is left as it was: the remote tree behind it is reused by the next cycle.
    expect(tree.files.size).toBe(4);
  });

  it('returns the tree itself when nothing is ignored', () => {
    const tree = { files: byKey({ path: 'a.psd' }, { path: 'Docs/b.txt' }), folders: byKey({ path: 'Docs' }) };
    const kept = notIgnored(tree, createIgnoreMatcher());
    expect(kept.files).toBe(tree.files);
    expect(kept.folders).toBe(tree.folders);
  });

  it('asks the rules only about paths the scan did not report, exactly as spelled and of the same kind', () => {
    const ignore = countingMatcher('*.bak');
    const scanned = { files: byKey({ path: 'a.psd' }, { path: 'Docs/B.txt' }, { path: 'Docs' }), folders: byKey({ path: 'Photos' }) };
    const tree = {
      // Seen by the scan: not asked. Spelled otherwise on disk, or a folder where the scan saw a
      // file, or not on disk at all: asked.
      files: byKey({ path: 'a.psd' }, { path: 'Docs/b.txt' }, { path: 'gone.bak' }),
      folders: byKey({ path: 'Docs' }, { path: 'Photos' }),
    };
    const kept = notIgnored(tree, ignore, scanned);
    expect(ignore.asked.sort()).toEqual(['Docs', 'Docs/b.txt', 'gone.bak']);
    expect([...kept.files.keys()]).toEqual(['a.psd', 'docs/b.txt']);
    expect([...kept.folders.keys()]).toEqual(['docs', 'photos']);
  });
});

describe('base read back at start-up', () => {
  it('keys every row as it was stored, folders too, and says whether any file is synced', () => {
    withIndex((index) => {
      index.workspaces.add(workspace('ws-1'));
      expect(index.base.hasFiles('ws-1')).toBe(false);
      const files = [baseFile(1), baseFile(2, { path: 'Résumé/ÉTÉ.PSD' }), baseFile(3, { path: 'Re\u0301sume\u0301/x.txt' })];
      index.base.putFiles('ws-1', files);
      index.base.putFolders('ws-1', [{ path: 'Résumé', folderId: 'f-1' }]);
      const loaded = index.base.load('ws-1');
      expect(loaded.files).toEqual(new Map(files.map((f) => [pathKey(f.path), f])));
      expect(loaded.folders).toEqual(new Map([[pathKey('Résumé'), { path: 'Résumé', folderId: 'f-1' }]]));
      expect(index.base.hasFiles('ws-1')).toBe(true);
      expect(index.base.countFiles('ws-1')).toBe(3);
    });
  });
});

describe('treeDifferences', () => {
  const asset = (id: string, overrides: Partial<RawAsset> = {}): RawAsset => ({
    id,
    folderId: 'f-1',
    fileName: `${id}.psd`,
    versionId: `${id}-v1`,
    versionNumber: 1,
    checksum: 'a'.repeat(64),
    size: 10,
    lockedByUserId: null,
    sequence: 5,
    ...overrides,
  });
  const tree = (assets: RawAsset[], folders: Array<{ id: string; parentId: string | null; name: string }>, sequence = '9'): RawRemoteTree => ({
    assets: new Map(assets.map((a) => [a.id, a])),
    folders: new Map(folders.map((f) => [f.id, f])),
    sequence,
    unknown: new Map(),
  });

  it('finds nothing between equal trees', () => {
    const folders = [{ id: 'f-1', parentId: null, name: 'Brand' }];
    expect(treeDifferences(tree([asset('a'), asset('b')], folders), tree([asset('b'), asset('a')], folders))).toEqual(noChanges());
  });

  it('finds every item set, changed in any field, or gone, on either side', () => {
    const kept = tree(
      [asset('same'), asset('version'), asset('lock'), asset('gone'), asset('moved')],
      [{ id: 'f-1', parentId: null, name: 'Brand' }, { id: 'f-2', parentId: null, name: 'Docs' }, { id: 'f-gone', parentId: null, name: 'Old' }],
    );
    const listed = tree(
      [asset('same'), asset('version', { versionId: 'v2', versionNumber: 2, checksum: 'b'.repeat(64), sequence: 8 }), asset('lock', { lockedByUserId: 'u-2' }), asset('moved', { folderId: 'f-2' }), asset('new')],
      [{ id: 'f-1', parentId: null, name: 'Brand' }, { id: 'f-2', parentId: 'f-1', name: 'Docs' }, { id: 'f-new', parentId: null, name: 'New' }],
    );
    const differ = treeDifferences(kept, listed);
    expect([...differ.assets].sort()).toEqual(['gone', 'lock', 'moved', 'new', 'version']);
    expect([...differ.folders].sort()).toEqual(['f-2', 'f-gone', 'f-new']);
  });
});
