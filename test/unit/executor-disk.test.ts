/**
 * The executor's way to every path it writes (executor/disk.ts), on a real disk: writablePath
 * gives a path inside the root with no symlink leading out, and ensureParent creates missing
 * folders there only, telling the watcher about the folders it made and no others. Folder
 * depths and names come from fast-check, which prints the seed of a failing run.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathEscapeError } from '../../main/local/paths.js';
import type { ExecutorDeps } from '../../main/sync/executor/context.js';
import { ensureParent, writablePath } from '../../main/sync/executor/disk.js';
import { symlinkDisk } from '../helpers/disk.js';

describe.runIf(symlinkDisk)('executor disk access', () => {
  let base: string;
  let root: string;
  let outside: string;
  let suppressed: string[];
  /** What ensureParent reads: the root, and the watcher's suppress callback. */
  let deps: ExecutorDeps;

  beforeEach(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'executor-disk-')));
    root = path.join(base, 'root');
    outside = path.join(base, 'outside');
    mkdirSync(path.join(root, 'real'), { recursive: true });
    mkdirSync(outside);
    symlinkSync(outside, path.join(root, 'out'), 'dir');
    symlinkSync(path.join(root, 'real'), path.join(root, 'in'), 'dir');
    writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'secret.txt'));
    suppressed = [];
    deps = { root, suppress: (rel: string) => void suppressed.push(rel) } as Partial<ExecutorDeps> as ExecutorDeps;
  });

  afterEach(() => {
    rmSync(base, { recursive: true, force: true });
  });

  it('gives the root itself as the user put it, even reached through a symlink', async () => {
    await expect(writablePath(deps, '')).resolves.toBe(root);
    const alias = path.join(base, 'alias');
    symlinkSync(root, alias, 'dir');
    await expect(writablePath({ root: alias }, '')).resolves.toBe(alias);
    await expect(writablePath({ root: alias }, 'real/a.txt')).resolves.toBe(path.join(alias, 'real', 'a.txt'));
  });

  it('gives paths inside the root, and refuses symlinks, folders leading out and paths climbing out', async () => {
    await expect(writablePath(deps, 'real/a.txt')).resolves.toBe(path.join(root, 'real', 'a.txt'));
    await expect(writablePath(deps, 'new/deep/a.txt')).resolves.toBe(path.join(root, 'new', 'deep', 'a.txt'));
    await expect(writablePath(deps, 'secret.txt')).rejects.toThrow('path is a symbolic link');
    await expect(writablePath(deps, 'real/../secret.txt')).rejects.toThrow(PathEscapeError);
    await expect(writablePath(deps, 'out/a.txt')).rejects.toThrow(PathEscapeError);
    await expect(writablePath(deps, 'out/new/a.txt')).rejects.toThrow(PathEscapeError);
    await expect(writablePath(deps, '../x')).rejects.toThrow(PathEscapeError);
  });

  it('creates the missing folders above a path, at any depth, and tells the watcher', async () => {
    const name = fc.string({ unit: fc.constantFrom('a', 'B', 'é', ' x', '-'), minLength: 1, maxLength: 5 });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(name, { minLength: 1, maxLength: 5 }), async (folders) => {
        const parent = [`run${(run += 1)}`, ...folders].join('/');
        await ensureParent(deps, `${parent}/file.txt`);
        expect(lstatSync(path.join(root, parent)).isDirectory()).toBe(true);
        expect(suppressed.at(-1)).toBe(parent);
      }),
      { numRuns: 30 },
    );
  });

  it('leaves a real folder as it is, and a file at the top level, without telling the watcher', async () => {
    await ensureParent(deps, 'real/a.txt');
    await ensureParent(deps, 'a.txt');
    expect(suppressed).toEqual([]);
  });

  it('creates no folder through a symlink, leading out or not, and tells the watcher nothing', async () => {
    await expect(ensureParent(deps, 'out/new/a.txt')).rejects.toThrow(PathEscapeError);
    expect(existsSync(path.join(outside, 'new'))).toBe(false);
    await expect(ensureParent(deps, 'in/a.txt')).rejects.toThrow('path is a symbolic link');
    await expect(ensureParent(deps, 'secret.txt/a.txt')).rejects.toThrow('path is a symbolic link');
    await expect(ensureParent(deps, '../x/a.txt')).rejects.toThrow(PathEscapeError);
    expect(suppressed).toEqual([]);
  });
});
