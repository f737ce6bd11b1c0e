import { mkdirSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathEscapeError } from '../../main/local/paths.js';
import { WritableFolders } from '../../main/local/writable-folders.js';
import { symlinkDisk } from '../helpers/disk.js';

describe.runIf(symlinkDisk)('WritableFolders', () => {
  let base: string;
  let root: string;
  let outside: string;

  beforeEach(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'writable-')));
    root = path.join(base, 'root');
    outside = path.join(base, 'outside');
    mkdirSync(path.join(root, 'real', 'deep'), { recursive: true });
    mkdirSync(path.join(outside, 'deep'), { recursive: true });
    writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    symlinkSync(outside, path.join(root, 'out'), 'dir');
    symlinkSync(path.join(root, 'real'), path.join(root, 'in'), 'dir');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'secret.txt'));
  });

  afterEach(() => {
    rmSync(base, { recursive: true, force: true });
  });

  it('accepts paths whose folders stay inside the root, existing or not, and a root reached through a symlink', () => {
    const folders = new WritableFolders(root);
    for (const rel of ['a.txt', 'real/a.txt', 'real/deep/a.txt', 'new/deep/a.txt', 'in/a.txt', 'in/deep/a.txt']) {
      expect(() => folders.check(path.join(root, rel)), rel).not.toThrow();
      expect(() => folders.check(path.join(root, rel)), `${rel}, again`).not.toThrow();
    }
    const alias = path.join(base, 'alias');
    symlinkSync(root, alias, 'dir');
    expect(() => new WritableFolders(alias).check(path.join(alias, 'real', 'deep', 'a.txt'))).not.toThrow();
  });

  it('rejects symlinks, folders leading out and paths outside the root', () => {
    const folders = new WritableFolders(root);
    expect(() => folders.check(path.join(root, 'secret.txt'))).toThrow('path is a symbolic link');
    expect(() => folders.check(path.join(root, 'out', 'a.txt'))).toThrow(PathEscapeError);
    expect(() => folders.check(path.join(root, 'out', 'deep', 'a.txt'))).toThrow(PathEscapeError);
    expect(() => folders.check(path.join(root, 'out', 'new', 'a.txt'))).toThrow(PathEscapeError);
    expect(() => folders.check(path.join(outside, 'x.txt'))).toThrow('path is outside the root');
  });

  it('refuses the real path of a root given through a symlink: only paths spelled under the root given are inside', () => {
    const alias = path.join(base, 'alias');
    symlinkSync(root, alias, 'dir');
    const folders = new WritableFolders(alias);
    expect(() => folders.check(path.join(alias, 'real', 'a.txt'))).not.toThrow();
    expect(() => folders.check(path.join(root, 'real', 'a.txt'))).toThrow('path is outside the root');
    expect(() => folders.check(path.join(root, 'real', 'deep', 'a.txt'))).toThrow('path is outside the root');
  });

  it('takes a folder it knew that is gone since for a missing one, and one made again for a new one', () => {
    const folders = new WritableFolders(root);
    const file = path.join(root, 'real', 'deep', 'a.txt');
    expect(() => folders.check(file)).not.toThrow();
    rmSync(path.join(root, 'real'), { recursive: true });
    expect(() => folders.check(file)).not.toThrow();
    symlinkSync(outside, path.join(root, 'real'), 'dir');
    expect(() => folders.check(file)).toThrow(PathEscapeError);
    rmSync(path.join(root, 'real'));
    mkdirSync(path.join(root, 'real', 'deep'), { recursive: true });
    expect(() => folders.check(file)).not.toThrow();
  });

  it.runIf(process.platform === 'linux')('leaves no folder open behind it', () => {
    const folders = new WritableFolders(root);
    const open = (): number => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 20; i += 1) {
      mkdirSync(path.join(root, 'many', `f${i}`), { recursive: true });
      folders.check(path.join(root, 'many', `f${i}`, 'a.txt'));
    }
    expect(() => folders.check(path.join(root, 'out', 'deep', 'a.txt'))).toThrow(PathEscapeError);
    expect(open()).toBe(before);
  });

  it('refuses a folder it knew once it, or one above it, is swapped for a symlink leading out', () => {
    for (const swapped of ['real', 'real/deep']) {
      const folders = new WritableFolders(root);
      expect(() => folders.check(path.join(root, 'real', 'deep', 'a.txt'))).not.toThrow();
      renameSync(path.join(root, swapped), path.join(root, 'kept'));
      symlinkSync(outside, path.join(root, swapped), 'dir');
      expect(() => folders.check(path.join(root, 'real', 'deep', 'a.txt')), swapped).toThrow(PathEscapeError);
      rmSync(path.join(root, swapped));
      renameSync(path.join(root, 'kept'), path.join(root, swapped));
      // Back as it was: the same folder passes again.
      expect(() => folders.check(path.join(root, 'real', 'deep', 'a.txt')), `${swapped} restored`).not.toThrow();
    }
  });
});
