import { appendFileSync, lstatSync, readdirSync, renameSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stampOf } from '../../main/local/stamp.js';
import { placeAtFreeName, placeOver } from '../../main/sync/executor/place-file.js';
import { hardLinkDisk } from '../helpers/disk.js';

/**
 * The disks the tests place files on: this machine's, and a disk without hard links (FAT, exFAT,
 * some network shares) where one is given: scripts/test-mutation.sh mounts an exFAT image for
 * it, and test:casefold runs these tests with exFAT as the temp folder.
 */
const parents = [tmpdir()];
const noHardLinks = process.env.ASSET_SYNC_TEST_NO_HARDLINKS_DIR;
if (noHardLinks !== undefined && noHardLinks !== '') parents.push(noHardLinks);
const disks = parents.map((parent) => {
  const hardLinks = hardLinkDisk(parent);
  return { name: hardLinks ? 'a disk with hard links' : 'a disk without hard links', parent, hardLinks };
});

let dir: string;

describe.each(disks)('on $name', ({ parent, hardLinks }) => {
  beforeEach(async () => {
    dir = await mkdtemp(path.join(parent, 'place-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const at = (name: string): string => path.join(dir, name);
  const stampAt = (name: string) => stampOf(lstatSync(at(name), { bigint: true }));

  /** The download's finished temp file and, if given, the user's file at the target. */
  function world(target?: string): void {
    writeFileSync(at('.new.part'), 'version 7 from the service');
    if (target !== undefined) writeFileSync(at('hero.psd'), target);
  }

  describe('placeAtFreeName', () => {
    it('moves the file to a name nothing has', async () => {
      world();
      expect(placeAtFreeName(at('.new.part'), at('hero.psd'))).toEqual({ kind: 'placed' });
      expect(await readFile(at('hero.psd'), 'utf8')).toBe('version 7 from the service');
      expect(readdirSync(dir)).toEqual(['hero.psd']);
    });

    it('never replaces a file saved at the name at the last moment', async () => {
      world();
      const placed = placeAtFreeName(at('.new.part'), at('hero.psd'), { beforeRename: () => writeFileSync(at('hero.psd'), 'saved just now') });
      expect(placed).toEqual({ kind: 'changed' });
      expect(await readFile(at('hero.psd'), 'utf8')).toBe('saved just now');
      expect(readdirSync(dir).sort()).toEqual(['.new.part', 'hero.psd']);
    });
  });

  describe('placeOver', () => {
    it('replaces the file it was told about and leaves no second name', async () => {
      world('version 6');
      const seen = stampAt('hero.psd');
      expect(placeOver(at('.new.part'), at('hero.psd'), seen, at('.old.part'))).toEqual({ kind: 'placed' });
      expect(await readFile(at('hero.psd'), 'utf8')).toBe('version 7 from the service');
      expect(readdirSync(dir)).toEqual(['hero.psd']);
    });

    // Without hard links there is only the check and the rename: a save between them is the
    // gap that such a disk leaves (place-file.ts).
    it.runIf(hardLinks)('keeps a save written into the old file at the moment of the rename', async () => {
      world('version 6');
      const seen = stampAt('hero.psd');
      const placed = placeOver(at('.new.part'), at('hero.psd'), seen, at('.old.part'), {
        beforeRename: () => appendFileSync(at('hero.psd'), ' + the user saved this just now'),
      });
      expect(placed).toEqual({ kind: 'edited-meanwhile', keptAt: at('.old.part') });
      expect(await readFile(at('hero.psd'), 'utf8')).toBe('version 7 from the service');
      expect(await readFile(at('.old.part'), 'utf8')).toBe('version 6 + the user saved this just now');
    });

    it.runIf(hardLinks)('keeps a save that leaves the old file as long as it was', async () => {
      world('version 6');
      const seen = stampAt('hero.psd');
      const placed = placeOver(at('.new.part'), at('hero.psd'), seen, at('.old.part'), {
        beforeRename: () => {
          writeFileSync(at('hero.psd'), 'VERSION 6');
          utimesSync(at('hero.psd'), new Date(), new Date(Date.now() + 60_000));
        },
      });
      expect(placed).toEqual({ kind: 'edited-meanwhile', keptAt: at('.old.part') });
      expect(await readFile(at('.old.part'), 'utf8')).toBe('VERSION 6');
    });

    it.runIf(hardLinks)('keeps a save that leaves the old file\'s mtime as it was', async () => {
      world('version 6');
      utimesSync(at('hero.psd'), 1_700_000_000.5, 1_700_000_000.5);
      const seen = stampAt('hero.psd');
      const placed = placeOver(at('.new.part'), at('hero.psd'), seen, at('.old.part'), {
        beforeRename: () => {
          appendFileSync(at('hero.psd'), ' + more');
          utimesSync(at('hero.psd'), 1_700_000_000.5, 1_700_000_000.5);
        },
      });
      expect(placed).toEqual({ kind: 'edited-meanwhile', keptAt: at('.old.part') });
      expect(await readFile(at('.old.part'), 'utf8')).toBe('version 6 + more');
    });

    it('changes nothing when the file is no longer the one seen', async () => {
      world('version 6');
      const seen = stampAt('hero.psd');
      // A save by rename: a new file takes the name.
      writeFileSync(at('saving.tmp'), 'version 6, edited');
      renameSync(at('saving.tmp'), at('hero.psd'));
      expect(placeOver(at('.new.part'), at('hero.psd'), seen, at('.old.part'))).toEqual({ kind: 'changed' });
      expect(await readFile(at('hero.psd'), 'utf8')).toBe('version 6, edited');
      expect(readdirSync(dir).sort()).toEqual(['.new.part', 'hero.psd']);
    });

    it('changes nothing when the file was rewritten in place with its size and mtime kept', async (ctx) => {
      world('version 6');
      utimesSync(at('hero.psd'), 1_700_000_000.5, 1_700_000_000.5);
      const seen = stampAt('hero.psd');
      writeFileSync(at('hero.psd'), 'version 5');
      utimesSync(at('hero.psd'), 1_700_000_000.5, 1_700_000_000.5);
      expect(stampAt('hero.psd')).toMatchObject({ size: seen.size, mtimeNs: seen.mtimeNs, inode: seen.inode });
      // Only the change time tells this rewrite; a disk that keeps none (exFAT) cannot.
      if (stampAt('hero.psd').ctimeNs === seen.ctimeNs) ctx.skip();
      expect(placeOver(at('.new.part'), at('hero.psd'), seen, at('.old.part'))).toEqual({ kind: 'changed' });
      expect(await readFile(at('hero.psd'), 'utf8')).toBe('version 5');
      expect(readdirSync(dir).sort()).toEqual(['.new.part', 'hero.psd']);
    });

    it('changes nothing when a save by rename lands between its check and the rename', async () => {
      world('version 6');
      const seen = stampAt('hero.psd');
      const placed = placeOver(at('.new.part'), at('hero.psd'), seen, at('.old.part'), {
        afterCheck: () => {
          writeFileSync(at('saving.tmp'), 'version 6, saved just now');
          renameSync(at('saving.tmp'), at('hero.psd'));
        },
      });
      expect(placed).toEqual({ kind: 'changed' });
      expect(await readFile(at('hero.psd'), 'utf8')).toBe('version 6, saved just now');
      expect(readdirSync(dir).sort()).toEqual(['.new.part', 'hero.psd']);
    });

    it('changes nothing when the file is deleted between its check and the rename', async () => {
      world('version 6');
      const seen = stampAt('hero.psd');
      expect(placeOver(at('.new.part'), at('hero.psd'), seen, at('.old.part'), { afterCheck: () => unlinkSync(at('hero.psd')) })).toEqual({ kind: 'changed' });
      expect(readdirSync(dir)).toEqual(['.new.part']);
    });

    it('leaves the file it was to replace as it was, and no second name, when the rename fails', async () => {
      world('version 6');
      const seen = stampAt('hero.psd');
      const gone = () => unlinkSync(at('.new.part'));
      expect(() => placeOver(at('.new.part'), at('hero.psd'), seen, at('.old.part'), { beforeRename: gone })).toThrow(expect.objectContaining({ code: 'ENOENT', syscall: 'rename' }));
      expect(await readFile(at('hero.psd'), 'utf8')).toBe('version 6');
      expect(readdirSync(dir)).toEqual(['hero.psd']);
    });

    it('changes nothing when the file was deleted meanwhile', async () => {
      world('version 6');
      const seen = stampAt('hero.psd');
      unlinkSync(at('hero.psd'));
      expect(placeOver(at('.new.part'), at('hero.psd'), seen, at('.old.part'))).toEqual({ kind: 'changed' });
      expect(readdirSync(dir)).toEqual(['.new.part']);
    });
  });
});
