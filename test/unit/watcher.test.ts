import { renameSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIgnoreMatcher } from '../../main/local/ignore.js';
import { readStamp } from '../../main/local/stamp.js';
import { type TreeWatcher, watchTree } from '../../main/local/watcher.js';

let dir: string;
let watcher: TreeWatcher;
let batches: Set<string>[];
const seen = (): string[] => batches.flatMap((b) => [...b]);
const waitUntilSeen = (rel: string) => vi.waitFor(() => expect(seen()).toContain(rel), { timeout: 10_000, interval: 25 });

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'watch-'));
  await writeFile(path.join(dir, 'existing.txt'), 'v1');
  batches = [];
  watcher = watchTree(dir, { ignore: createIgnoreMatcher(), debounceMs: 50, onChanges: (paths) => batches.push(paths) });
  await watcher.ready;
});

afterEach(async () => {
  await watcher.close();
  await rm(dir, { recursive: true, force: true });
});

describe('watchTree', () => {
  it('reports a new file, in a new folder too', async () => {
    await writeFile(path.join(dir, 'new.txt'), 'hello');
    await waitUntilSeen('new.txt');
    await mkdir(path.join(dir, 'Brand'));
    await writeFile(path.join(dir, 'Brand', 'hero.psd'), 'x');
    await waitUntilSeen('Brand/hero.psd');
    expect(seen()).toContain('Brand');
  });

  it('reports a change to an existing file', async () => {
    await appendFile(path.join(dir, 'existing.txt'), ' and v2');
    await waitUntilSeen('existing.txt');
  });

  it('reports a deletion', async () => {
    await rm(path.join(dir, 'existing.txt'));
    await waitUntilSeen('existing.txt');
  });

  it('leaves out ignored paths', async () => {
    await writeFile(path.join(dir, '.DS_Store'), 'x');
    await writeFile(path.join(dir, '.assetsync-0123.part'), 'x');
    await writeFile(path.join(dir, 'after.txt'), 'x');
    await waitUntilSeen('after.txt');
    await writeFile(path.join(dir, 'sentinel.txt'), 'x');
    await waitUntilSeen('sentinel.txt');
    expect(seen()).not.toContain('.DS_Store');
    expect(seen()).not.toContain('.assetsync-0123.part');
  });

  it('does not report anything inside an ignored folder', async () => {
    await mkdir(path.join(dir, '.Trashes'));
    await writeFile(path.join(dir, '.Trashes', 'old.psd'), 'x');
    await writeFile(path.join(dir, 'sentinel.txt'), 'x');
    await waitUntilSeen('sentinel.txt');
    await writeFile(path.join(dir, '.Trashes', 'older.psd'), 'x');
    await writeFile(path.join(dir, 'sentinel2.txt'), 'x');
    await waitUntilSeen('sentinel2.txt');
    expect(seen().filter((p) => p.startsWith('.Trashes'))).toEqual([]);
  });

  it('drops the events of suppressed paths, compared by key', async () => {
    watcher.suppress('Downloads/Hero.PSD', 60_000);
    await mkdir(path.join(dir, 'Downloads'));
    // Files written before the watcher watches a new folder count as already there (the engine's
    // scan on the folder event finds them): wait for the folder first.
    await waitUntilSeen('Downloads');
    await writeFile(path.join(dir, 'Downloads', 'hero.psd'), 'downloaded');
    await writeFile(path.join(dir, 'Downloads', 'user-edit.txt'), 'x');
    await waitUntilSeen('Downloads/user-edit.txt');
    await writeFile(path.join(dir, 'sentinel.txt'), 'x');
    await waitUntilSeen('sentinel.txt');
    expect(seen()).not.toContain('Downloads/hero.psd');
  });

  it('drops the events of a file put in place with its stamp, but not a save made right after', async () => {
    // What a download does: the bytes go to a temp file, renamed into place; the stamp the
    // rename left (it moves the ctime) is suppressed before the watcher's events come in.
    const temp = path.join(dir, '.assetsync-00000000000000ab.part');
    await writeFile(temp, 'version 7');
    renameSync(temp, path.join(dir, 'hero.psd'));
    watcher.suppress('hero.psd', 60_000, await readStamp(path.join(dir, 'hero.psd')));
    await writeFile(path.join(dir, 'sentinel.txt'), 'x');
    await waitUntilSeen('sentinel.txt');
    expect(seen()).not.toContain('hero.psd');

    // The user saves it a moment later, within the window: that is their edit.
    await appendFile(path.join(dir, 'hero.psd'), ', retouched');
    await waitUntilSeen('hero.psd');
  });

  it('counts every event it receives, those it suppresses too: an own write is still a change on disk', async () => {
    expect(watcher.trusted()).toBe(true);
    const before = watcher.seen();
    watcher.suppress('quiet.txt', 60_000);
    await writeFile(path.join(dir, 'quiet.txt'), 'written by the engine');
    await vi.waitFor(() => expect(watcher.seen()).toBeGreaterThan(before), { timeout: 10_000, interval: 25 });
    expect(seen()).not.toContain('quiet.txt');
  });

  it('is not trusted before it is ready, nor once closed', async () => {
    const other = watchTree(dir, { ignore: createIgnoreMatcher(), onChanges: () => undefined });
    expect(other.trusted()).toBe(false);
    await other.ready;
    expect(other.trusted()).toBe(true);
    await other.close();
    expect(other.trusted()).toBe(false);
  });

  it('tells of a change to the ignore rules, and trusts itself no more: it filters by the rules it started with', async () => {
    await writeFile(path.join(dir, '.assetsyncignore'), '*.psd\n');
    await waitUntilSeen('.assetsyncignore');
    expect(watcher.trusted()).toBe(false);
  });
  it('watches a folder tree made at once, and reports what is written deep in it later', async () => {
    await mkdir(path.join(dir, 'Shots', 'Day 1', 'Raw'), { recursive: true });
    await waitUntilSeen('Shots');
    await writeFile(path.join(dir, 'Shots', 'Day 1', 'Raw', 'take.mov'), 'x');
    await waitUntilSeen('Shots/Day 1/Raw/take.mov');
  });

  it('follows a folder renamed with folders in it: a later change inside is told under the new name', async () => {
    await mkdir(path.join(dir, 'Old', 'Sub'), { recursive: true });
    await writeFile(path.join(dir, 'Old', 'Sub', 'a.txt'), 'x');
    await waitUntilSeen('Old/Sub/a.txt');
    await rename(path.join(dir, 'Old'), path.join(dir, 'New'));
    await waitUntilSeen('New');
    expect(seen()).toContain('Old');
    await appendFile(path.join(dir, 'New', 'Sub', 'a.txt'), ' edited');
    await waitUntilSeen('New/Sub/a.txt');
    await writeFile(path.join(dir, 'New', 'Sub', 'b.txt'), 'x');
    await waitUntilSeen('New/Sub/b.txt');
  });

  it('watches a folder tree moved in from outside, and reports the files it brought', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'watch-outside-'));
    try {
      await mkdir(path.join(outside, 'Kit', 'Textures'), { recursive: true });
      await writeFile(path.join(outside, 'Kit', 'Textures', 'wood.png'), 'x');
      await rename(path.join(outside, 'Kit'), path.join(dir, 'Kit'));
      await waitUntilSeen('Kit');
      await writeFile(path.join(dir, 'Kit', 'Textures', 'stone.png'), 'x');
      await waitUntilSeen('Kit/Textures/stone.png');
      expect(seen()).toContain('Kit/Textures/wood.png');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('reports every file of a burst of 5,000 made at once', async () => {
    await mkdir(path.join(dir, 'Burst'));
    await waitUntilSeen('Burst');
    const names = Array.from({ length: 5000 }, (_, i) => `Burst/f${i}.txt`);
    for (let i = 0; i < names.length; i += 500) await Promise.all(names.slice(i, i + 500).map((n) => writeFile(path.join(dir, n), 'x')));
    await vi.waitFor(
      () => {
        const told = new Set(seen());
        expect(names.filter((n) => !told.has(n))).toEqual([]);
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(watcher.trusted()).toBe(true);
  });

  it('does not follow a symbolic link to a folder outside', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'watch-outside-'));
    try {
      await symlink(outside, path.join(dir, 'link'));
      await waitUntilSeen('link');
      await writeFile(path.join(outside, 'far.txt'), 'x');
      await writeFile(path.join(dir, 'sentinel.txt'), 'x');
      await waitUntilSeen('sentinel.txt');
      expect(seen().filter((p) => p.startsWith('link/'))).toEqual([]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('tells when the watched folder itself goes away, and vouches for it no more', async () => {
    await rm(dir, { recursive: true, force: true });
    await waitUntilSeen('');
    expect(watcher.trusted()).toBe(false);
  });
});
