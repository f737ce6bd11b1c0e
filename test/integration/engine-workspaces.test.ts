/**
 * Selective sync (excluded folders stay off this device both ways) and several workspaces of
 * one account under one sync root, each in its own folder.
 */
import { describe, expect, it } from 'vitest';
import type { Workspace } from '../helpers/served.js';
import { sanitizeName } from '../../main/local/paths.js';
import { idle, localChecksums, remoteChecksums, sha256, worlds, RemoteActor } from '../helpers/engine.js';
import { signIn } from '../helpers/service.js';

const world = worlds();

describe('selective sync', () => {
  it('neither downloads an excluded folder nor uploads local files under it, nor deletes it remotely', async () => {
    const w = await world();
    const excluded = ['Photography', 'Campaigns/Spring/Print'];
    const laptop = await w.device('laptop', { workspaces: [{ id: w.workspaceId, excluded }] });
    const isExcluded = (path: string): boolean => excluded.some((e) => path.startsWith(`${e}/`));

    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    const remote = await remoteChecksums(w.user.client, w.workspaceId);
    expect(remote.some(([p]) => isExcluded(p))).toBe(true);
    expect(await localChecksums(laptop.dir)).toEqual(remote.filter(([p]) => !isExcluded(p)));

    await w.colleague.createFile('Photography/studio-004.jpg', 'a new shot');
    await laptop.write('Photography/from-the-laptop.jpg', 'kept on this device');
    await laptop.write('Campaigns/Spring/Print/proof.pdf', 'kept on this device too');
    const second = await laptop.sync();

    expect(second.ok).toBe(true);
    expect(await laptop.exists('Photography/studio-004.jpg')).toBe(false);
    const after = await remoteChecksums(w.user.client, w.workspaceId);
    expect(after.map(([p]) => p)).toEqual([...remote.map(([p]) => p), 'Photography/studio-004.jpg'].sort());
    expect(idle(await laptop.sync())).toBe(true);
    expect(laptop.engine.status().state).toBe('up-to-date');
  });
});

describe('several workspaces', () => {
  it('syncs each workspace of the account into its own folder under the one root', async () => {
    const w = await world();
    const session = await signIn(w.service.url, { ...w.demo.user, accountId: w.demo.accountId, workspaceId: w.workspaceId });
    const created = await session.api<Workspace>('POST', '/workspaces', { body: { name: 'Archive: 2024/25' } });
    expect(created.status).toBe(201);
    const archive = new RemoteActor(w.user.client, created.json.id);
    await archive.createFile('Reports/annual.pdf', 'the annual report');
    await archive.createFile('index.txt', 'what is where');

    const laptop = await w.device('laptop', { workspaces: [{ id: w.workspaceId }, { id: archive.workspaceId }] });
    const report = await laptop.sync();

    expect(report.ok).toBe(true);
    expect(report.workspaces.map((r) => r.workspaceId)).toEqual([w.workspaceId, archive.workspaceId]);
    const folders = laptop.engine.status().workspaces.map((s) => s.folder);
    const archiveDir = laptop.path(sanitizeName('Archive: 2024/25'), laptop.root);
    expect(folders).toEqual([laptop.dir, archiveDir]);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(await localChecksums(archiveDir)).toEqual(await remoteChecksums(w.user.client, archive.workspaceId));

    await laptop.write('Reports/q1.pdf', 'first quarter', archiveDir);
    await laptop.sync();

    expect((await archive.assetAt('Reports/q1.pdf')).checksum).toBe(sha256('first quarter'));
    expect((await remoteChecksums(w.user.client, w.workspaceId)).some(([p]) => p.endsWith('q1.pdf'))).toBe(false);
    expect(await localChecksums(archiveDir)).toEqual(await remoteChecksums(w.user.client, archive.workspaceId));
    expect(laptop.engine.status().state).toBe('up-to-date');
    expect(await w.strayFiles()).toEqual([]);
  });
});
