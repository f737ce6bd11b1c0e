/**
 * A sync against a service that misbehaves converges: tokens expiring mid-sync, 429s, 5xx,
 * dropped connections and truncated downloads. Every file is verified against the service, no
 * version is made twice, no temp file is left.
 */
import { describe, expect, it } from 'vitest';
import type { ServiceOptions } from '../../service/index.js';
import { bytesFor, faults, localChecksums, remoteChecksums, sha256, tempFiles, worlds, type Device, type World } from '../helpers/engine.js';

const world = worlds();

/**
 * Both directions under the given service: a first mirror, then local new files and edits
 * going up while the colleague's edits come down, then a second device mirroring the result.
 */
async function roundTrip(w: World): Promise<Device[]> {
  const laptop = await w.device('laptop');
  await laptop.converge();
  expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));

  const edited = await w.user.assetAt('Docs/asset-naming.md');
  const theirs = await w.user.assetAt('Photography/studio-003.jpg');
  const versionsBefore = {
    edited: (await w.user.versions(edited.assetId)).length,
    theirs: (await w.user.versions(theirs.assetId)).length,
  };
  const fresh = Array.from({ length: 6 }, (_, i) => ({ path: `Uploads/batch-${i}.bin`, bytes: bytesFor(`fresh ${i}`, 40_000 + i * 9_000) }));
  for (const f of fresh) await laptop.write(f.path, f.bytes);
  await laptop.write('Docs/asset-naming.md', 'edited under bad weather\n');
  await w.colleague.newVersion(theirs.assetId, bytesFor('colleague', 120_000));

  await laptop.converge();

  const remote = await remoteChecksums(w.user.client, w.workspaceId);
  expect(await localChecksums(laptop.dir)).toEqual(remote);
  expect(await tempFiles(laptop.root)).toEqual([]);
  for (const f of fresh) {
    const entry = await w.user.assetAt(f.path);
    expect(entry.checksum).toBe(sha256(f.bytes));
    expect(await w.user.versions(entry.assetId)).toHaveLength(1);
  }
  // Exactly the assets expected: nothing created twice.
  expect(remote).toHaveLength(w.demo.assetIds.length + fresh.length);
  const editedVersions = await w.user.versions(edited.assetId);
  expect(editedVersions).toHaveLength(versionsBefore.edited + 1);
  expect(editedVersions[0]?.commit_parent_id).toBe(edited.versionId);
  expect(await w.user.versions(theirs.assetId)).toHaveLength(versionsBefore.theirs + 1);

  const desktop = await w.device('desktop');
  await desktop.converge();
  expect(await localChecksums(desktop.dir)).toEqual(remote);
  expect(await tempFiles(desktop.root)).toEqual([]);
  expect(await w.strayFiles()).toEqual([]);
  return [laptop, desktop];
}

describe('token expiry', () => {
  it('renews a token that expires mid-sync and converges', async () => {
    const w = await world({ service: { tokenTtlSeconds: 2, faults: faults({ latencyMs: 60 }) } });
    await roundTrip(w);
  });
});

const FAULTS: Array<[string, Partial<ServiceOptions>, 'error5xx' | 'drop' | 'truncate' | null]> = [
  ['429 rate limiting', { rateLimitPerSecond: 15 }, null],
  ['5xx answers', { faults: faults({ error5xx: 0.2, seed: 11 }) }, 'error5xx'],
  ['dropped connections', { faults: faults({ drop: 0.1, seed: 5 }) }, 'drop'],
  ['truncated downloads', { faults: faults({ truncate: 0.3, seed: 7 }) }, 'truncate'],
];

describe('faults', () => {
  it.each(FAULTS)('converge under %s', async (_name, service, kind) => {
    const w = await world({ service });
    const devices = await roundTrip(w);
    if (kind) expect(w.service.faults?.counts[kind]).toBeGreaterThan(0);
    else expect(devices.flatMap((d) => d.retries).some((r) => r.error.status === 429)).toBe(true);
  }, 120_000);
});

describe('the service out of reach in the middle of a sync', () => {
  it('is one problem of the workspace, not one per file, and every file arrives once it answers again', async () => {
    const w = await world({ demo: { assets: 0 }, service: { faults: faults({}) } });
    for (let i = 0; i < 12; i += 1) await w.colleague.createFile(`Shots/shot-${i}.jpg`, bytesFor(`shot ${i}`, 20_000));
    const injected = w.service.faults;
    if (!injected) throw new Error('the service was started with faults');
    // Every download's first request has its connection cut: to the client, the service is gone.
    injected.setRoutes([{ method: 'GET', path: '/workspaces/assets', answer: 'drop' }]);
    const laptop = await w.device('laptop');

    const report = await laptop.sync();
    expect(report.ok).toBe(false);
    const problems = report.workspaces.flatMap((ws) => ws.problems);
    expect(problems.map((p) => [p.kind, p.path])).toEqual([['offline', null]]);
    expect(problems[0]?.message).toContain('12 files wait');
    expect(laptop.engine.status().state).toBe('offline');

    injected.setRoutes([]);
    await laptop.converge();
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(laptop.engine.status().workspaces[0]?.problems).toEqual([]);
  });
});
