/**
 * Names that are not valid UTF-8 (an old Latin-1 disk, an archive from elsewhere, rclone's test
 * names): a file or folder so named is listed as not synced, with why and a name to rename it
 * to, and is never taken for a deletion of the synced item it was renamed from, here or on
 * another device. SEED=n replays the random names of a failed run.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/engine.js';
import { bytesFor, sha256, trashedChecksums, worlds, type Device, type World } from '../helpers/engine.js';
import { Rng, testSeed } from '../helpers/rng.js';

const world = worlds();
const seed = testSeed('engine-undecodable-names');

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A name holding bytes UTF-8 has no reading for where they stand: a Latin-1 letter, a stray
 * continuation byte, a lead byte cut short, an overlong form, a surrogate, bytes never used.
 */
function undecodableName(rng: Rng, stem: string, ext: string): Buffer {
  const bad = rng.pick([[0xe9], [0x81], [0xfe, 0xff], [0xc3], [0xe2, 0x82], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0x81, 0x5f, 0xfe]]);
  const at = rng.int(0, stem.length);
  const name = Buffer.concat([Buffer.from(stem.slice(0, at)), Buffer.from(bad), Buffer.from(stem.slice(at) + ext)]);
  expect(() => strictUtf8.decode(name)).toThrow();
  return name;
}

/** `rel` (valid UTF-8, '/'-separated) inside the device's workspace folder, with `name` (bytes) appended. */
const bytesPath = (device: Device, rel: string, name: Buffer): Buffer => Buffer.concat([Buffer.from(`${device.path(rel)}/`), name]);

const notSynced = (problems: readonly Problem[]): Problem[] => problems.filter((p) => p.message.includes('not valid UTF-8'));

async function twoDevices(w: World): Promise<{ laptop: Device; desktop: Device }> {
  const laptop = await w.device('laptop');
  const desktop = await w.device('desktop');
  await laptop.converge();
  await desktop.converge();
  return { laptop, desktop };
}

describe('a file whose name is not valid UTF-8', () => {
  it('is listed as not synced, with the reason and a valid name to rename it to, and not uploaded', async () => {
    const rng = new Rng(seed, 'new-file');
    const w = await world({ demo: { assets: 0 } });
    const laptop = await w.device('laptop');
    await laptop.converge();
    const name = undecodableName(rng, `draft-${rng.int(0, 999)}`, '.txt');
    console.log(`engine-undecodable-names: ${JSON.stringify(name.toString('latin1'))}`);
    await laptop.write('Docs/kept.txt', 'a name that syncs');
    writeFileSync(bytesPath(laptop, 'Docs', name), 'bytes under a name no other computer can read');

    const report = await laptop.sync();
    expect(report.ok).toBe(false);
    const problems = notSynced(report.workspaces[0]?.problems ?? []);
    expect(problems).toHaveLength(1);
    const [problem] = problems as [Problem];
    expect(problem.path?.startsWith('Docs/')).toBe(true);
    expect(problem.message).toContain('is not synced: its name is not valid UTF-8');
    const suggested = /Rename it, for example to "([^"]+)"/u.exec(problem.hint ?? '')?.[1];
    expect(suggested, problem.hint).toBeDefined();
    // A name that syncs as it is.
    expect(Buffer.from(suggested as string).toString('utf8')).toBe(suggested);
    expect(suggested).not.toContain('\uFFFD');
    expect([...(await w.user.hierarchy()).assets.map((a) => a.file_name)]).toEqual(['kept.txt']);

    // Renamed as suggested, it syncs.
    renameSync(bytesPath(laptop, 'Docs', name), laptop.path(`Docs/${suggested as string}`));
    await laptop.converge();
    expect((await w.user.assetAt(`Docs/${suggested as string}`)).checksum).toBe(sha256('bytes under a name no other computer can read'));
  });

  it('renamed from a synced file keeps its asset on the service and the other devices keep their copy; renamed back, it is a rename', async () => {
    const rng = new Rng(seed, 'renamed-file');
    const w = await world({ demo: { assets: 0 } });
    const bytes = bytesFor(`brief ${seed}`, rng.int(1, 200_000));
    await w.colleague.createFile('Docs/brief.txt', bytes);
    const { laptop, desktop } = await twoDevices(w);
    const asset = await w.user.assetAt('Docs/brief.txt');
    const versions = await w.user.versions(asset.assetId);

    const name = undecodableName(rng, 'brief', '.txt');
    console.log(`engine-undecodable-names: ${JSON.stringify(name.toString('latin1'))}`);
    renameSync(laptop.path('Docs/brief.txt'), bytesPath(laptop, 'Docs', name));
    for (let run = 0; run < 2; run += 1) {
      const report = await laptop.sync();
      expect(report.workspaces[0]?.deleted).toBe(0);
      const [problem] = notSynced(report.workspaces[0]?.problems ?? []);
      expect(problem?.message).toContain('"Docs/brief.txt" stays on the service as it was synced');
    }
    expect((await w.user.assetAt('Docs/brief.txt')).assetId).toBe(asset.assetId);

    const other = await desktop.sync();
    expect(other.workspaces[0]?.deleted).toBe(0);
    expect(readFileSync(desktop.path('Docs/brief.txt')).equals(bytes)).toBe(true);
    expect(await trashedChecksums()).not.toContain(sha256(bytes));

    renameSync(bytesPath(laptop, 'Docs', name), laptop.path('Docs/brief (final).txt'));
    const back = await laptop.sync();
    expect(back.ok).toBe(true);
    expect(back.workspaces[0]).toMatchObject({ uploaded: 0, deleted: 0, moved: 1 });
    expect((await w.user.assetAt('Docs/brief (final).txt')).assetId).toBe(asset.assetId);
    expect(await w.user.versions(asset.assetId)).toEqual(versions);
    await desktop.converge();
    expect(readFileSync(desktop.path('Docs/brief (final).txt')).equals(bytes)).toBe(true);
    expect(existsSync(desktop.path('Docs/brief.txt'))).toBe(false);
  });

  it('as a synced folder renamed so, keeps every asset in it on the service and on the other devices', async () => {
    const rng = new Rng(seed, 'renamed-folder');
    const w = await world({ demo: { assets: 0 } });
    const names = Array.from({ length: rng.int(1, 4) }, (_, i) => `Shoot/frame-${i}.bin`);
    const contents = new Map(names.map((rel) => [rel, bytesFor(`${rel} ${seed}`, rng.int(1, 100_000))]));
    // A synced file from elsewhere is moved into the folder too: it is not looked for by name.
    const loose = 'Docs/loose.bin';
    contents.set(loose, bytesFor(`${loose} ${seed}`, rng.int(1, 100_000)));
    for (const [rel, bytes] of contents) await w.colleague.createFile(rel, bytes);
    const { laptop, desktop } = await twoDevices(w);
    const all = [...contents.keys()];
    const before = await Promise.all(all.map(async (rel) => (await w.user.assetAt(rel)).assetId));

    const folder = undecodableName(rng, 'Sh', 'oot');
    console.log(`engine-undecodable-names: ${JSON.stringify(folder.toString('latin1'))}`);
    const renamed = Buffer.concat([Buffer.from(`${laptop.dir}/`), folder]);
    renameSync(laptop.path('Shoot'), renamed);
    renameSync(laptop.path(loose), Buffer.concat([renamed, Buffer.from('/loose.bin')]));
    const report = await laptop.sync();
    expect(report.workspaces[0]?.deleted).toBe(0);
    const [problem, ...others] = notSynced(report.workspaces[0]?.problems ?? []);
    expect(others).toEqual([]);
    expect(problem?.message).toContain('"Shoot" and 1 other synced item stay on the service as they were synced');
    expect(await Promise.all(all.map(async (rel) => (await w.user.assetAt(rel)).assetId))).toEqual(before);

    const other = await desktop.sync();
    expect(other.workspaces[0]?.deleted).toBe(0);
    for (const [rel, bytes] of contents) expect(readFileSync(desktop.path(rel)).equals(bytes)).toBe(true);
  });
});
