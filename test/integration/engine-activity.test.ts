/**
 * What the activity feed is told, from the engine against the local service: every download and
 * upload names the version it brought (number and id, for the feed to look up who made it and
 * its note), and a file still being written is named once while it lasts, not at every rescan.
 */
import { appendFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { ActivityItem } from '../../shared/engine.js';
import { activityItem } from '../../main/index/activity.js';
import { worlds } from '../helpers/engine.js';

const world = worlds();

describe('the activity of a sync', () => {
  it('names the version each download and upload brought', async () => {
    const w = await world();
    const laptop = await w.device('laptop');
    const heard: ActivityItem[] = [];
    laptop.engine.on('activity', (item) => heard.push(item));
    await laptop.sync();

    const hero = await w.user.assetAt('Campaigns/Spring/Social/hero.psd');
    const first = heard.find((a) => a.kind === 'downloaded' && a.path === 'Campaigns/Spring/Social/hero.psd');
    expect(first?.version).toEqual({ assetId: hero.assetId, versionId: hero.versionId, number: 3 });

    const colleagues = await w.colleague.newVersion(hero.assetId, 'hero, brighter sky');
    await laptop.write('Docs/brief-notes.md', 'notes\n');
    await laptop.sync();
    const down = heard.filter((a) => a.kind === 'downloaded' && a.path === 'Campaigns/Spring/Social/hero.psd').at(-1);
    expect(down?.version).toEqual({ assetId: hero.assetId, versionId: colleagues.id, number: 4 });
    const notes = await w.user.assetAt('Docs/brief-notes.md');
    const up = heard.find((a) => a.kind === 'uploaded' && a.path === 'Docs/brief-notes.md');
    expect(up?.version).toEqual({ assetId: notes.assetId, versionId: notes.versionId, number: 1 });

    await laptop.write('Docs/brief-notes.md', 'notes, second take\n');
    await laptop.sync();
    const second = await w.user.assetAt('Docs/brief-notes.md');
    expect(heard.filter((a) => a.kind === 'uploaded' && a.path === 'Docs/brief-notes.md').at(-1)?.version).toEqual({ assetId: notes.assetId, versionId: second.versionId, number: 2 });

    // The log keeps them: the feed shown after a restart names them too.
    const logged = laptop.index.activity.list({ workspaceId: w.workspaceId }).map(activityItem);
    expect(logged.find((a) => a.kind === 'downloaded' && a.version?.versionId === colleagues.id)).toMatchObject({ path: 'Campaigns/Spring/Social/hero.psd', version: { number: 4 } });
  });
});

describe('a file still being written', () => {
  it('is named once while it lasts, and listed in the status until it is uploaded', async () => {
    const w = await world();
    const laptop = await w.device('laptop', { quietMs: 1500 });
    await laptop.sync();
    const heard: ActivityItem[] = [];
    laptop.engine.on('activity', (item) => heard.push(item));
    const path = 'Campaigns/teaser.mov';
    await laptop.write(path, 'frame 0\n');

    let writing = true;
    const writer = (async () => {
      for (let frame = 1; writing; frame += 1) {
        await appendFile(laptop.path(path), `frame ${frame}\n`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      // Three rounds, each waiting out the quiet period and finding the file still written to.
      await laptop.sync({ maxRounds: 3 });
      expect(heard.filter((a) => a.kind === 'waiting')).toEqual([expect.objectContaining({ path, message: 'Waiting for teaser.mov to finish writing' })]);
      expect(laptop.engine.status().workspaces[0]?.writing).toEqual([path]);
    } finally {
      writing = false;
      await writer;
    }

    const report = await laptop.sync();
    expect(report.ok).toBe(true);
    expect(laptop.engine.status().workspaces[0]?.writing).toBeUndefined();
    expect(heard.filter((a) => a.kind === 'uploaded' && a.path === path)).toHaveLength(1);
  });
});
