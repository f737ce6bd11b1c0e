/**
 * The sync engine against the real local service: the first mirror, edits going up as
 * conditional versions, remote versions coming down, and files still being written waiting.
 */
import { appendFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { idle, localChecksums, remoteChecksums, checksumOf, tempFiles, worlds } from '../helpers/engine.js';

const world = worlds();

describe('initial mirror', () => {
  it('downloads every asset to its folder path with the service checksum, then has nothing left to do', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    const versionsBefore = await Promise.all(w.demo.assetIds.map((id) => w.user.versions(id)));

    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    const remote = await remoteChecksums(w.user.client, w.workspaceId);
    expect(remote).toHaveLength(w.demo.assetIds.length);
    expect(await localChecksums(laptop.dir)).toEqual(remote);
    expect(await tempFiles(laptop.root)).toEqual([]);
    expect(laptop.engine.status().state).toBe('up-to-date');
    expect(laptop.engine.status().workspaces[0]?.files).toBe(w.demo.assetIds.length);

    const again = await laptop.sync();
    expect(again.ok).toBe(true);
    expect(idle(again)).toBe(true);
    // Downloading made no version anywhere.
    expect(await Promise.all(w.demo.assetIds.map((id) => w.user.versions(id)))).toEqual(versionsBefore);
    expect(await w.strayFiles()).toEqual([]);
  });
});

describe('the status during a sync', () => {
  it('counts down the files still to come while they transfer, and ends at nothing pending', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    const total = w.demo.assetIds.length;
    const seen: number[] = [];
    laptop.engine.on('transfer', () => seen.push(laptop.engine.status().workspaces[0]?.pending.downloads ?? -1));
    // What the app shows between transfer events, while the sync runs.
    laptop.engine.on('status', (status) => {
      const shown = status.workspaces[0];
      if (seen.length > 0 && shown?.state === 'syncing') seen.push(shown.pending.downloads);
    });

    await laptop.sync();

    // While the first file was on its way, the whole plan was still to come.
    expect(seen[0]).toBe(total);
    expect(Math.min(...seen)).toBeLessThan(total);
    for (let i = 1; i < seen.length; i += 1) expect(seen[i]).toBeLessThanOrEqual(seen[i - 1] as number);
    expect(laptop.engine.status().workspaces[0]?.pending).toEqual({ downloads: 0, uploads: 0, deletes: 0, moves: 0, conflicts: 0 });
  });
});

describe('local edit', () => {
  it('becomes one new version whose parent is the version the edit started from, and reaches the other device', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    const desktop = await w.device('desktop');
    await laptop.sync();
    await desktop.sync();
    const path = 'Docs/asset-naming.md';
    const before = await w.user.assetAt(path);
    const versionsBefore = await w.user.versions(before.assetId);

    await laptop.write(path, 'naming rules, edited on the laptop\n');
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    const versions = await w.user.versions(before.assetId);
    expect(versions).toHaveLength(versionsBefore.length + 1);
    expect(versions[0]?.commit_parent_id).toBe(before.versionId);
    expect(versions[0]?.checksum).toBe(checksumOf('naming rules, edited on the laptop\n'));
    expect((await w.user.assetAt(path)).assetId).toBe(before.assetId);

    expect(idle(await laptop.sync())).toBe(true);
    expect(await w.user.versions(before.assetId)).toHaveLength(versionsBefore.length + 1);

    await desktop.sync();
    expect((await desktop.read(path)).toString()).toBe('naming rules, edited on the laptop\n');
    expect(await localChecksums(desktop.dir)).toEqual(await localChecksums(laptop.dir));
    expect(await w.user.versions(before.assetId)).toHaveLength(versionsBefore.length + 1);
  });

  it('uploads a new local file in a new local folder as a new asset in a new remote folder, once', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();

    await laptop.write('Drafts/2025/moodboard.png', 'a moodboard');
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    const entry = await w.user.assetAt('Drafts/2025/moodboard.png');
    expect(entry.checksum).toBe(checksumOf('a moodboard'));
    expect(await w.user.versions(entry.assetId)).toHaveLength(1);
    expect(idle(await laptop.sync())).toBe(true);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
  });
});

describe('remote new version', () => {
  it('replaces the local file, leaves no temp file and uploads nothing back', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    await laptop.sync();
    const path = 'Brand/Logos/logo-mono.svg';
    const entry = await w.user.assetAt(path);

    const content = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10"/></svg>\n';
    await w.colleague.newVersion(entry.assetId, content);
    const versionsAfterColleague = await w.user.versions(entry.assetId);
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect((await laptop.read(path)).toString()).toBe(content);
    expect(await tempFiles(laptop.root)).toEqual([]);
    expect(await w.user.versions(entry.assetId)).toEqual(versionsAfterColleague);
    expect(idle(await laptop.sync())).toBe(true);
  });
});

describe('a file still being written', () => {
  it('is not uploaded while it keeps changing, and is uploaded whole once it is left alone', async () => {
    const w = await world();
    const laptop = await w.device('laptop', { quietMs: 1500 });
    await laptop.sync();
    const path = 'Campaigns/render-final.mov';
    await laptop.write(path, 'frame 0\n');

    // A writer appending every few milliseconds: the file is never left alone for quietMs.
    let writing = true;
    let frames = 1;
    const writer = (async () => {
      while (writing) {
        await appendFile(laptop.path(path), `frame ${frames}\n`);
        frames += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      const report = await laptop.sync({ maxRounds: 1 });
      expect(report.workspaces[0]?.uploaded).toBe(0);
      expect((await w.user.client.getHierarchy(w.workspaceId)).assets.some((a) => a.file_name === 'render-final.mov')).toBe(false);
      expect(laptop.engine.status().state).not.toBe('up-to-date');
    } finally {
      writing = false;
      await writer;
    }

    const report = await laptop.sync();
    expect(report.ok).toBe(true);
    const entry = await w.user.assetAt(path);
    expect(entry.checksum).toBe(checksumOf(await laptop.read(path)));
    expect(await w.user.versions(entry.assetId)).toHaveLength(1);
    expect(laptop.engine.status().state).toBe('up-to-date');
  });
});
