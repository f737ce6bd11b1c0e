/**
 * A restart picks up from the tree the index kept: the engine is stopped, the workspace changes
 * on the service in every way a sync client must follow, and the engine started again in a fresh
 * process state (new index connection, client and engine) follows the changes feed instead of
 * listing the whole workspace, and ends where a full listing would have taken it.
 *
 * The service runs in its own process with its request log on (`service/cli.ts --log`), so the
 * requests are counted by route from the service's own log, over real HTTP.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { placeRemoteTree, treeFromListing } from '../../main/engine/remote-tree.js';
import { openIndex } from '../../main/index/sync-index.js';
import { bytesFor, idle, localChecksums, remoteChecksums } from '../helpers/engine.js';
import { AppRun, CHANGES, HIERARCHY, loggedWorlds, type LoggedService } from '../helpers/logged-service.js';

describe('restart with a stored remote tree', () => {
  const { setUp, cleanup } = loggedWorlds('asset-sync-restart-');

  /** The first run: a full listing (nothing is stored yet), everything downloaded, then stopped. */
  async function firstRun(service: LoggedService, home: string): Promise<void> {
    const first = await AppRun.start(service, home);
    await first.converge();
    await first.stop();
    await service.settled();
    expect(service.count(HIERARCHY)).toBe(1);
  }

  it('follows every kind of change made while it was stopped, without listing the workspace', async () => {
    const { service, home, dir, user, colleague } = await setUp();
    await firstRun(service, home);
    const wsId = service.info.workspace_id;

    // While stopped: a new file (in a new folder too), a new version, a rename, a move, a
    // delete, a folder rename, a folder move and a folder deleted with what it holds.
    const listing = await colleague.hierarchy();
    const folderId = (name: string): string => {
      const found = listing.folders.find((f) => f.name === name);
      if (!found) throw new Error(`no folder ${name}`);
      return found.id;
    };
    await colleague.createFile('Docs/new-notes.md', 'written while the laptop was off');
    await colleague.createFile('Handoff/Week 1/cut.mov', bytesFor('cut', 70_000));
    await colleague.newVersion((await colleague.assetAt('Brand/brand-guidelines.pdf')).assetId, bytesFor('guidelines v2', 50_000));
    await colleague.client.updateAsset(wsId, (await colleague.assetAt('Docs/budget.xlsx')).assetId, { file_name: 'budget 2026.xlsx' });
    await colleague.client.updateAsset(wsId, (await colleague.assetAt('Photography/studio-001.jpg')).assetId, { folder_id: folderId('Docs') });
    await colleague.client.deleteAssets(wsId, [(await colleague.assetAt('README.txt')).assetId]);
    await colleague.client.updateFolder(wsId, folderId('Logos'), { name: 'Marks' });
    await colleague.client.updateFolder(wsId, folderId('Print'), { parent_id: folderId('Campaigns') });
    await colleague.client.deleteFolder(wsId, folderId('Colors'), { recursive: true });
    await service.settled();
    const mark = service.requests.length;

    const second = await AppRun.start(service, home);
    cleanup.push(() => second.stop());
    const { report } = await second.converge();
    await service.settled();
    const hierarchyCalls = service.count(HIERARCHY, mark);
    const changesCalls = service.count(CHANGES, mark);

    expect(report.ok).toBe(true);
    expect(hierarchyCalls).toBe(0);
    expect(changesCalls).toBeGreaterThan(0);
    const remote = await remoteChecksums(user.client, wsId);
    expect(remote.map(([path]) => path)).toEqual(expect.arrayContaining(['Brand/Marks/logo-mono.svg', 'Campaigns/Print/flyer.ai', 'Docs/budget 2026.xlsx', 'Docs/studio-001.jpg', 'Handoff/Week 1/cut.mov']));
    expect(await localChecksums(dir)).toEqual(remote);
    // Exactly the tree a full listing gives, in the index too.
    const placed = placeRemoteTree(treeFromListing(await user.hierarchy()));
    const stored = second.index.remote.load(wsId);
    expect(new Map([...stored.files].sort())).toEqual(new Map([...placed.files].sort()));
    expect(new Map([...stored.folders].sort())).toEqual(new Map([...placed.folders].sort()));

    // And once more with nothing changed: no listing, nothing to do.
    await second.stop();
    cleanup.pop();
    const third = await AppRun.start(service, home);
    cleanup.push(() => third.stop());
    const from = service.requests.length;
    expect(idle(await third.engine.syncOnce())).toBe(true);
    await service.settled();
    expect(service.count(HIERARCHY, from)).toBe(0);
  });

  it('places the stored tree afresh when selective sync changed while it was stopped', async () => {
    const { service, home, user } = await setUp();
    await firstRun(service, home);
    const wsId = service.info.workspace_id;
    const before = await remoteChecksums(user.client, wsId);
    const docs = before.filter(([path]) => path.startsWith('Docs/'));
    expect(docs.length).toBeGreaterThan(0);

    // Nothing changed on the service: the stored tree is current, but its paths were placed
    // with Docs included. Placed as stored, Docs' files would read as deleted here.
    const second = await AppRun.start(service, home, { excluded: ['Docs'] });
    cleanup.push(() => second.stop());
    const { report } = await second.converge();
    await service.settled();

    expect(report.ok).toBe(true);
    expect(await remoteChecksums(user.client, wsId)).toEqual(before);
    expect([...second.index.remote.load(wsId).files.values()].filter((f) => f.path.startsWith('Docs/'))).toEqual([]);
  });

  it('lists in full when the service no longer knows the stored cursor', async () => {
    const { service, home, dir, user, colleague } = await setUp();
    await firstRun(service, home);
    const wsId = service.info.workspace_id;
    // A cursor the service never gave (an index restored from another machine's backup): 410.
    const index = openIndex(join(home, 'index.db'));
    index.remote.saveTree(wsId, { sequence: '1000000000' });
    index.close();
    await colleague.createFile('Docs/after-the-restore.md', 'new');
    await service.settled();
    const mark = service.requests.length;

    const second = await AppRun.start(service, home);
    cleanup.push(() => second.stop());
    const { report } = await second.converge();
    await service.settled();

    expect(report.ok).toBe(true);
    expect(service.count(HIERARCHY, mark)).toBe(1);
    expect(await localChecksums(dir)).toEqual(await remoteChecksums(user.client, wsId));
    expect(Number(second.index.workspaces.get(wsId)?.sequence)).toBeLessThan(1_000_000_000);
  });

  it('lists in full when the index holds no usable tree', async () => {
    const { service, home, dir, user, colleague } = await setUp();
    await firstRun(service, home);
    const wsId = service.info.workspace_id;
    // Rows written without the service's names (an index from before the tree was kept).
    const index = openIndex(join(home, 'index.db'));
    const kept = index.remote.load(wsId);
    index.remote.replaceAll(wsId, { folders: kept.folders.values(), files: kept.files.values(), sequence: index.workspaces.get(wsId)?.sequence ?? '0' });
    index.close();
    await colleague.client.deleteAssets(wsId, [(await colleague.assetAt('Docs/budget.xlsx')).assetId]);
    await service.settled();
    const mark = service.requests.length;

    const second = await AppRun.start(service, home);
    cleanup.push(() => second.stop());
    const { report } = await second.converge();
    await service.settled();

    expect(report.ok).toBe(true);
    expect(service.count(HIERARCHY, mark)).toBe(1);
    expect(await localChecksums(dir)).toEqual(await remoteChecksums(user.client, wsId));
  });
});
