/**
 * The index's write count (migration 9) tells a fresh process whether anything a cycle plans from
 * was written since its quiet record was kept, by this connection or another, across restarts.
 */
import { describe, expect, it } from 'vitest';
import { openIndex } from '../../main/index/sync-index.js';
import { baseFile, useTempIndex, workspace } from './index-fixtures.js';

const { file: indexFile } = useTempIndex();

describe('the index write count', () => {
  it('moves with every write a cycle plans from, from any connection, and survives a restart', () => {
    const index = openIndex(indexFile());
    const other = openIndex(indexFile());
    try {
      index.workspaces.add(workspace());
      const counts: number[] = [index.quietCycles.writeCount()];
      const step = (what: string, write: () => void): void => {
        write();
        const now = index.quietCycles.writeCount();
        expect({ what, moved: now > (counts.at(-1) ?? 0) }).toEqual({ what, moved: true });
        counts.push(now);
      };
      step('a base row here', () => index.base.putFile('ws-1', baseFile(1)));
      step('a base row from another connection', () => other.base.putFile('ws-1', baseFile(2)));
      step('a base row changed', () => other.base.putFile('ws-1', baseFile(2, { size: 99 })));
      step('a base row deleted', () => other.base.deleteFile('ws-1', baseFile(1).path));
      step('a setting a cycle reads', () => other.settings.set('checksumForm:ws-1', { algorithm: 'md5' }));
      step('a path error', () => other.errors.record('ws-1', 'a.txt', { code: 'x', message: 'failed' }));
      step('the excluded folders', () => other.workspaces.update('ws-1', { excludedPaths: ['Out'] }));
      step('a hash cache row', () => other.hashCache('ws-1').put('a.txt', { size: 1, mtimeNs: '1', ctimeNs: '1', inode: 1, checksum: baseFile(1).checksum }));
    } finally {
      other.close();
      index.close();
    }
    const reopened = openIndex(indexFile());
    try {
      expect(reopened.quietCycles.writeCount()).toBeGreaterThan(0);
    } finally {
      reopened.close();
    }
  });

  it('does not move for what no cycle plans from: a start writing its workspace unchanged, the app writing when it last synced, the quiet record', () => {
    const index = openIndex(indexFile());
    try {
      index.workspaces.add(workspace());
      const before = index.quietCycles.writeCount();
      const ws = index.workspaces.get('ws-1');
      index.workspaces.update('ws-1', { name: ws?.name, localPath: ws?.localPath, excludedPaths: ws?.excludedPaths });
      index.settings.set('lastSyncAt', { 'ws-1': new Date().toISOString() });
      index.settings.set('workspaceProblems', {});
      index.quietCycles.save('ws-1', { anything: true });
      index.activity.add({ workspaceId: 'ws-1', kind: 'info', path: null, message: 'hello' });
      expect(index.quietCycles.writeCount()).toBe(before);
      expect(index.quietCycles.load('ws-1')).toEqual({ writes: before, record: { anything: true } });
    } finally {
      index.close();
    }
  });
});
