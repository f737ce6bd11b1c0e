import { describe, expect, it } from 'vitest';
import { holdBack, localView } from '../../main/engine/local-view.js';
import type { ScanResult } from '../../main/local/scanner.js';
import type { BaseFile, LocalFile } from '../../main/sync/model.js';

const NOW_MS = 1_800_000_000_000;
const justNow = `${BigInt(NOW_MS - 100) * 1_000_000n}`;
const longAgo = `${BigInt(NOW_MS - 60_000) * 1_000_000n}`;

const file = (path: string, mtimeNs: string, checksum = 'a'.repeat(64)): LocalFile => ({ path, size: 10, mtimeNs, ctimeNs: mtimeNs, inode: 7, checksum });
const synced = (f: LocalFile): BaseFile => ({ path: f.path, assetId: 'asset', versionId: 'v1', checksum: f.checksum, size: f.size, mtimeNs: f.mtimeNs, inode: f.inode });
const scanOf = (...files: LocalFile[]): ScanResult => ({ files: new Map(files.map((f) => [f.path.toLowerCase(), f])), folders: new Map(), skipped: [], hashed: 0, renamed: 0 });
const options = { nowMs: NOW_MS, quietMs: 2000, excludedKeys: new Set<string>() };

describe('localView', () => {
  it('lets a file the engine has just written through at once: it is exactly as last synced', () => {
    const downloaded = file('hero.psd', justNow);
    const view = localView(scanOf(downloaded), new Map([['hero.psd', synced(downloaded)]]), options);
    expect(view.waiting).toEqual([]);
    expect(view.files.get('hero.psd')).toEqual(downloaded);
  });

  it('holds back a file changed within the quiet period', () => {
    const before = file('hero.psd', longAgo);
    const editing = file('hero.psd', justNow, 'b'.repeat(64));
    const view = localView(scanOf(editing), new Map([['hero.psd', synced(before)]]), options);
    expect(view.waiting).toEqual(['hero.psd']);
    expect(view.files.has('hero.psd')).toBe(false);
  });

  it('holds back a brand-new file still being written', () => {
    const view = localView(scanOf(file('new.png', justNow)), new Map(), options);
    expect(view.waiting).toEqual(['new.png']);
  });

  it('lets a just-downloaded file through after a rename: same inode, size and mtime is the synced file moved', () => {
    const downloaded = file('Photography/a.jpg', justNow);
    const renamed = { ...downloaded, path: 'Photos/a.jpg' };
    const view = localView(scanOf(renamed), new Map([['photography/a.jpg', synced(downloaded)]]), options);
    expect(view.waiting).toEqual([]);
    expect(view.files.get('photos/a.jpg')).toEqual(renamed);
  });

  it('holds back the old path of a synced file that was moved and is still being written', () => {
    const before = file('Photography/a.jpg', longAgo);
    const editing = { ...file('Photos/a.jpg', justNow, 'b'.repeat(64)), inode: before.inode };
    const base = new Map([['photography/a.jpg', synced(before)]]);
    const view = localView(scanOf(editing), base, options);
    expect(view.waiting).toEqual(['Photos/a.jpg']);
    const settled = holdBack(view.waiting, { base, remote: new Map() }, { base: new Map(), remote: new Map() }, view.waitingInodes);
    expect(settled.base.has('photography/a.jpg')).toBe(false);
  });
});
