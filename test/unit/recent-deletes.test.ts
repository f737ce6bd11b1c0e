/**
 * The mass-delete brake's memory of recent deletions (`main/engine/recent-deletes.ts`): kept in a
 * real index file across a reopen, bounded however many files go, pruned as the window passes.
 * The engine across a restart is in test/integration/engine-deletes.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { RECENT_DELETES_MS, RecentDeletes, recentDeletesSetting } from '../../main/engine/recent-deletes.js';
import { forgetSyncedState } from '../../main/engine/workspace-sync.js';
import { openIndex } from '../../main/index/sync-index.js';

const dir = mkdtempSync(join(tmpdir(), 'recent-deletes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('recent deletions', () => {
  it('survive a reopen of the index, stay bounded, and leave it once out of the window', async () => {
    const file = join(dir, 'index.db');
    let now = 1_800_000_000_000;
    const clock = (): number => now;

    let index = openIndex(file);
    const recent = new RecentDeletes(index, 'ws-1', clock);
    // 5,000 files over 100 seconds, on both sides.
    for (let i = 0; i < 5000; i += 1) {
      now += 20;
      recent.record(i % 5 === 0 ? 'local' : 'remote');
    }
    expect(recent.counts()).toEqual({ local: 1000, remote: 4000 });
    await nextTurn();
    const stored = index.settings.get<{ local: unknown[]; remote: unknown[] }>(recentDeletesSetting('ws-1'));
    expect(stored?.remote.length).toBeLessThanOrEqual(101);
    index.close();

    index = openIndex(file);
    const reopened = new RecentDeletes(index, 'ws-1', clock);
    expect(reopened.counts()).toEqual({ local: 1000, remote: 4000 });
    expect(new RecentDeletes(index, 'ws-2', clock).counts()).toEqual({ local: 0, remote: 0 });

    // Half of them leave the window…
    now += RECENT_DELETES_MS - 50_000;
    const half = reopened.counts();
    expect(half.local + half.remote).toBeGreaterThan(2400);
    expect(half.local + half.remote).toBeLessThan(2600);
    // …then all, and the setting goes with them.
    now += 60_000;
    expect(reopened.counts()).toEqual({ local: 0, remote: 0 });
    await nextTurn();
    expect(index.settings.get(recentDeletesSetting('ws-1'))).toBeUndefined();

    reopened.record('remote');
    reopened.clear();
    await nextTurn();
    expect(new RecentDeletes(index, 'ws-1', clock).counts()).toEqual({ local: 0, remote: 0 });
    index.close();
  });

  it('are forgotten with the workspace (workspaces remove, workspaces reset)', async () => {
    const index = openIndex(join(dir, 'forget.db'));
    const recent = new RecentDeletes(index, 'ws-1');
    for (let i = 0; i < 30; i += 1) recent.record('local');
    new RecentDeletes(index, 'ws-2').record('remote');
    await nextTurn();
    forgetSyncedState(index, 'ws-1');
    expect(new RecentDeletes(index, 'ws-1').counts()).toEqual({ local: 0, remote: 0 });
    expect(new RecentDeletes(index, 'ws-2').counts()).toEqual({ local: 0, remote: 1 });
    index.close();
  });
});
