import { describe, expect, it } from 'vitest';
import { pathKey } from '../../main/local/paths.js';
import { UnknownWorkspaceError } from '../../main/index/workspaces.js';
import type { BaseFile, LocalFile, RemoteFile, RemoteFolder } from '../../main/model/views.js';
import { baseFile, checksumOf, remoteFile, useTempIndex, workspace } from './index-fixtures.js';

const { withIndex } = useTempIndex();


describe('workspaces', () => {
  it('round-trip every field across reopen', () => {
    withIndex((index) => {
      const added = index.workspaces.add(workspace('ws-1'));
      expect(added).toMatchObject({ sequence: null, lastFullListingAt: null, excludedPaths: [], paused: false });
      index.workspaces.add({ ...workspace('ws-2'), excludedPaths: ['Archive'], paused: true });
      index.workspaces.update('ws-1', { name: 'Brand', excludedPaths: ['Raw footage', 'Old/2019'], paused: true });
      index.remote.replaceAll('ws-1', { folders: [], files: [], sequence: '1532' }, 1_700_000_000_000);
    });

    withIndex((index) => {
      expect(index.workspaces.get('ws-1')).toEqual({
        id: 'ws-1',
        accountId: 'acct-1',
        name: 'Brand',
        localPath: '/home/ana/Asset Sync/ws-1',
        sequence: '1532',
        lastFullListingAt: 1_700_000_000_000,
        excludedPaths: ['Raw footage', 'Old/2019'],
        paused: true,
      });
      expect(index.workspaces.list().map((w) => w.id)).toEqual(['ws-1', 'ws-2']);
      expect(index.workspaces.update('ws-1', { paused: false }).paused).toBe(false);
      expect(() => index.workspaces.update('nope', { paused: false })).toThrow(UnknownWorkspaceError);
    });
  });

  it('refuse two workspaces in one local folder', () => {
    withIndex((index) => {
      index.workspaces.add(workspace('ws-1'));
      expect(() => index.workspaces.add({ ...workspace('ws-2'), localPath: workspace('ws-1').localPath })).toThrow(/UNIQUE/);
    });
  });

  it('take everything they own with them when removed', () => {
    withIndex((index) => {
      index.workspaces.add(workspace('ws-1'));
      index.workspaces.add(workspace('ws-2'));
      for (const ws of ['ws-1', 'ws-2']) {
        index.base.putFiles(ws, [baseFile(1)]);
        index.remote.replaceAll(ws, { folders: [], files: [remoteFile(1)], sequence: '5' });
        index.hashCache(ws).put('a.txt', { size: 1, mtimeNs: '1', inode: 1, checksum: checksumOf(1) });
        index.journal.begin({ workspaceId: ws, kind: 'upload', path: 'a.txt' });
        index.errors.record(ws, 'a.txt', { message: 'failed' });
        index.activity.add({ workspaceId: ws, kind: 'upload', message: 'Uploaded a.txt' });
      }

      index.workspaces.remove('ws-1');

      expect(index.base.load('ws-1').files.size).toBe(0);
      expect(index.remote.load('ws-1').files.size).toBe(0);
      expect(index.hashCache('ws-1').get('a.txt')).toBeUndefined();
      expect(index.journal.open('ws-1')).toEqual([]);
      expect(index.errors.list('ws-1')).toEqual([]);
      expect(index.activity.list({ workspaceId: 'ws-1' })).toEqual([]);
      // The other workspace keeps its rows.
      expect(index.base.load('ws-2').files.size).toBe(1);
      expect(index.journal.open('ws-2')).toHaveLength(1);
    });
  });
});

describe('remote state', () => {
  const folders: RemoteFolder[] = [
    { path: 'Brand', folderId: 'folder-brand', parentId: null },
    { path: 'Brand/Logos', folderId: 'folder-logos', parentId: 'folder-brand' },
  ];

  it('replaces everything with a full listing and moves the cursor with it', () => {
    withIndex((index) => {
      index.workspaces.add(workspace());
      index.remote.replaceAll('ws-1', { folders, files: [remoteFile(1), remoteFile(2)], sequence: '10' }, 1000);
      index.remote.replaceAll('ws-1', { folders: folders.slice(0, 1), files: [remoteFile(3)], sequence: '20' }, 2000);
    });

    withIndex((index) => {
      const tree = index.remote.load('ws-1');
      expect([...tree.files.values()]).toEqual([remoteFile(3)]);
      expect(tree.folders).toEqual(new Map([['brand', folders[0]]]));
      expect(index.workspaces.get('ws-1')).toMatchObject({ sequence: '20', lastFullListingAt: 2000 });
    });
  });

  it('applies a changes feed incrementally without touching the listing time', () => {
    withIndex((index) => {
      index.workspaces.add(workspace());
      index.remote.replaceAll('ws-1', { folders, files: [remoteFile(1), remoteFile(2)], sequence: '10' }, 1000);

      const edited: RemoteFile = remoteFile(1, {
        versionId: 'version-1b',
        versionNumber: 2,
        checksum: checksumOf(99),
        size: 7,
        lockedByUserId: 'user-bob',
        sequence: 11,
      });
      const renamed: RemoteFolder = { path: 'Brand/Logos 2024', folderId: 'folder-logos', parentId: 'folder-brand' };
      index.remote.applyChanges('ws-1', {
        files: [edited, remoteFile(3)],
        folders: [renamed],
        deletedAssetIds: ['asset-2'],
        sequence: '14',
      });

      const tree = index.remote.load('ws-1');
      expect(tree.files.get(pathKey(edited.path))).toEqual(edited);
      expect(tree.files.has(pathKey(remoteFile(2).path))).toBe(false);
      expect(tree.files.size).toBe(2);
      expect(tree.folders.get('brand/logos 2024')).toEqual(renamed);
      expect(index.remote.getFile('ws-1', 'asset-1')).toEqual(edited);
      expect(index.remote.getFolder('ws-1', 'folder-logos')).toEqual(renamed);
      expect(index.workspaces.get('ws-1')).toMatchObject({ sequence: '14', lastFullListingAt: 1000 });

      index.remote.applyChanges('ws-1', { deletedFolderIds: ['folder-logos'], sequence: '15' });
      expect(index.remote.getFolder('ws-1', 'folder-logos')).toBeUndefined();
    });
  });

  it('applies a batch all or nothing', () => {
    withIndex((index) => {
      index.workspaces.add(workspace());
      index.remote.replaceAll('ws-1', { folders, files: [remoteFile(1)], sequence: '10' });
      function* failingFiles(): Generator<RemoteFile> {
        yield remoteFile(2);
        throw new Error('page parse failed');
      }

      expect(() => index.remote.applyChanges('ws-1', { files: failingFiles(), deletedAssetIds: ['asset-1'], sequence: '12' })).toThrow(
        'page parse failed',
      );
      expect([...index.remote.load('ws-1').files.values()]).toEqual([remoteFile(1)]);
      expect(index.workspaces.get('ws-1')?.sequence).toBe('10');
    });
  });

  it('rejects state for a workspace it does not know', () => {
    withIndex((index) => {
      expect(() => index.remote.replaceAll('ghost', { folders: [], files: [], sequence: '1' })).toThrow(UnknownWorkspaceError);
      expect(() => index.remote.applyChanges('ghost', { sequence: '1' })).toThrow(UnknownWorkspaceError);
    });
  });

  it('stores a full listing of 100,000 assets and loads it back keyed by path', () => {
    const count = 100_000;
    withIndex((index) => {
      index.workspaces.add(workspace());
      function* files(): Generator<RemoteFile> {
        for (let i = 0; i < count; i++) yield remoteFile(i, { path: `Brand/Shoot ${i % 100}/IMG_${i}.JPG` });
      }
      index.remote.replaceAll('ws-1', { folders, files: files(), sequence: '200000' });
    });

    withIndex((index) => {
      const tree = index.remote.load('ws-1');
      expect(tree.files.size).toBe(count);
      expect(tree.files.get('brand/shoot 42/img_4242.jpg')).toEqual(remoteFile(4242, { path: 'Brand/Shoot 42/IMG_4242.JPG' }));
    });
  });
});

describe('synced base', () => {
  it('round-trips files and folders, keyed by pathKey', () => {
    const file = baseFile(1, { path: 'Café/Ünïcode.PSD', inode: 2 ** 52 + 3, size: 2 ** 40 });
    withIndex((index) => {
      index.workspaces.add(workspace());
      index.base.putFile('ws-1', file);
      index.base.putFolders('ws-1', [
        { path: 'Café', folderId: 'f-1' },
        { path: 'Café/Old', folderId: 'f-2' },
      ]);
    });

    withIndex((index) => {
      const tree = index.base.load('ws-1');
      expect(tree.files).toEqual(new Map([[pathKey(file.path), file]]));
      expect(tree.folders.get('café/old')).toEqual({ path: 'Café/Old', folderId: 'f-2' });
      // Lookups are by key: another case or normalisation finds the same row.
      expect(index.base.getFile('ws-1', 'CAFE\u0301/ünïcode.psd')).toEqual(file);
      expect(index.base.getFolder('ws-1', 'café')).toEqual({ path: 'Café', folderId: 'f-1' });
    });
  });

  it('loads the same rows when given the views of the cycle to share strings with', () => {
    const files = Array.from({ length: 40 }, (_, i) => baseFile(i, { path: i % 3 === 0 ? `Brand/Logo-${i}.PSD` : `brand/logo-${i}.psd` }));
    withIndex((index) => {
      index.workspaces.add(workspace());
      index.base.putFiles('ws-1', files);
    });
    withIndex((index) => {
      const plain = index.base.load('ws-1');
      // Views that agree on some values and differ on others, the way a cycle with changes does.
      const remote = new Map(files.map((f, i) => [pathKey(f.path), remoteFile(i, { path: i % 2 ? f.path : `${f.path}.moved`, versionId: i % 5 ? `version-${i}` : 'newer' })]));
      const local = new Map(
        files.map((f, i): [string, LocalFile] => [pathKey(f.path), { path: i % 4 ? f.path : f.path.toUpperCase(), size: f.size, mtimeNs: i % 6 ? f.mtimeNs : '1', ctimeNs: '1', inode: f.inode, checksum: i % 7 ? f.checksum : checksumOf(999) }]),
      );
      expect(index.base.load('ws-1', { remote, local })).toEqual(plain);
      expect(plain.files.size).toBe(40);
    });
  });

  it('replaces the row on a case-only rename instead of keeping two', () => {
    withIndex((index) => {
      index.workspaces.add(workspace());
      index.base.putFile('ws-1', baseFile(1, { path: 'Report.pdf' }));
      index.base.putFile('ws-1', baseFile(1, { path: 'report.pdf', versionId: 'v2' }));

      const files = [...index.base.load('ws-1').files.values()];
      expect(files).toEqual([baseFile(1, { path: 'report.pdf', versionId: 'v2' })]);
      index.base.deleteFile('ws-1', 'REPORT.PDF');
      expect(index.base.load('ws-1').files.size).toBe(0);
    });
  });

  it('deletes a folder with everything below it, and nothing beside it', () => {
    withIndex((index) => {
      index.workspaces.add(workspace());
      const paths = ['Brand/a.psd', 'Brand/Logos/b.psd', 'Brand 2/c.psd', 'Brand_x/d.psd', 'Brandy.psd', 'Brand%/e.psd'];
      index.base.putFiles(
        'ws-1',
        paths.map((p, i) => baseFile(i, { path: p })),
      );
      index.base.putFolders('ws-1', [
        { path: 'Brand', folderId: 'f-1' },
        { path: 'Brand/Logos', folderId: 'f-2' },
        { path: 'Brand 2', folderId: 'f-3' },
      ]);

      index.base.deleteTree('ws-1', 'brand');

      const tree = index.base.load('ws-1');
      expect([...tree.files.values()].map((f) => f.path).sort()).toEqual(['Brand 2/c.psd', 'Brand%/e.psd', 'Brand_x/d.psd', 'Brandy.psd']);
      expect([...tree.folders.values()].map((f) => f.path)).toEqual(['Brand 2']);
    });
  });

  it('writes and loads the base of 100,000 files', () => {
    const count = 100_000;
    function* files(): Generator<BaseFile> {
      for (let i = 0; i < count; i++) yield baseFile(i, { path: `Projects/P${i % 250}/Frame ${i}.exr` });
    }
    withIndex((index) => {
      index.workspaces.add(workspace());
      index.base.putFiles('ws-1', files());
    });

    withIndex((index) => {
      const tree = index.base.load('ws-1');
      expect(tree.files.size).toBe(count);
      expect(tree.files.get('projects/p7/frame 99757.exr')).toEqual(baseFile(99_757, { path: 'Projects/P7/Frame 99757.exr' }));
    });
  });

  it('commits several writes together in one transaction, or none of them', () => {
    withIndex((index) => {
      index.workspaces.add(workspace());
      const op = index.journal.begin({ workspaceId: 'ws-1', kind: 'download', path: 'a.psd' });

      expect(() =>
        index.transaction(() => {
          index.base.putFiles('ws-1', [baseFile(1, { path: 'a.psd' })]);
          index.journal.finish(op.id);
          throw new Error('disk full');
        }),
      ).toThrow('disk full');
      expect(index.base.getFile('ws-1', 'a.psd')).toBeUndefined();
      expect(index.journal.open('ws-1')).toHaveLength(1);

      index.transaction(() => {
        index.base.putFiles('ws-1', [baseFile(1, { path: 'a.psd' })]);
        index.journal.finish(op.id);
      });
      expect(index.base.getFile('ws-1', 'a.psd')).toEqual(baseFile(1, { path: 'a.psd' }));
      expect(index.journal.open('ws-1')).toEqual([]);
    });
  });
});

describe('hash cache', () => {
  it('implements the scanner HashCache per workspace and survives reopen', () => {
    const entry = { size: 42, mtimeNs: '1700000000123456789', inode: 9_007_199_254_740_000, checksum: checksumOf(7) };
    withIndex((index) => {
      index.workspaces.add(workspace('ws-1'));
      index.workspaces.add(workspace('ws-2'));
      const cache = index.hashCache('ws-1');
      cache.put('brand/a.psd', entry);
      cache.put('brand/b.psd', { ...entry, checksum: checksumOf(8) });
      cache.put('brand/b.psd', { ...entry, size: 43, checksum: checksumOf(9) });
      cache.delete('brand/a.psd');
      index.hashCache('ws-2').put('brand/a.psd', entry);
    });

    withIndex((index) => {
      const cache = index.hashCache('ws-1');
      expect(cache.get('brand/a.psd')).toBeUndefined();
      expect(cache.get('brand/b.psd')).toEqual({ ...entry, size: 43, checksum: checksumOf(9) });
      expect(index.hashCache('ws-2').get('brand/a.psd')).toEqual(entry);
    });
  });

  it('loads the same entries when given the remote files to share strings with', async () => {
    const entries = Array.from({ length: 30 }, (_, i) => [`shots/${i}.jpg`, { size: i, mtimeNs: `${1_700_000_000_000_000_000n + BigInt(i)}`, inode: i + 1, checksum: checksumOf(i) }] as const);
    withIndex((index) => {
      index.workspaces.add(workspace());
      index.hashCache('ws-1').putMany(entries);
    });
    // Thirty rows are one page: read before the index closes.
    const plain = new Map(await withIndex((index) => index.hashCache('ws-1').loadAll()));
    const remote = new Map(entries.map(([key], i) => [key, { path: i % 2 ? key : key.toUpperCase(), checksum: checksumOf(i % 3 ? i : 500) }]));
    const shared = new Map(await withIndex((index) => index.hashCache('ws-1', remote).loadAll()));
    expect(plain.size).toBe(30);
    expect(shared).toEqual(plain);
  });

  it('writes a whole scan in one batch', () => {
    withIndex((index) => {
      index.workspaces.add(workspace());
      const cache = index.hashCache('ws-1');
      const entries = Array.from({ length: 100_000 }, (_, i) => [
        `shots/${i}.jpg`,
        { size: i, mtimeNs: `${1_700_000_000_000_000_000n + BigInt(i)}`, inode: i + 1, checksum: checksumOf(i) },
      ] as const);
      cache.putMany(entries);

      expect(cache.get('shots/99999.jpg')).toEqual(entries[99_999]?.[1]);
      expect(cache.get('shots/0.jpg')).toEqual(entries[0]?.[1]);
    });
  });
});
