/**
 * The workspace folder removed (`rm -rf`) while the engine runs: nothing is deleted on the
 * service, a "marker" problem says what happened, an empty folder made in its place is not
 * taken for it, and once the folder is back the engine carries on by itself.
 */
import { cp, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../shared/engine.js';
import { localChecksums, remoteChecksums, remoteFiles, worlds } from '../helpers/engine.js';
import { waitFor } from './local-faults.js';

const world = worlds();

describe('the workspace folder removed while the engine runs', () => {
  it('deletes nothing on the service, says so, and resumes once the folder is back', async () => {
    const w = await world();
    const laptop = await w.device('laptop', { engine: { pollIntervalMs: 150, debounceMs: 50 } });
    await laptop.converge();
    const synced = await remoteChecksums(w.user.client, w.workspaceId);
    expect(synced.length).toBeGreaterThan(10);
    // What a backup (or the drive plugged in again) gives back.
    const backup = join(w.home, 'backup');
    await cp(laptop.dir, backup, { recursive: true, preserveTimestamps: true });

    let statuses = 0;
    laptop.engine.on('status', () => (statuses += 1));
    await laptop.engine.start();
    await rm(laptop.dir, { recursive: true, force: true });

    const markerProblem = (): Problem | undefined =>
      laptop.engine.status().workspaces.flatMap((ws) => ws.problems).find((p) => p.kind === 'marker');
    await waitFor('a marker problem', () => markerProblem() !== undefined);
    expect(markerProblem()?.message).toMatch(/missing.*Nothing was changed/);
    expect(markerProblem()?.hint).toMatch(/move the folder back/);

    // An empty folder in its place is not the synced folder: still nothing deleted, nothing downloaded into it.
    await mkdir(laptop.dir);
    const seen = statuses;
    await waitFor('a few more cycles', () => statuses > seen + 4);
    expect(markerProblem()?.message).toMatch(/not the one this workspace synced to/);
    expect(await localChecksums(laptop.dir)).toEqual([]);
    expect(await remoteChecksums(w.user.client, w.workspaceId)).toEqual(synced);
    expect((await w.user.hierarchy(true)).assets.every((a) => a.isActive)).toBe(true);

    // The folder back: the engine carries on, with a file a colleague added meanwhile.
    await w.colleague.createFile('Docs/while-away.txt', 'added while the folder was gone\n');
    await rm(laptop.dir, { recursive: true });
    await cp(backup, laptop.dir, { recursive: true, preserveTimestamps: true });
    await waitFor('the new file downloaded', () => laptop.exists('Docs/while-away.txt'));
    await waitFor('the marker problem gone', () => markerProblem() === undefined);
    await laptop.engine.stop();

    expect((await remoteFiles(w.user.client, w.workspaceId)).size).toBe(synced.length + 1);
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
  });
});
