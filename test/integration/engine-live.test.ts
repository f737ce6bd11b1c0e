/**
 * The engine left running (`start()`): the watcher sends local changes up, the poll brings
 * remote ones down, and the events a host shows (status, activity) tell what happened.
 */
import { unlink } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import type { ActivityItem, EngineStatus } from '../../shared/engine.js';
import { localChecksums, remoteChecksums, sha256, worlds } from '../helpers/engine.js';

const world = worlds();
const WAIT = { timeout: 20_000, interval: 100 };

describe('running engine', () => {
  it('uploads what the watcher sees, downloads what the poll finds, and reports it', async () => {
    const w = await world();
    const laptop = await w.device('laptop', { engine: { pollIntervalMs: 300, debounceMs: 50 } });
    const statuses: EngineStatus[] = [];
    const activity: ActivityItem[] = [];
    laptop.engine.on('status', (s) => statuses.push(s));
    laptop.engine.on('activity', (a) => activity.push(a));

    await laptop.engine.start();
    await vi.waitFor(async () => {
      expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    }, WAIT);

    await laptop.write('Docs/meeting-notes.md', 'notes taken while running\n');
    await vi.waitFor(async () => {
      expect((await w.user.assetAt('Docs/meeting-notes.md')).checksum).toBe(sha256('notes taken while running\n'));
    }, WAIT);

    const hero = await w.user.assetAt('Campaigns/Spring/Social/hero.psd');
    await w.colleague.newVersion(hero.assetId, 'hero, retouched');
    await vi.waitFor(async () => {
      expect((await laptop.read('Campaigns/Spring/Social/hero.psd')).toString()).toBe('hero, retouched');
    }, WAIT);
    await vi.waitFor(() => expect(laptop.engine.status().state).toBe('up-to-date'), WAIT);

    expect(activity.some((a) => a.kind === 'uploaded' && a.path === 'Docs/meeting-notes.md')).toBe(true);
    expect(activity.some((a) => a.kind === 'downloaded' && a.path === 'Campaigns/Spring/Social/hero.psd')).toBe(true);
    expect(statuses.some((s) => s.state === 'syncing')).toBe(true);
    expect(await w.user.versions((await w.user.assetAt('Docs/meeting-notes.md')).assetId)).toHaveLength(1);

    await laptop.engine.stop();
    expect(laptop.engine.status().state).toBe('stopped');
  });

  it('watches the workspace folder its first cycle made: saves go up without waiting for a poll', async () => {
    const w = await world();
    // A poll every 10 minutes: within the test only the watcher can notice the saves.
    const laptop = await w.device('laptop', { engine: { pollIntervalMs: 600_000, debounceMs: 50 } });
    await laptop.engine.start();
    await vi.waitFor(async () => {
      expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    }, WAIT);

    await laptop.write('Docs/budget.xlsx', 'budget, edited while the app runs\n');
    await laptop.write('Docs/new-brief.md', 'a new brief\n');
    await vi.waitFor(async () => {
      expect((await w.user.assetAt('Docs/budget.xlsx')).checksum).toBe(sha256('budget, edited while the app runs\n'));
      expect((await w.user.assetAt('Docs/new-brief.md')).checksum).toBe(sha256('a new brief\n'));
    }, WAIT);
    await laptop.engine.stop();
  });

  it('counts the local changes saved while paused, uploads none of them, and syncs them once resumed', async () => {
    const w = await world();
    const laptop = await w.device('laptop', { engine: { pollIntervalMs: 600_000, debounceMs: 50 } });
    const waiting = () => laptop.engine.status().workspaces[0]?.pausedChanges;
    await laptop.engine.start();
    await vi.waitFor(async () => {
      expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    }, WAIT);
    await vi.waitFor(() => expect(laptop.engine.status().state).toBe('up-to-date'), WAIT);
    const synced = await remoteChecksums(w.user.client, w.workspaceId);

    laptop.engine.pause();
    expect(laptop.engine.status()).toMatchObject({ state: 'paused', paused: true });
    expect(waiting()).toBe(0);
    await laptop.write('.DS_Store', 'ignored: never synced, never counted');
    await laptop.write('Docs/new-brief.md', 'a new brief\n');
    await laptop.write('Docs/budget.xlsx', 'budget, edited while paused\n');
    await laptop.write('Docs/budget.xlsx', 'budget, edited again while paused\n');
    await unlink(laptop.path('README.txt'));
    // A new file, an edited one (saved twice: one change) and a deleted one.
    await vi.waitFor(() => expect(waiting()).toBe(3), WAIT);
    // A file made and removed again while paused leaves nothing to sync.
    await laptop.write('Docs/scratch.txt', 'gone in a moment');
    await vi.waitFor(() => expect(waiting()).toBe(4), WAIT);
    await unlink(laptop.path('Docs/scratch.txt'));
    await vi.waitFor(() => expect(waiting()).toBe(3), WAIT);
    expect(laptop.engine.status().state).toBe('paused');
    expect(await remoteChecksums(w.user.client, w.workspaceId)).toEqual(synced);

    laptop.engine.resume();
    expect(waiting()).toBe(0);
    await vi.waitFor(async () => {
      expect((await w.user.assetAt('Docs/new-brief.md')).checksum).toBe(sha256('a new brief\n'));
      expect((await w.user.assetAt('Docs/budget.xlsx')).checksum).toBe(sha256('budget, edited again while paused\n'));
      expect((await remoteChecksums(w.user.client, w.workspaceId)).map(([path]) => path)).not.toContain('README.txt');
    }, WAIT);
    await vi.waitFor(() => expect(laptop.engine.status().state).toBe('up-to-date'), WAIT);
    await laptop.engine.stop();
  });
});
