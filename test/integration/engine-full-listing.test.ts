/**
 * The safety net under the changes feed: a tree kept by the feed alone is listed in full again
 * once its last full listing is older than the engine's interval, and the listing sets right
 * what the feed never reported. Here the feed "misses" a change because the index's cursor is
 * moved past it without applying it: exactly what the tree looks like after a feed that dropped
 * one. Listing requests are counted from the service's own request log.
 */
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { placeRemoteTree, treeFromListing } from '../../main/engine/remote-tree.js';
import { openIndex } from '../../main/index/sync-index.js';
import type { Logger } from '../../main/logging.js';
import { RemoteActor, idle, localChecksums, remoteChecksums } from '../helpers/engine.js';
import { AppRun, CHANGES, HIERARCHY, loggedWorlds, type LoggedWorld } from '../helpers/logged-service.js';

const HOUR = 60 * 60 * 1000;

/** A real logger whose lines are kept, to read what the engine said about the listing. */
function keptLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

const listingLines = (lines: Array<Record<string, unknown>>): Array<Record<string, unknown>> =>
  lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('the periodic full listing'));

describe('periodic full listing', () => {
  const world = loggedWorlds('asset-sync-full-listing-');
  const { cleanup } = world;

  /** A logged service and a home whose app has synced once (one full listing, as a first sync makes). */
  async function setUp(): Promise<LoggedWorld> {
    const synced = await world.setUp();
    const { service, home } = synced;
    const first = await AppRun.start(service, home);
    await first.converge();
    await first.stop();
    await service.settled();
    expect(service.count(HIERARCHY)).toBe(1);
    return synced;
  }

  /** Moves the index's cursor to the service's without applying what lies between: a feed that dropped those changes. */
  async function missChangesUpToNow(home: string, wsId: string, colleague: RemoteActor): Promise<void> {
    const now = (await colleague.hierarchy()).sequence;
    const index = openIndex(join(home, 'index.db'));
    const at = index.workspaces.require(wsId).sequence ?? '0';
    expect(BigInt(now)).toBeGreaterThan(BigInt(at));
    expect(index.remote.saveTree(wsId, { sequence: now, since: at })).toBe(true);
    index.close();
  }

  function ageLastListing(home: string, wsId: string, ms: number): void {
    const index = openIndex(join(home, 'index.db'));
    const at = index.workspaces.require(wsId).sequence ?? '0';
    expect(index.remote.saveTree(wsId, { sequence: at, since: at }, Date.now() - ms)).toBe(true);
    index.close();
  }

  it('lists in full once the last listing is older than the interval, and sets right what the feed missed', async () => {
    const { service, home, dir, user, colleague } = await setUp();
    const wsId = service.info.workspace_id;
    await colleague.createFile('Docs/missed-by-the-feed.md', 'the feed never said');
    await missChangesUpToNow(home, wsId, colleague);

    // Listed a moment ago: the stored tree is trusted, and the missed file stays missed.
    await service.settled();
    let mark = service.requests.length;
    const trusting = await AppRun.start(service, home);
    cleanup.push(() => trusting.stop());
    expect((await trusting.converge()).report.ok).toBe(true);
    await service.settled();
    expect(service.count(HIERARCHY, mark)).toBe(0);
    expect(service.count(CHANGES, mark)).toBeGreaterThan(0);
    expect((await localChecksums(dir)).map(([path]) => path)).not.toContain('Docs/missed-by-the-feed.md');
    await trusting.stop();
    cleanup.pop();

    // A day and an hour later: the start-up cycle still trusts the tree (a listing only a
    // little overdue waits), the next one lists in full, finds the file and brings it down.
    ageLastListing(home, wsId, 25 * HOUR);
    const { logger, lines } = keptLogger();
    const before = Date.now();
    await service.settled();
    mark = service.requests.length;
    const checking = await AppRun.start(service, home, { logger });
    cleanup.push(() => checking.stop());
    await checking.engine.syncOnce({ maxRounds: 1 });
    await service.settled();
    expect(service.count(HIERARCHY, mark)).toBe(0);
    const { report } = await checking.converge();
    await service.settled();

    expect(report.ok).toBe(true);
    expect(service.count(HIERARCHY, mark)).toBe(1);
    expect(await localChecksums(dir)).toEqual(await remoteChecksums(user.client, wsId));
    expect((await localChecksums(dir)).map(([path]) => path)).toContain('Docs/missed-by-the-feed.md');
    expect(listingLines(lines)).toEqual([expect.objectContaining({ level: 40, assets: 1, folders: 0 })]);
    expect(checking.index.workspaces.require(wsId).lastFullListingAt).toBeGreaterThanOrEqual(before);
    // The index holds exactly the tree a full listing gives.
    const placed = placeRemoteTree(treeFromListing(await user.hierarchy()));
    const stored = checking.index.remote.load(wsId);
    expect(new Map([...stored.files].sort())).toEqual(new Map([...placed.files].sort()));
    expect(new Map([...stored.folders].sort())).toEqual(new Map([...placed.folders].sort()));
    await checking.stop();
    cleanup.pop();

    // Listed again just now: the next start trusts the tree once more.
    await service.settled();
    mark = service.requests.length;
    const after = await AppRun.start(service, home);
    cleanup.push(() => after.stop());
    expect(idle(await after.engine.syncOnce())).toBe(true);
    await service.settled();
    expect(service.count(HIERARCHY, mark)).toBe(0);
  });

  it('follows the interval the engine is given, and finds nothing when the feed missed nothing', async () => {
    const { service, home, dir, user, colleague } = await setUp();
    const wsId = service.info.workspace_id;
    // Changes the feed does report, between the listings.
    await colleague.createFile('Docs/reported.md', 'the feed says so');

    const { logger, lines } = keptLogger();
    await service.settled();
    const mark = service.requests.length;
    const app = await AppRun.start(service, home, { logger, engine: { fullListingIntervalMs: 0 } });
    cleanup.push(() => app.stop());
    await app.engine.syncOnce();
    await app.engine.syncOnce();
    await service.settled();
    const cycles = listingLines(lines).length;

    // Every cycle listed (an interval of 0), each listing found the tree the feed kept.
    expect(cycles).toBeGreaterThanOrEqual(2);
    expect(service.count(HIERARCHY, mark)).toBe(cycles);
    expect(listingLines(lines).every((l) => l.level === 30 && l.assets === 0 && l.folders === 0)).toBe(true);
    expect(await localChecksums(dir)).toEqual(await remoteChecksums(user.client, wsId));

    // A week's interval: a listing 25 hours old is not due, in the first cycle or later ones.
    await app.stop();
    cleanup.pop();
    const week = { fullListingIntervalMs: 7 * 24 * HOUR };
    ageLastListing(home, wsId, 25 * HOUR);
    await service.settled();
    let from = service.requests.length;
    const patient = await AppRun.start(service, home, { engine: week });
    cleanup.push(() => patient.stop());
    expect(idle(await patient.engine.syncOnce())).toBe(true);
    expect(idle(await patient.engine.syncOnce())).toBe(true);
    await service.settled();
    expect(service.count(HIERARCHY, from)).toBe(0);
    await patient.stop();
    cleanup.pop();

    // Two weeks and a day old: due even in the start-up cycle (a command line run may have no other).
    ageLastListing(home, wsId, 15 * 24 * HOUR);
    await service.settled();
    from = service.requests.length;
    const once = await AppRun.start(service, home, { engine: week });
    cleanup.push(() => once.stop());
    expect(idle(await once.engine.syncOnce({ maxRounds: 1 }))).toBe(true);
    await service.settled();
    expect(service.count(HIERARCHY, from)).toBe(1);
  });
});
