import { afterEach, describe, expect, it } from 'vitest';
import { ActivityLog } from '../../main/engine/activity-log.js';
import { openIndex, type SyncIndex } from '../../main/index/sync-index.js';
import type { ActivityItem } from '../../shared/engine.js';

let index: SyncIndex;
afterEach(() => index.close());

const line = (path: string, kind: ActivityItem['kind'] = 'downloaded', message = `Downloaded ${path}`): ActivityItem => ({
  at: new Date(Date.UTC(2024, 2, 5, 14, 7, 9)).toISOString(),
  workspaceId: 'ws',
  kind,
  path,
  message,
});
const stored = (): string[] => index.activity.list({ limit: 100 }).map((e) => e.message).reverse();
/** An index holding the workspace the lines are about. */
function openWithWorkspace(): SyncIndex {
  const opened = openIndex(':memory:');
  opened.workspaces.add({ id: 'ws', accountId: 'acc', name: 'Test', localPath: '/tmp/ws' });
  return opened;
}

describe('ActivityLog', () => {
  it('shows each line at once and stores it with a later group commit, once', async () => {
    index = openWithWorkspace();
    const shown: string[] = [];
    const log = new ActivityLog(index, (item) => shown.push(item.message));
    log.add(line('a'));
    log.add(line('b'));
    expect(shown).toEqual(['Downloaded a', 'Downloaded b']);
    await index.commitSoon(() => undefined);
    expect(stored()).toEqual(['Downloaded a', 'Downloaded b']);
    log.add(line('c'));
    await index.commitSoon(() => undefined);
    expect(stored()).toEqual(['Downloaded a', 'Downloaded b', 'Downloaded c']);
  });

  it('keeps lines whose group commit another write made fail and retry', async () => {
    index = openWithWorkspace();
    const log = new ActivityLog(index, () => undefined);
    log.add(line('a'));
    const failing = index.commitSoon(() => {
      throw new Error('this write fails');
    });
    log.add(line('b'));
    await expect(failing).rejects.toThrow('this write fails');
    expect(stored()).toEqual(['Downloaded a', 'Downloaded b']);
  });

  it('stores the lines at once when flushed, and not again with their group commit', async () => {
    index = openWithWorkspace();
    const log = new ActivityLog(index, () => undefined);
    log.add(line('a'));
    log.flush();
    expect(stored()).toEqual(['Downloaded a']);
    log.add(line('b'));
    await index.commitSoon(() => undefined);
    expect(stored()).toEqual(['Downloaded a', 'Downloaded b']);
  });

  it('says once that a path is locked or fails the same way, until another line of it comes', async () => {
    index = openWithWorkspace();
    const shown: string[] = [];
    const log = new ActivityLog(index, (item) => shown.push(item.message));
    const locked = line('p.psd', 'locked', 'p.psd is locked by Dana');
    log.add(locked);
    log.add(locked);
    log.add(line('p.psd'));
    log.add(locked);
    log.add(line('q.psd', 'error', 'q.psd: denied'));
    log.add(line('q.psd', 'error', 'q.psd: denied'));
    log.add(line('q.psd', 'error', 'q.psd: gone'));
    expect(shown).toEqual(['p.psd is locked by Dana', 'Downloaded p.psd', 'p.psd is locked by Dana', 'q.psd: denied', 'q.psd: gone']);
    await index.commitSoon(() => undefined);
    expect(stored()).toEqual(shown);
  });
});
