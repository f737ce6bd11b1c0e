/**
 * The periodic full listing fails (its route answers 500, or the connection drops) while the
 * changes feed works: sync goes on from the feed both ways, the user is shown no problem, the
 * listing is tried again only at its retry time (an hour, or the interval when that is shorter),
 * and once the route answers again the listing is taken and the interval starts over.
 *
 * Hours pass on the clock of this process (vitest's fake Date, moved on by hand and otherwise
 * running with real time; timers and I/O are real): the in-process service and the engine read
 * the same clock.
 */
import { describe, expect, it } from 'vitest';
import type { SyncReport } from '../../shared/engine.js';
import type { RouteFault } from '../../service/config.js';
import { bytesFor, faults, injector, localChecksums, remoteChecksums, sha256, worlds, type Device } from '../helpers/engine.js';
import { movableClock } from '../helpers/clock.js';
import { LEVEL, keptLogger, linesStarting, type LogLine } from '../helpers/kept-logger.js';

const world = worlds();

const MIN = 60 * 1000;
const HOUR = 60 * MIN;
/** workspace-sync.ts LISTING_RETRY_MS: the longest a failed periodic listing waits. */
const LISTING_RETRY_MS = HOUR;
const LISTING_PATH = '/workspaces/folders/hierarchy';

const advance = movableClock();

/** What the user sees: a report with no problem, and the workspace up to date in the status. */
function expectNothingShown(report: SyncReport, device: Device): void {
  expect(report.ok).toBe(true);
  expect(report.workspaces.flatMap((w) => w.problems)).toEqual([]);
  const status = device.engine.status().workspaces[0];
  expect(status?.problems).toEqual([]);
  expect(status?.state).toBe('up-to-date');
}

const failed = (lines: LogLine[]): LogLine[] => linesStarting(lines, 'the periodic full listing failed');
const agreed = (lines: LogLine[]): LogLine[] => linesStarting(lines, 'the periodic full listing agrees');

const CASES: Array<[string, { answer: RouteFault['answer']; intervalMs: number; retryMs: number }]> = [
  ['answers 500; retried after an hour (the interval is longer)', { answer: 500, intervalMs: 10 * HOUR, retryMs: LISTING_RETRY_MS }],
  ['drops the connection; retried after the interval (shorter than an hour)', { answer: 'drop', intervalMs: 20 * MIN, retryMs: 20 * MIN }],
];

describe('the periodic full listing fails while the feed works', () => {
  it.each(CASES)('the listing route %s', async (_name, { answer, intervalMs, retryMs }) => {
    const w = await world({ service: { faults: faults({}) } });
    const injected = injector(w);
    const { logger, lines } = keptLogger();
    const laptop = await w.device('laptop', { logger, engine: { fullListingIntervalMs: intervalMs } });
    expectNothingShown(await laptop.converge(), laptop);
    const listedAt = () => laptop.index.workspaces.require(w.workspaceId).lastFullListingAt;
    const firstListing = listedAt();
    // Asked for now: the colleague's helpers that find things by path list the workspace too.
    const remote = () => remoteChecksums(w.user.client, w.workspaceId);
    const budget = await w.user.assetAt('Docs/budget.xlsx');
    const naming = await w.user.assetAt('Docs/asset-naming.md');
    const docs = w.demo.folderIds.Docs ?? null;

    // The listing falls due and fails; what the colleague made comes down by the feed.
    injected.setRoutes([{ method: 'GET', path: LISTING_PATH, answer }]);
    advance(intervalMs + MIN);
    const fresh = bytesFor('made while the listing is down', 30_000);
    await w.colleague.createIn(docs, 'during-the-outage.bin', fresh);
    expectNothingShown(await laptop.sync(), laptop);
    expect(injected.counts.route).toBeGreaterThan(0);
    expect(sha256(await laptop.read('Docs/during-the-outage.bin'))).toBe(sha256(fresh));
    expect(failed(lines)).toEqual([expect.objectContaining({ level: LEVEL.warn })]);
    expect(listedAt()).toBe(firstListing);
    const triedOnce = injected.counts.route;

    // Until the retry time the listing is not asked for again; both ways still sync by the feed.
    advance(retryMs - 2 * MIN);
    const theirs = bytesFor('colleague during the outage', 40_000);
    await w.colleague.newVersion(budget.assetId, theirs);
    const mine = 'edited while the listing is down\n';
    await laptop.write('Docs/asset-naming.md', mine);
    expectNothingShown(await laptop.converge(), laptop);
    expect(injected.counts.route).toBe(triedOnce);
    expect(sha256(await laptop.read('Docs/budget.xlsx'))).toBe(sha256(theirs));
    const uploaded = await w.user.versions(naming.assetId);
    expect(uploaded[0]?.checksum).toBe(sha256(mine));
    expect(uploaded[0]?.commit_parent_id).toBe(naming.versionId);

    // Past it: tried again, failed again, still nothing shown.
    advance(3 * MIN);
    expectNothingShown(await laptop.sync(), laptop);
    expect(injected.counts.route).toBeGreaterThan(triedOnce);
    expect(failed(lines)).toHaveLength(2);
    expect(agreed(lines)).toEqual([]);

    // The route answers again: at the next retry time the listing is taken, and it agrees with
    // the tree the feed kept through the outage (a folder rename included).
    injected.setRoutes([]);
    const triedTwice = injected.counts.route;
    await w.colleague.client.updateFolder(w.workspaceId, w.demo.folderIds.Photography as string, { name: 'Photos' });
    advance(retryMs + MIN);
    const healedAt = Date.now();
    const healed = await laptop.sync();
    expectNothingShown(healed, laptop);
    expect(healed.workspaces[0]?.downloaded).toBe(0);
    expect(await laptop.exists('Photos/studio-001.jpg')).toBe(true);
    expect(agreed(lines)).toEqual([expect.objectContaining({ level: LEVEL.info, assets: 0, folders: 0 })]);
    expect(listedAt()).toBeGreaterThanOrEqual(healedAt);
    expect(injected.counts.route).toBe(triedTwice);
    expect(await localChecksums(laptop.dir)).toEqual(await remote());

    // Taken: the next listing waits for the whole interval again, then comes.
    expectNothingShown(await laptop.sync(), laptop);
    advance(intervalMs - 2 * MIN);
    expectNothingShown(await laptop.sync(), laptop);
    expect(agreed(lines)).toHaveLength(1);
    advance(3 * MIN);
    expectNothingShown(await laptop.sync(), laptop);
    expect(agreed(lines)).toHaveLength(2);
    expect(failed(lines)).toHaveLength(2);
    expect(lines.filter((l) => l.level >= LEVEL.error)).toEqual([]);
  });

  it('a restart whose start-up listing is due and fails still syncs from the stored tree and the feed', async () => {
    const w = await world({ service: { faults: faults({}) } });
    const injected = injector(w);
    const intervalMs = 2 * HOUR;
    const first = await w.device('laptop', { engine: { fullListingIntervalMs: intervalMs } });
    expectNothingShown(await first.converge(), first);
    await first.close();

    // Off for longer than twice the interval (due even at start-up), and the listing is down.
    injected.setRoutes([{ method: 'GET', path: LISTING_PATH, answer: 500 }]);
    advance(2 * intervalMs + MIN);
    const fresh = 'made while the laptop was off';
    await w.colleague.createIn(w.demo.folderIds.Docs ?? null, 'while-off.md', fresh);
    const { logger, lines } = keptLogger();
    const laptop = await w.device('laptop', { logger, engine: { fullListingIntervalMs: intervalMs } });
    const report = await laptop.sync();

    expectNothingShown(report, laptop);
    expect(injected.counts.route).toBeGreaterThan(0);
    expect(failed(lines)).toHaveLength(1);
    expect(report.workspaces[0]).toMatchObject({ downloaded: 1, uploaded: 0, deleted: 0 });
    expect((await laptop.read('Docs/while-off.md')).toString()).toBe(fresh);
    injected.setRoutes([]);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
  });
});
