import { describe, expect, it } from 'vitest';
import { openIndex } from '../../main/index/sync-index.js';
import { baseFile, useTempIndex, workspace } from './index-fixtures.js';

const { file } = useTempIndex();

describe('group commit (commitSoon)', () => {
  it('commits the writes asked for together, and each is on disk once its promise resolves', async () => {
    const index = openIndex(file());
    index.workspaces.add(workspace('ws-1'));
    await Promise.all([1, 2, 3].map((i) => index.commitSoon(() => index.base.putFile('ws-1', baseFile(i, { path: `f${i}.psd` })))));
    index.close();

    const reopened = openIndex(file());
    expect([...reopened.base.load('ws-1').files.keys()].sort()).toEqual(['f1.psd', 'f2.psd', 'f3.psd']);
    reopened.close();
  });

  it('keeps the other writes of the group when one fails', async () => {
    const index = openIndex(file());
    index.workspaces.add(workspace('ws-1'));
    const results = await Promise.allSettled([
      index.commitSoon(() => index.base.putFile('ws-1', baseFile(1, { path: 'kept.psd' }))),
      index.commitSoon(() => {
        throw new Error('this write fails');
      }),
      index.commitSoon(() => index.base.putFile('ws-1', baseFile(2, { path: 'also-kept.psd' }))),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect([...index.base.load('ws-1').files.keys()].sort()).toEqual(['also-kept.psd', 'kept.psd']);
    index.close();
  });

  it('commits what is waiting when the index closes', async () => {
    const index = openIndex(file());
    index.workspaces.add(workspace('ws-1'));
    const write = index.commitSoon(() => index.base.putFile('ws-1', baseFile(1, { path: 'last.psd' })));
    index.close();
    await write;

    const reopened = openIndex(file());
    expect([...reopened.base.load('ws-1').files.keys()]).toEqual(['last.psd']);
    reopened.close();
  });

  it('commits later writes with the next one asked for soon, in the order they were asked', async () => {
    const index = openIndex(file());
    index.workspaces.add(workspace('ws-1'));
    const later = [1, 2, 3].map((i) => index.commitLater(() => index.base.putFile('ws-1', baseFile(i, { path: `f${i}.psd` }))));
    // The same path written soon after: the last write asked for wins.
    await index.commitSoon(() => index.base.putFile('ws-1', baseFile(9, { path: 'f3.psd' })));
    await Promise.all(later);
    expect(index.base.load('ws-1').files.get('f3.psd')?.assetId).toBe(baseFile(9).assetId);
    expect([...index.base.load('ws-1').files.keys()].sort()).toEqual(['f1.psd', 'f2.psd', 'f3.psd']);
    index.close();
  });

  it('commits later writes on its own when nothing else asks', async () => {
    const index = openIndex(file());
    index.workspaces.add(workspace('ws-1'));
    await index.commitLater(() => index.base.putFile('ws-1', baseFile(1, { path: 'alone.psd' })));
    index.close();

    const reopened = openIndex(file());
    expect([...reopened.base.load('ws-1').files.keys()]).toEqual(['alone.psd']);
    reopened.close();
  });
});
