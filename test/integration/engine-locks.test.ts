/**
 * A lock held by another user, as a second client sees it (locked-files.ts): the file is
 * read-only while the lock holds, a new version arrives read-only too, and once the lock goes the
 * file is writable again and the user is told. The engine's own chmod is not taken for an edit:
 * the stamp it leaves is recorded, and nothing is read again or uploaded.
 */
import { lstatSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { ActivityItem } from '../../shared/engine.js';
import { pathKey } from '../../main/local/paths.js';
import { bytesFor, idle, sha256, worlds, type Device, type World } from '../helpers/engine.js';
import { runRng } from '../helpers/run-seed.js';
import { signIn } from '../helpers/service.js';

const world = worlds();
const rng = runRng('LOCKS_SEED');
const PATHS = ['Docs/asset-naming.md', 'Brand/Logos/logo-primary.svg', 'Campaigns/Spring/brief.md'];

const writable = (device: Device, rel: string): boolean => (lstatSync(device.path(rel)).mode & 0o222) !== 0;

/** Dana's laptop and Rafael's desk, both synced; Rafael's activity is kept. */
async function twoUsers(): Promise<{ w: World; laptop: Device; desk: Device; activity: ActivityItem[]; path: string; assetId: string }> {
  const w = await world();
  const laptop = await w.device('laptop');
  const desk = await w.device('desk', { credentials: { key: w.demo.colleague.apiKey, secret: w.demo.colleague.apiSecret } });
  await laptop.sync();
  await desk.sync();
  const activity: ActivityItem[] = [];
  desk.engine.on('activity', (item) => activity.push(item));
  const path = rng.pick(PATHS);
  return { w, laptop, desk, activity, path, assetId: (await w.user.assetAt(path)).assetId };
}

/** The hash cache vouches for the file as it is on disk now: the next scan does not read it. */
function cacheVouchesNow(device: Device, rel: string): boolean {
  const entry = device.index.hashCache(device.engine.status().workspaces[0]?.workspaceId ?? '').get(pathKey(rel));
  const stats = lstatSync(device.path(rel), { bigint: true });
  return entry?.ctimeNs === stats.ctimeNs.toString() && entry.mtimeNs === stats.mtimeNs.toString() && entry.size === Number(stats.size);
}

describe('a file locked by someone else', () => {
  it('is read-only while the lock holds, a new version too, and writable again once it is released, which the user is told', async () => {
    const { w, desk, activity, path, assetId } = await twoUsers();
    await w.user.client.updateAsset(w.workspaceId, assetId, { locked: true });

    await desk.sync();
    expect(writable(desk, path)).toBe(false);
    expect(cacheVouchesNow(desk, path)).toBe(true);
    expect(activity.map((a) => a.message)).toContain(`${path} is locked by Dana Designer: it is read-only here until they unlock it`);
    expect(idle(await desk.sync())).toBe(true);

    const next = bytesFor(`${rng.seed}:v-next`, rng.int(1, 200_000));
    await w.user.newVersion(assetId, next);
    await desk.sync();
    expect(sha256(await desk.read(path))).toBe(sha256(next));
    expect(writable(desk, path)).toBe(false);
    expect(cacheVouchesNow(desk, path)).toBe(true);

    await w.user.client.updateAsset(w.workspaceId, assetId, { locked: false });
    const released = await desk.sync();
    expect(writable(desk, path)).toBe(true);
    expect(cacheVouchesNow(desk, path)).toBe(true);
    expect(released.workspaces[0]?.uploaded).toBe(0);
    expect(activity.filter((a) => a.kind === 'unlocked').map((a) => a.message)).toEqual([`${path} is unlocked: you can edit it now`]);
    expect(idle(await desk.sync())).toBe(true);
  });

  it('leaves an edit saved anyway writable, holds it back, and uploads it once the lock is released', async () => {
    const { w, desk, activity, path, assetId } = await twoUsers();
    await w.user.client.updateAsset(w.workspaceId, assetId, { locked: true });
    await desk.sync();
    expect(writable(desk, path)).toBe(false);

    // An editor that saves by writing a new file and renaming it over the old one: a read-only
    // file in a writable folder does not stop it.
    const edit = bytesFor(`${rng.seed}:desk edit`, rng.int(1, 100_000));
    await writeFile(desk.path(`${path}.saving`), edit);
    await rename(desk.path(`${path}.saving`), desk.path(path));
    const held = await desk.sync();
    expect(held.workspaces[0]?.problems).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'locked', path })]));
    expect(writable(desk, path)).toBe(true);

    await w.user.client.updateAsset(w.workspaceId, assetId, { locked: false });
    await desk.converge();
    expect((await w.user.assetAt(path)).checksum).toBe(sha256(edit));
    expect(activity.filter((a) => a.kind === 'unlocked').map((a) => a.message)).toEqual([`${path} is unlocked: your edit goes up now`]);
  });

  it("is not read-only for the lock's own holder", async () => {
    const { w, laptop, path, assetId } = await twoUsers();
    await w.user.client.updateAsset(w.workspaceId, assetId, { locked: true });
    await laptop.sync();
    expect(writable(laptop, path)).toBe(true);
  });
});

describe('a viewer', () => {
  it('is told plainly that their changes cannot go up, and whom to ask; nothing is lost', async () => {
    const w = await world();
    // Rafael may only look at the workspace from now on.
    const dana = await signIn(w.service.url, { accountId: w.demo.accountId, workspaceId: w.workspaceId, ...w.demo.user });
    expect((await dana.api('POST', `/workspaces/members/${w.demo.colleague.userId}`, { body: { roles: ['viewer'] } })).status).toBe(200);
    const desk = await w.device('desk', { credentials: { key: w.demo.colleague.apiKey, secret: w.demo.colleague.apiSecret } });
    await desk.sync();
    const path = rng.pick(PATHS);
    await desk.write(path, 'a viewer edits anyway\n');
    await desk.write('viewer-notes.txt', 'new from a viewer\n');

    const report = await desk.sync();
    expect(report.ok).toBe(false);
    const problems = report.workspaces[0]?.problems.filter((p) => p.kind === 'error') ?? [];
    expect(problems.map((p) => p.path).sort()).toEqual([path, 'viewer-notes.txt'].sort());
    for (const p of problems) {
      expect(p.message).toContain(`"${p.path}" was not synced to the service: your role in this workspace does not allow changes`);
      expect(p.message).toContain('ask a workspace admin for the editor role');
    }
    expect((await desk.read(path)).toString()).toBe('a viewer edits anyway\n');
  });
});
