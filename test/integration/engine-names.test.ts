/**
 * Hostile names from the service: every asset lands exactly once, under a name every OS
 * accepts, inside the sync root; nothing is written elsewhere, and the safe local names do not
 * flow back as renames or new assets.
 */
import { readdir, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseInsensitiveDisk } from '../helpers/disk.js';
import { nameProblem } from '../../service/domain/names.js';
import { idle, localChecksums, remoteChecksums, remoteFiles, sha256, walkFiles, worlds, type World } from '../helpers/engine.js';

const world = worlds();

const HOSTILE_FOLDERS = ['PRN', 'a:b?', '..\\..\\outside', 'dir.', ' lead', '..%2F..%2F'];
const HOSTILE_FILES = [
  '...',
  '..%2F..%2Fescape.txt',
  '..\\..\\..\\escape.txt',
  'CON',
  'con.txt',
  'aux',
  'LPT1.log',
  'a:b?.txt',
  'a|b<c>"d".txt',
  'trailing.',
  'trailing ',
  'tab\tand\nnewline.txt',
  'invoice\u202Efdp.exe',
  `${'é'.repeat(150)}.png`,
  `${'🎨'.repeat(70)}.psd`,
  'Cafe\u0301.txt',
  'Logo:1.png',
  'logo_1.png',
];

/**
 * Names the local service refuses (it keeps separators and controls out of names) are written
 * straight into its database under an asset or folder made with a stand-in name: a real
 * service may well send them.
 */
async function createHostileTree(w: World): Promise<number> {
  const { colleague } = w;
  const plant = (table: 'assets' | 'folders', id: string, name: string) => {
    const column = table === 'assets' ? 'file_name = ?, name' : 'name';
    w.service.db.prepare(`UPDATE ${table} SET ${column} = ?, name_key = ? WHERE id = ?`).run(
      ...(table === 'assets' ? [name, name] : [name]), name.normalize('NFC').toLowerCase(), id);
  };
  let count = 0;
  const createIn = async (folderId: string | null, name: string, bytes: string) => {
    const refused = nameProblem(name) !== undefined;
    const asset = await colleague.createIn(folderId, refused ? `stand-in ${count}` : name, bytes);
    if (refused) plant('assets', asset.id, name);
    count += 1;
  };
  for (const name of HOSTILE_FILES) await createIn(null, name, `content of ${JSON.stringify(name)}`);
  for (const [i, folderName] of HOSTILE_FOLDERS.entries()) {
    const refused = nameProblem(folderName) !== undefined;
    const folder = await colleague.client.createFolder(colleague.workspaceId, { name: refused ? `stand-in folder ${i}` : folderName, parent_id: null });
    if (refused) plant('folders', folder.id, folderName);
    for (const name of ['x.txt', '..\\evil.txt', 'CON']) {
      await createIn(folder.id, name, `content of ${JSON.stringify(folderName)}/${JSON.stringify(name)}`);
    }
  }
  return count;
}

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[<>:"|?*\\\u0000-\u001F\u202A-\u202E]/u;
const RESERVED = /^(CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9])(\..*)?$/i;

function unsafeSegments(paths: readonly string[]): string[] {
  const bad: string[] = [];
  for (const path of paths) {
    for (const segment of path.split('/')) {
      const tooLong = Buffer.byteLength(segment) > 255;
      if (tooLong || FORBIDDEN.test(segment) || RESERVED.test(segment) || /[. ]$/.test(segment) || segment !== segment.normalize('NFC')) bad.push(segment);
    }
  }
  return bad;
}

describe('hostile remote names', () => {
  it('land once each, under safe names inside the root, and are stable', async () => {
    const w = await world({ demo: { assets: 0 } });
    const created = await createHostileTree(w);
    const remoteBefore = await remoteFiles(w.user.client, w.workspaceId);
    expect(remoteBefore.size).toBe(created);
    const laptop = await w.device('laptop');

    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    const local = await localChecksums(laptop.dir);
    expect(local).toHaveLength(created);
    expect(local.map(([, sum]) => sum).sort()).toEqual([...remoteBefore.values()].map((e) => e.checksum).sort());
    expect(unsafeSegments(local.map(([p]) => p))).toEqual([]);
    // Nothing below the temp folder outside a root or an index, nothing beside it either.
    expect(await w.strayFiles()).toEqual([]);
    expect((await readdir(dirname(w.home))).filter((n) => /escape|outside|evil/.test(n))).toEqual([]);

    // The safe names stay local: no rename, no new asset, no new version on the service.
    expect(idle(await laptop.sync())).toBe(true);
    expect(await remoteFiles(w.user.client, w.workspaceId)).toEqual(remoteBefore);

    // Another device picks the same names.
    const desktop = await w.device('desktop');
    await desktop.sync();
    expect(await localChecksums(desktop.dir)).toEqual(local);
  });

  it('send a local edit of a renamed-for-disk file to the right asset', async () => {
    const w = await world({ demo: { assets: 0 } });
    const asset = await w.colleague.createIn(null, 'a:b?.txt', 'first');
    const laptop = await w.device('laptop');
    await laptop.sync();
    const [localPath] = (await walkFiles(laptop.dir)).filter((p) => p !== '.assetsync');
    expect(localPath).toBeDefined();

    await laptop.write(localPath as string, 'second');
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    const versions = await w.user.versions(asset.id);
    expect(versions).toHaveLength(2);
    expect(versions[0]?.checksum).toBe(sha256('second'));
    expect([...(await remoteFiles(w.user.client, w.workspaceId)).keys()]).toEqual(['a:b?.txt']);
  });

  it.skipIf(caseInsensitiveDisk)('tell the user about two local files whose names differ only by case, and sync both once one is renamed', async () => {
    const w = await world({ demo: { assets: 0 } });
    const laptop = await w.device('laptop');
    await laptop.sync();

    await laptop.write('Brand/Logo.png', 'the upper-case one');
    await laptop.write('Brand/logo.png', 'the lower-case one');
    const report = await laptop.sync();

    expect(report.ok).toBe(false);
    expect(report.workspaces[0]?.problems).toEqual([expect.objectContaining({ kind: 'error', path: 'Brand/logo.png' })]);
    expect(laptop.engine.status().state).toBe('attention');
    expect([...(await remoteFiles(w.user.client, w.workspaceId)).keys()]).toEqual(['Brand/Logo.png']);

    await rename(laptop.path('Brand/logo.png'), laptop.path('Brand/logo-small.png'));
    const renamed = await laptop.sync();

    expect(renamed.ok).toBe(true);
    expect(await localChecksums(laptop.dir)).toEqual([
      ['Brand/Logo.png', sha256('the upper-case one')],
      ['Brand/logo-small.png', sha256('the lower-case one')],
    ]);
    expect(await remoteChecksums(w.user.client, w.workspaceId)).toEqual(await localChecksums(laptop.dir));
  });

  it('keep a local NFD-spelled file as one asset, with no churn', async () => {
    const w = await world({ demo: { assets: 0 } });
    const laptop = await w.device('laptop');
    await laptop.sync();

    await laptop.write('Re\u0301sume\u0301.txt', 'written by a Mac');
    await laptop.sync();
    const second = await laptop.sync();

    expect(second.ok).toBe(true);
    expect(idle(second)).toBe(true);
    const remote = await remoteFiles(w.user.client, w.workspaceId);
    expect([...remote.keys()]).toEqual(['R\u00e9sum\u00e9.txt']);
    expect(await w.user.versions((remote.get('R\u00e9sum\u00e9.txt') as { assetId: string }).assetId)).toHaveLength(1);
  });
});
