/**
 * The temp files a killed process left in a workspace folder (downloads, restore, save-version
 * and the app's downloads write one next to their target) are gone after the next start's first
 * sync, wherever they lie, whether that sync replays the quiet cycle the index kept or walks in
 * full; what is not a leftover temp file stays: a symlink or a folder with a temp name, the
 * workspace trash. LEFTOVER_TEMPS_SEED=n replays the picks of a failed run.
 */
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { lstatSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesFor, idle, remoteChecksums, worlds, type Device, type World } from '../helpers/engine.js';
import { keptLogger, linesStarting, type LogLine } from '../helpers/kept-logger.js';
import type { Rng } from '../helpers/rng.js';
import { runRng } from '../helpers/run-seed.js';

const world = worlds();
const rng = runRng('LEFTOVER_TEMPS_SEED');
const REPLAYED = 'nothing changed since the quiet cycle the index kept';

async function restart(w: World, device: Device): Promise<{ device: Device; lines: LogLine[] }> {
  await device.close();
  const kept = keptLogger('debug');
  return { device: await w.device(device.name, { logger: kept.logger }), lines: kept.lines };
}

const tempName = (random: Rng): string => `.assetsync-${Array.from({ length: 16 }, () => random.int(0, 15).toString(16)).join('')}.part`;

/** Every folder below the workspace folder, '' for itself. */
async function foldersOf(device: Device): Promise<string[]> {
  const entries = await readdir(device.dir, { recursive: true, withFileTypes: true });
  const rels = entries.filter((e) => e.isDirectory()).map((e) => `${e.parentPath}/${e.name}`.slice(device.dir.length + 1));
  return ['', ...rels.filter((rel) => !rel.startsWith('.assetsync-trash'))];
}

/** Leftovers in random folders of the tree, and things with a temp name that are no leftover file. */
async function leaveTemps(device: Device, random: Rng, folders: readonly string[]): Promise<{ leftovers: string[]; kept: string[] }> {
  const at = (folder: string, name: string): string => (folder === '' ? name : `${folder}/${name}`);
  const leftovers = Array.from({ length: random.int(2, 6) }, () => at(random.pick(folders), tempName(random)));
  for (const rel of leftovers) await writeFile(device.path(rel), bytesFor(rel, random.int(0, 5000)));
  const link = at(random.pick(folders), tempName(random));
  await symlink(device.path(leftovers[0] as string), device.path(link));
  const folder = at(random.pick(folders), tempName(random));
  await mkdir(device.path(folder));
  await writeFile(device.path(`${folder}/inside.txt`), 'a folder with a temp name is not ours');
  const trashed = `.assetsync-trash/${tempName(random)}`;
  await mkdir(device.path(dirname(trashed)), { recursive: true });
  await writeFile(device.path(trashed), 'the trash is never entered');
  return { leftovers, kept: [link, folder, `${folder}/inside.txt`, trashed] };
}

const present = (device: Device, rel: string): boolean => lstatSync(device.path(rel), { throwIfNoEntry: false }) !== undefined;

describe('leftover temp files at the next start', () => {
  it('are removed by a start that replays the quiet cycle the index kept', async () => {
    const w = await world({ demo: { assets: 8 } });
    const first = await w.device('laptop');
    await first.converge();
    await first.sync();
    const random = rng.fork('replay');
    const { leftovers, kept } = await leaveTemps(first, random, await foldersOf(first));
    const { device, lines } = await restart(w, first);
    expect(idle(await device.sync())).toBe(true);
    expect(linesStarting(lines, REPLAYED).length).toBe(1);
    expect(leftovers.filter((rel) => present(device, rel))).toEqual([]);
    expect(kept.filter((rel) => !present(device, rel))).toEqual([]);
  });

  it('are removed by a start that walks in full, in folders no process saw before', async () => {
    const w = await world({ demo: { assets: 8 } });
    let device = await w.device('laptop');
    await device.converge();
    await device.close();
    const random = rng.fork('full');
    const deep = Array.from({ length: random.int(2, 5) }, (_, i) => `d${i}-${random.int(0, 999)}`).join('/');
    await mkdir(device.path(deep), { recursive: true });
    await writeFile(device.path(`${deep}/new.txt`), bytesFor(deep, 300));
    const deepest = `${deep}/${tempName(random)}`;
    await writeFile(device.path(deepest), 'left deep in a folder no process saw');
    const { leftovers, kept } = await leaveTemps(device, random, await foldersOf(device));
    device = await w.device(device.name);
    await device.converge();
    expect([deepest, ...leftovers].filter((rel) => present(device, rel))).toEqual([]);
    expect(kept.filter((rel) => !present(device, rel))).toEqual([]);
    expect((await remoteChecksums(w.user.client, w.workspaceId)).map(([rel]) => rel)).toContain(`${deep}/new.txt`);
  });
});
