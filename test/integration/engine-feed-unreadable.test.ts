/**
 * A page of the changes feed that cannot be read (a 200 whose body is cut-off JSON) never stops
 * sync: the cycle lists the workspace in full instead, says so in the log and as a workspace
 * notice that changes come slower (no error: the report stays ok and the state up to date), and
 * goes on both ways. The feed is asked again only after a backoff that grows while it stays
 * unreadable, and once it reads again it is used again and the notice goes.
 *
 * Minutes pass on the clock of this process (vitest's fake Date, moved on by hand and otherwise
 * running with real time; timers and I/O are real): the in-process service and the engine read
 * the same clock.
 */
import { describe, expect, it } from 'vitest';
import type { Problem, SyncReport } from '../../shared/engine.js';
import { bytesFor, faults, injector, localChecksums, remoteChecksums, sha256, worlds, type Device } from '../helpers/engine.js';
import { movableClock } from '../helpers/clock.js';
import { LEVEL, keptLogger, linesStarting } from '../helpers/kept-logger.js';

const world = worlds();

const MIN = 60 * 1000;
/** workspace-sync.ts FEED_RETRY_MS: the first wait before an unreadable feed is asked again. */
const FEED_RETRY_MS = 5 * MIN;
const CHANGES = '/workspaces/changes';
const LISTING = '/workspaces/folders/hierarchy';

const advance = movableClock();

const problemsOf = (report: SyncReport): Problem[] => report.workspaces.flatMap((w) => w.problems);

/** Synced, with the feed's trouble told as a notice that needs nothing of the user. */
function expectSlowerNotice(report: SyncReport, device: Device): void {
  expect(report.ok).toBe(true);
  expect(problemsOf(report)).toEqual([expect.objectContaining({ kind: 'degraded', path: null, message: expect.stringContaining('slower') as string })]);
  const status = device.engine.status().workspaces[0];
  expect(status?.problems.map((p) => p.kind)).toEqual(['degraded']);
  expect(status?.state).toBe('up-to-date');
}

function expectNothingShown(report: SyncReport, device: Device): void {
  expect(report.ok).toBe(true);
  expect(problemsOf(report)).toEqual([]);
  expect(device.engine.status().workspaces[0]?.problems).toEqual([]);
}

describe('an unreadable page of the changes feed', () => {
  it('makes the cycle list in full and sync on, with a backoff before the feed is asked again, and the feed is used once it reads', async () => {
    const w = await world({ service: { faults: faults({}) } });
    const injected = injector(w);
    const { logger, lines } = keptLogger();
    const laptop = await w.device('laptop', { logger });
    expectNothingShown(await laptop.converge(), laptop);
    const remote = () => remoteChecksums(w.user.client, w.workspaceId);
    const docs = w.demo.folderIds.Docs ?? null;

    // The feed turns unreadable; a colleague's new file still comes down in the next cycle.
    injected.setRoutes([{ method: 'GET', path: CHANGES, answer: 'malformed' }]);
    const first = bytesFor('made while the feed is unreadable', 20_000);
    await w.colleague.createIn(docs, 'first.bin', first);
    const fellBack = await laptop.sync();
    expectSlowerNotice(fellBack, laptop);
    expect(sha256(await laptop.read('Docs/first.bin'))).toBe(sha256(first));
    expect(injected.counts.route).toBe(1);
    const said = linesStarting(lines, 'a page of the changes feed could not be used');
    expect(said).toEqual([expect.objectContaining({ level: LEVEL.warn })]);
    expect(lines.filter((l) => l.level >= LEVEL.error)).toEqual([]);

    // Several cycles within the backoff: each lists in full, the feed is not asked, both ways sync.
    for (let round = 1; round <= 3; round += 1) {
      advance(MIN);
      const theirs = bytesFor(`colleague round ${round}`, 10_000 + round);
      await w.colleague.createIn(docs, `round-${round}.bin`, theirs);
      await laptop.write(`Docs/mine-${round}.txt`, `written here in round ${round}\n`);
      expectSlowerNotice(await laptop.converge(), laptop);
      expect(sha256(await laptop.read(`Docs/round-${round}.bin`))).toBe(sha256(theirs));
      expect((await w.user.assetAt(`Docs/mine-${round}.txt`)).checksum).toBe(sha256(`written here in round ${round}\n`));
    }
    expect(injected.counts.route).toBe(1);

    // Past the backoff the feed is asked again; still unreadable, the next wait is longer.
    advance(FEED_RETRY_MS);
    expectSlowerNotice(await laptop.sync(), laptop);
    expect(injected.counts.route).toBe(2);
    advance(FEED_RETRY_MS + MIN);
    expectSlowerNotice(await laptop.sync(), laptop);
    expect(injected.counts.route).toBe(2);

    // Readable again: at the next try the feed is used (the listing is down meanwhile, and
    // nothing needs it), the notice goes, and changes keep coming through the feed.
    injected.setRoutes([{ method: 'GET', path: LISTING, answer: 500 }]);
    advance(FEED_RETRY_MS);
    const later = bytesFor('after the feed reads again', 15_000);
    await w.colleague.createIn(docs, 'later.bin', later);
    expectNothingShown(await laptop.sync(), laptop);
    expect(sha256(await laptop.read('Docs/later.bin'))).toBe(sha256(later));
    expect(injected.counts.route).toBe(2);
    expect(linesStarting(lines, 'the changes feed reads again')).toEqual([expect.objectContaining({ level: LEVEL.info })]);
    injected.setRoutes([]);
    expectNothingShown(await laptop.sync(), laptop);
    expect(await localChecksums(laptop.dir)).toEqual(await remote());
  });
});
