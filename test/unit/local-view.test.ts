import { describe, expect, it } from 'vitest';
import { holdBack, localView } from '../../main/engine/local-view.js';
import type { ScanResult } from '../../main/local/scanner.js';
import type { BaseFile, LocalFile } from '../../main/model/views.js';

const NOW_MS = 1_800_000_000_000;
const justNow = `${BigInt(NOW_MS - 100) * 1_000_000n}`;
const longAgo = `${BigInt(NOW_MS - 60_000) * 1_000_000n}`;

const file = (path: string, mtimeNs: string, checksum = 'a'.repeat(64)): LocalFile => ({ path, size: 10, mtimeNs, ctimeNs: mtimeNs, inode: 7, checksum });
const synced = (f: LocalFile): BaseFile => ({ path: f.path, assetId: 'asset', versionId: 'v1', checksum: f.checksum, size: f.size, mtimeNs: f.mtimeNs, inode: f.inode });
const scanOf = (...files: LocalFile[]): ScanResult => ({ files: new Map(files.map((f) => [f.path.toLowerCase(), f])), folders: new Map(), skipped: [], hashed: 0, renamed: 0, stamps: null, temps: [] });
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

  describe('a synced item that now goes by a name the scan skips', () => {
    const brief = { ...file('Docs/brief.txt', longAgo), inode: 41 };
    const frame = { ...file('Shoot/frame.bin', longAgo), inode: 42 };
    const base = new Map([
      ['docs/brief.txt', synced(brief)],
      ['shoot/frame.bin', synced(frame)],
    ]);
    const baseFolders = new Map([
      ['docs', { path: 'Docs', folderId: 'f-docs', inode: 31 }],
      ['shoot', { path: 'Shoot', folderId: 'f-shoot', inode: 32 }],
    ]);
    const scanned = (skipped: ScanResult['skipped']): ScanResult => ({ ...scanOf(), folders: new Map([['docs', { path: 'Docs', inode: 31 }]]), skipped });

    it('stands as it was synced, by its inode, and is said to', () => {
      const view = localView(scanned([{ path: 'Docs/brief\\xE9.txt', reason: 'invalid_name', inode: 41 }]), base, options, baseFolders);
      expect(view.files.get('docs/brief.txt')).toMatchObject({ path: 'Docs/brief.txt', checksum: brief.checksum });
      expect(view.files.has('shoot/frame.bin')).toBe(false);
      expect(view.held).toEqual(new Map([['Docs/brief\\xE9.txt', ['Docs/brief.txt']]]));
    });

    it('as a folder, stands whole, with what was moved into it', () => {
      const view = localView(scanned([{ path: 'Sh\\x81oot', reason: 'invalid_name', inode: 32, inodesBelow: [42, 41] }]), base, options, baseFolders);
      expect([...view.files.keys()].sort()).toEqual(['docs/brief.txt', 'shoot/frame.bin']);
      expect(view.folders.get('shoot')).toEqual({ path: 'Shoot', inode: 32 });
      expect(view.held).toEqual(new Map([['Sh\\x81oot', ['Shoot', 'Docs/brief.txt']]]));
    });

    it('holds nothing for a skipped name whose inode no synced item had', () => {
      const view = localView(scanned([{ path: 'what?.txt', reason: 'invalid_name', inode: 99 }]), base, options, baseFolders);
      expect(view.files.size).toBe(0);
      expect(view.held.size).toBe(0);
    });
  });
});
