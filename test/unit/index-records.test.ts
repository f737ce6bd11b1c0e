import { describe, expect, it } from 'vitest';
import { UnknownJournalEntryError } from '../../main/index/journal.js';
import { DEFAULT_BACKOFF, retryDelayMs } from '../../main/index/path-errors.js';
import { SecretInIndexError } from '../../main/index/settings.js';
import { checksumOf, useTempIndex, workspace } from './index-fixtures.js';

const { withIndex } = useTempIndex();


const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('journal', () => {
  it('keeps open operations across a restart until they finish', () => {
    const ids = withIndex((index) => {
      index.workspaces.add(workspace('ws-1'));
      index.workspaces.add(workspace('ws-2'));
      const upload = index.journal.begin(
        { workspaceId: 'ws-1', kind: 'upload', path: 'Brand/new.psd', state: { checksum: checksumOf(1), size: 10 } },
        1000,
      );
      const download = index.journal.begin(
        {
          workspaceId: 'ws-1',
          kind: 'download',
          path: 'Brand/hero.psd',
          assetId: 'asset-9',
          state: { tempPath: 'Brand/.hero.psd.assetsync-tmp', bytesDone: 0 },
        },
        1000,
      );
      const other = index.journal.begin({ workspaceId: 'ws-2', kind: 'delete', path: 'x.txt', state: { side: 'remote' } }, 1000);
      index.journal.update(upload.id, { state: { uploadKey: 'up_1' } }, 2000);
      index.journal.update(upload.id, { assetId: 'asset-new', state: { parentVersionId: 'v-1' } }, 3000);
      index.journal.update(download.id, { state: { bytesDone: 1_048_576 } }, 4000);
      index.journal.finish(other.id);
      return { upload: upload.id, download: download.id };
    });

    withIndex((index) => {
      expect(index.journal.open('ws-1')).toEqual([
        {
          id: ids.upload,
          workspaceId: 'ws-1',
          kind: 'upload',
          path: 'Brand/new.psd',
          assetId: 'asset-new',
          state: { checksum: checksumOf(1), size: 10, uploadKey: 'up_1', parentVersionId: 'v-1' },
          startedAt: 1000,
          updatedAt: 3000,
        },
        {
          id: ids.download,
          workspaceId: 'ws-1',
          kind: 'download',
          path: 'Brand/hero.psd',
          assetId: 'asset-9',
          state: { tempPath: 'Brand/.hero.psd.assetsync-tmp', bytesDone: 1_048_576 },
          startedAt: 1000,
          updatedAt: 4000,
        },
      ]);
      expect(index.journal.open('ws-2')).toEqual([]);

      index.journal.finish(ids.upload);
      index.journal.finish(ids.download);
    });

    withIndex((index) => {
      expect(index.journal.open('ws-1')).toEqual([]);
      expect(() => index.journal.update(ids.upload, { state: { bytesDone: 1 } })).toThrow(UnknownJournalEntryError);
    });
  });

  it('never reuses the id of a finished entry', () => {
    withIndex((index) => {
      index.workspaces.add(workspace());
      const first = index.journal.begin({ workspaceId: 'ws-1', kind: 'move', path: 'b', state: { fromPath: 'a' } });
      index.journal.finish(first.id);
      const second = index.journal.begin({ workspaceId: 'ws-1', kind: 'move', path: 'c', state: { fromPath: 'b' } });
      expect(second.id).toBeGreaterThan(first.id);
    });
  });
});

describe('path errors', () => {
  it('back off exponentially up to a cap', () => {
    const delays = Array.from({ length: 12 }, (_, i) => retryDelayMs(i + 1));
    expect(delays.slice(0, 4)).toEqual([10_000, 20_000, 40_000, 80_000]);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1] ?? 0);
    expect(delays.at(-1)).toBe(DEFAULT_BACKOFF.maxMs);
    expect(retryDelayMs(10_000)).toBe(HOUR);
  });

  it('wait longer after each failure, and come due only once the wait is over', () => {
    withIndex((index) => {
      index.workspaces.add(workspace());
      const t0 = 1_700_000_000_000;
      const first = index.errors.record('ws-1', 'Brand/locked.psd', { code: 'asset_locked', message: 'Locked by Bob' }, t0);
      expect(first).toMatchObject({ attempts: 1, firstFailedAt: t0, nextRetryAt: t0 + 10_000 });

      expect(index.errors.due('ws-1', t0 + 9_999)).toEqual([]);
      expect(index.errors.due('ws-1', t0 + 10_000).map((e) => e.path)).toEqual(['Brand/locked.psd']);

      const second = index.errors.record('ws-1', 'Brand/locked.psd', { code: 'asset_locked', message: 'Locked by Bob' }, t0 + 10_000);
      const third = index.errors.record('ws-1', 'brand/LOCKED.psd', { code: 'asset_locked', message: 'Still locked' }, t0 + 30_000);
      expect(second.nextRetryAt - second.lastFailedAt).toBe(20_000);
      expect(third).toMatchObject({ attempts: 3, firstFailedAt: t0, message: 'Still locked', nextRetryAt: t0 + 30_000 + 40_000 });
      expect(index.errors.due('ws-1', t0 + 69_999)).toEqual([]);

      let last = third;
      for (let i = 0; i < 20; i++) last = index.errors.record('ws-1', 'Brand/locked.psd', { message: 'again' }, t0 + HOUR * i);
      expect(last.nextRetryAt - last.lastFailedAt).toBe(HOUR);
      expect(last.code).toBe('unknown');
    });
  });

  it('list, persist and clear per path and per workspace', () => {
    withIndex((index) => {
      index.workspaces.add(workspace('ws-1'));
      index.workspaces.add(workspace('ws-2'));
      index.errors.record('ws-1', 'b.txt', { code: 'EACCES', message: 'permission denied' }, 0);
      index.errors.record('ws-1', 'a.txt', { code: 'EBUSY', message: 'file in use' }, 0);
      index.errors.record('ws-2', 'c.txt', { code: 'EBUSY', message: 'file in use' }, 0);
    });

    withIndex((index) => {
      expect(index.errors.list('ws-1').map((e) => [e.path, e.code])).toEqual([
        ['a.txt', 'EBUSY'],
        ['b.txt', 'EACCES'],
      ]);
      index.errors.clear('ws-1', 'A.TXT');
      expect(index.errors.get('ws-1', 'a.txt')).toBeUndefined();
      index.errors.clearAll('ws-1');
      expect(index.errors.list('ws-1')).toEqual([]);
      expect(index.errors.list('ws-2')).toHaveLength(1);
    });
  });

  it('follow a configured policy', () => {
    withIndex(
      (index) => {
        index.workspaces.add(workspace());
        const e = index.errors.record('ws-1', 'a', { message: 'x' }, 0);
        expect(e.nextRetryAt).toBe(1000);
      },
      { backoff: { initialMs: 1000, maxMs: 5000 } },
    );
  });
});

describe('notifications', () => {
  it('report each request as new only once, across restarts', () => {
    const r1 = { kind: 'review_request' as const, remoteKey: 'rr-1', title: 'Review hero.psd' };
    const r2 = { kind: 'review_request' as const, remoteKey: 'rr-2', title: 'Review logo.ai' };
    const c1 = { kind: 'change_request' as const, remoteKey: 'rr-1', title: 'Changes on hero.psd' };

    withIndex((index) => {
      expect(index.notifications.markSeen([r1, r2], 1000)).toEqual([r1, r2]);
      expect(index.notifications.markSeen([r1, r2], 2000)).toEqual([]);
    });

    withIndex((index) => {
      // Same remote key under another kind is another notice; repeats within one poll count once.
      expect(index.notifications.markSeen([r2, c1, c1], 3000)).toEqual([c1]);
      index.notifications.markRead('review_request', 'rr-1');
      expect(index.notifications.list()).toEqual([
        { kind: 'change_request', remoteKey: 'rr-1', firstSeenAt: 3000, read: false },
        { kind: 'review_request', remoteKey: 'rr-1', firstSeenAt: 1000, read: true },
        { kind: 'review_request', remoteKey: 'rr-2', firstSeenAt: 1000, read: false },
      ]);
      index.notifications.markAllRead();
      expect(index.notifications.list().every((n) => n.read)).toBe(true);
    });
  });

  it('mark read what the user read, also a request the poll has not seen yet, which is then no news', () => {
    const seen = { kind: 'review_request' as const, remoteKey: 'rr-1' };
    const unseen = { kind: 'change_request' as const, remoteKey: 'cr-9' };
    const other = { kind: 'review_request' as const, remoteKey: 'rr-2' };
    withIndex((index) => {
      index.notifications.markSeen([seen, other], 1000);
      index.notifications.markItemsRead([seen, unseen], 2000);
      expect(index.notifications.list()).toEqual([
        { kind: 'change_request', remoteKey: 'cr-9', firstSeenAt: 2000, read: true },
        { kind: 'review_request', remoteKey: 'rr-1', firstSeenAt: 1000, read: true },
        { kind: 'review_request', remoteKey: 'rr-2', firstSeenAt: 1000, read: false },
      ]);
      expect(index.notifications.markSeen([seen, unseen, other], 3000)).toEqual([]);
    });
  });

  it('forget old notices that are no longer current, and keep current or recent ones', () => {
    const open = { kind: 'review_request' as const, remoteKey: 'rr-open' };
    const closedOld = { kind: 'review_request' as const, remoteKey: 'rr-closed' };
    const closedRecent = { kind: 'change_request' as const, remoteKey: 'cr-recent' };
    withIndex((index) => {
      index.notifications.markSeen([open, closedOld], 1000);
      index.notifications.markSeen([closedRecent], 5000);
      expect(index.notifications.prune([open], 4000)).toBe(1);
      expect(index.notifications.list().map((n) => n.remoteKey).sort()).toEqual(['cr-recent', 'rr-open']);
      // Still current: never raised again, however old.
      expect(index.notifications.markSeen([open], 9000)).toEqual([]);
    });
  });
});

describe('activity log', () => {
  it('round-trips entries, newest first, filtered by workspace and paged', () => {
    withIndex((index) => {
      index.workspaces.add(workspace('ws-1'));
      index.workspaces.add(workspace('ws-2'));
      index.activity.add({ at: 1, workspaceId: 'ws-1', kind: 'upload', path: 'a.psd', message: 'Uploaded a.psd', details: { bytes: 10 } });
      index.activity.add({ at: 2, kind: 'signed_in', message: 'Signed in' });
      index.activity.add({ at: 3, workspaceId: 'ws-2', kind: 'download', path: 'b.psd', message: 'Downloaded b.psd' });
      index.activity.add({ at: 4, workspaceId: 'ws-1', kind: 'conflict', path: 'c.psd', message: 'Kept both', details: ['x', 1] });
    });

    withIndex((index) => {
      const all = index.activity.list();
      expect(all.map((e) => e.at)).toEqual([4, 3, 2, 1]);
      expect(all[3]).toEqual({
        id: expect.any(Number),
        at: 1,
        workspaceId: 'ws-1',
        kind: 'upload',
        path: 'a.psd',
        message: 'Uploaded a.psd',
        details: { bytes: 10 },
      });
      expect(all[2]).toMatchObject({ workspaceId: null, path: null, details: null });
      expect(index.activity.list({ workspaceId: 'ws-1' }).map((e) => e.at)).toEqual([4, 1]);
      const page = index.activity.list({ limit: 2 });
      expect(index.activity.list({ beforeId: page.at(-1)?.id, limit: 2 }).map((e) => e.at)).toEqual([2, 1]);
      expect(all.find((e) => e.at === 3)?.details).toBeNull();
    });
  });

  it('keeps only the newest entries', () => {
    withIndex((index) => {
      index.activity.addMany(Array.from({ length: 10_050 }, (_, i) => ({ at: i, kind: 'scan', message: `entry ${i}` })));
      index.activity.add({ at: 10_050, kind: 'scan', message: 'entry 10050' });

      const kept = index.activity.list({ limit: 20_000 });
      expect(kept).toHaveLength(10_000);
      expect(kept[0]?.message).toBe('entry 10050');
      expect(kept.at(-1)?.message).toBe('entry 51');
    });
  });

  it('honours a configured cap', () => {
    withIndex(
      (index) => {
        for (let i = 0; i < 5; i++) index.activity.add({ at: i, kind: 'scan', message: `entry ${i}` });
        expect(index.activity.list().map((e) => e.message)).toEqual(['entry 4', 'entry 3', 'entry 2']);
      },
      { activityCap: 3 },
    );
  });
});

describe('settings', () => {
  it('round-trip JSON values across reopen', () => {
    withIndex((index) => {
      index.settings.set('deviceName', 'Ana’s MacBook');
      index.settings.set('bandwidth', { upKbps: 500, downKbps: null });
      index.settings.set('launchAtLogin', true);
      index.settings.set('launchAtLogin', false);
      index.settings.set('obsolete', 1);
      index.settings.delete('obsolete');
    });

    withIndex((index) => {
      expect(index.settings.get('deviceName')).toBe('Ana’s MacBook');
      expect(index.settings.get<{ upKbps: number }>('bandwidth')?.upKbps).toBe(500);
      expect(index.settings.get('missing')).toBeUndefined();
      expect(index.settings.all()).toEqual({ bandwidth: { upKbps: 500, downKbps: null }, deviceName: 'Ana’s MacBook', launchAtLogin: false });
    });
  });

  it('refuse anything that looks like a secret', () => {
    withIndex((index) => {
      for (const key of ['apiSecret', 'api_key', 'accessToken', 'password']) {
        expect(() => index.settings.set(key, 'x')).toThrow(SecretInIndexError);
      }
      expect(index.settings.all()).toEqual({});
    });
  });
});
