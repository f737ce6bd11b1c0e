/**
 * A service without the changes feed (our extension, docs/protocol.md) answers 404, 405 or 501
 * to GET /workspaces/changes. The engine then lists the workspace in full at every cycle and
 * syncs as usual both ways, across a restart too; a sync shows the user no problem for it, the
 * missing feed is a line in the log (an engine left running notes that changes arrive slower:
 * test/cli/cli-changes-arrive.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { SyncReport } from '../../shared/engine.js';
import { bytesFor, faults, localChecksums, remoteChecksums, sha256, tempFiles, trashedChecksums, worlds, type Device } from '../helpers/engine.js';
import { LEVEL, keptLogger, linesStarting } from '../helpers/kept-logger.js';

const world = worlds();

const FEED_REFUSED = 'the changes feed cannot answer';

/** What the user sees: no problem in the report nor in the status, and the workspace up to date. */
function expectNothingShown(report: SyncReport, device: Device): void {
  expect(report.workspaces.flatMap((w) => w.problems)).toEqual([]);
  expect(report.workspaces.every((w) => w.failed === 0 && w.conflicts === 0)).toBe(true);
  const status = device.engine.status().workspaces[0];
  expect(status?.problems).toEqual([]);
  expect(status?.state).toBe('up-to-date');
}

describe.each([404, 405, 501])('a service whose changes feed answers %i', (status) => {
  it('mirrors, brings remote changes down at the next cycle, uploads local edits, and survives a restart', async () => {
    const w = await world({ service: { faults: faults({ routes: [{ method: 'GET', path: '/workspaces/changes', answer: status }] }) } });
    const injected = w.service.faults;
    if (!injected) throw new Error('the service was started with faults');
    const { logger, lines } = keptLogger();
    const remote = () => remoteChecksums(w.user.client, w.workspaceId);

    // The first mirror (a first sync lists in full anyway), then a cycle that asks the feed.
    let laptop = await w.device('laptop', { logger });
    const mirrored = await laptop.converge();
    expect(mirrored.ok).toBe(true);
    expectNothingShown(mirrored, laptop);
    expect(await localChecksums(laptop.dir)).toEqual(await remote());
    expect(injected.counts.route).toBeGreaterThan(0);

    // A new version made elsewhere reaches the file in the very next cycle.
    const budget = await w.user.assetAt('Docs/budget.xlsx');
    const theirs = bytesFor(`colleague ${status}`, 48_000);
    await w.colleague.newVersion(budget.assetId, theirs);
    const refusedBefore = injected.counts.route;
    const next = await laptop.sync({ maxRounds: 1 });
    // Asked once, refused, and the cycle went on with a listing: not even a 501 (a 5xx) is
    // retried as if it were an outage.
    expect(injected.counts.route).toBe(refusedBefore + 1);
    expect(next.workspaces[0]?.downloaded).toBe(1);
    expect(sha256(await laptop.read('Docs/budget.xlsx'))).toBe(sha256(theirs));
    expectNothingShown(await laptop.sync(), laptop);

    // A local edit becomes a new version of the same asset, on top of the current one.
    const naming = await w.user.assetAt('Docs/asset-naming.md');
    const versionsBefore = await w.user.versions(naming.assetId);
    const mine = `edited on a service without a feed (${status})\n`;
    await laptop.write('Docs/asset-naming.md', mine);
    const uploaded = await laptop.converge();
    expectNothingShown(uploaded, laptop);
    const versions = await w.user.versions(naming.assetId);
    expect(versions).toHaveLength(versionsBefore.length + 1);
    expect(versions[0]?.checksum).toBe(sha256(mine));
    expect(versions[0]?.commit_parent_id).toBe(naming.versionId);
    expect((await w.user.assetAt('Docs/asset-naming.md')).checksum).toBe(sha256(mine));

    // A delete, a file rename and a folder rename on the service, in the next two cycles (a
    // folder move runs alone, the rest right after it): the renamed ones are moved on disk, not
    // downloaded again.
    const readme = await w.user.assetAt('README.txt');
    const story = await w.user.assetAt('Campaigns/Spring/Social/story-01.png');
    const readmeBytes = await laptop.read('README.txt');
    await w.colleague.client.deleteAssets(w.workspaceId, [readme.assetId]);
    await w.colleague.client.updateAsset(w.workspaceId, story.assetId, { file_name: 'story-01-final.png' });
    await w.colleague.client.updateFolder(w.workspaceId, w.demo.folderIds.Photography as string, { name: 'Photos' });
    const moved = await laptop.sync({ maxRounds: 2 });
    expect(moved.workspaces[0]?.downloaded).toBe(0);
    expect(await laptop.exists('README.txt')).toBe(false);
    expect(await trashedChecksums()).toContain(sha256(readmeBytes));
    expect(await laptop.exists('Campaigns/Spring/Social/story-01.png')).toBe(false);
    expect(await laptop.exists('Campaigns/Spring/Social/story-01-final.png')).toBe(true);
    expect(await laptop.exists('Photography')).toBe(false);
    expect(await localChecksums(laptop.dir)).toEqual(await remote());
    expectNothingShown(await laptop.sync(), laptop);

    // A restart on the same index: what changed while it was stopped comes down, nothing else.
    await laptop.close();
    const studio = await w.user.assetAt('Photos/studio-002.jpg');
    const retouched = bytesFor(`retouched ${status}`, 64_000);
    await w.colleague.newVersion(studio.assetId, retouched);
    await w.colleague.createFile('Docs/while-stopped.md', 'made while the laptop was off');
    laptop = await w.device('laptop', { logger });
    const restarted = await laptop.sync();
    expect(restarted.ok).toBe(true);
    expectNothingShown(restarted, laptop);
    expect(restarted.workspaces[0]).toMatchObject({ downloaded: 2, uploaded: 0, deleted: 0, moved: 0 });
    expect(sha256(await laptop.read('Photos/studio-002.jpg'))).toBe(sha256(retouched));
    expect(await localChecksums(laptop.dir)).toEqual(await remote());
    expectNothingShown(await laptop.sync(), laptop);

    // The missing feed is said in the log, at info, and nothing is logged as an error.
    const said = linesStarting(lines, FEED_REFUSED);
    expect(said.length).toBeGreaterThan(0);
    expect(said.every((l) => l.level === LEVEL.info && l.reason === 'unsupported')).toBe(true);
    expect(lines.filter((l) => l.level >= LEVEL.error)).toEqual([]);
    expect(await tempFiles(laptop.root)).toEqual([]);
    expect(await w.strayFiles()).toEqual([]);
  });
});
