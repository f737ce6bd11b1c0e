import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivityItem } from '../../shared/engine.js';
import { createStore, type Store } from '../../renderer/src/store/store.js';
import { MemoryBridge } from './memory-bridge.js';
import { status, transfer, workspace } from './fixtures.js';

/** A store over a bridge whose events the test sends without React. */
async function startedStore() {
  const bridge = new MemoryBridge({ getStatus: () => status({ state: 'syncing' }), getActivity: () => [], listReviews: () => ({ reviewRequests: [], changeRequests: [] }) });
  const store = createStore(bridge);
  const stop = store.start();
  await vi.advanceTimersByTimeAsync(0);
  let renders = 0;
  store.subscribe(() => (renders += 1));
  const send = bridge.send.bind(bridge);
  return { bridge, store, stop, send, renders: () => renders };
}

const transfersOf = (store: Store) => {
  const { status: current } = store.getState();
  return current.kind === 'ready' ? current.value.transfers : [];
};

const activityItem = (i: number): ActivityItem => ({ at: `2025-03-14T10:00:${String(i % 60).padStart(2, '0')}.000Z`, workspaceId: 'ws-spring', kind: 'uploaded', path: `Upload/shot-${i}.jpg`, message: `Uploaded shot-${i}.jpg` });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the store under a storm of engine events', () => {
  it('shows the first event at once and the rest of a burst together, with the latest values', async () => {
    const { store, send, renders } = await startedStore();
    for (let i = 0; i < 1000; i += 1) send('transfer', transfer({ id: `t${i % 50}`, path: `Upload/shot-${i % 50}.jpg`, bytesDone: i }));
    expect(renders()).toBe(1);
    vi.advanceTimersByTime(100);
    expect(renders()).toBe(2);
    const transfers = transfersOf(store);
    expect(transfers).toHaveLength(50);
    expect(transfers.find((t) => t.id === 't0')?.bytesDone).toBe(950);
    expect(transfers.find((t) => t.id === 't49')?.bytesDone).toBe(999);
    // Quiet again: nothing is left to apply.
    vi.advanceTimersByTime(1000);
    expect(renders()).toBe(2);
  });

  it('keeps only the latest status, with the transfers reported after it', async () => {
    const { store, send } = await startedStore();
    send('status', status({ state: 'syncing' }));
    send('transfer', transfer({ id: 'before' }));
    send('status', status({ state: 'syncing', workspaces: [workspace({ files: 99 })], transfers: [transfer({ id: 'listed' })] }));
    send('transfer', transfer({ id: 'after', state: 'queued' }));
    send('transfer', transfer({ id: 'listed', state: 'done' }));
    vi.advanceTimersByTime(100);
    const state = store.getState().status;
    expect(state.kind === 'ready' && state.value.workspaces[0]?.files).toBe(99);
    expect(state.kind === 'ready' && state.value.transfers.map((t) => t.id)).toEqual(['after']);
  });

  it('keeps a bounded number of transfers and activity items however many arrive', async () => {
    const { store, send } = await startedStore();
    for (let i = 0; i < 5000; i += 1) send('transfer', transfer({ id: `q${i}`, state: i % 1000 === 0 ? 'active' : 'queued' }));
    for (let i = 0; i < 500; i += 1) send('activity', activityItem(i));
    vi.advanceTimersByTime(100);
    const state = store.getState();
    const transfers = transfersOf(store);
    expect(transfers).toHaveLength(500);
    // The active ones are never the ones left out.
    expect(transfers.filter((t) => t.state === 'active').map((t) => t.id)).toEqual(['q0', 'q1000', 'q2000', 'q3000', 'q4000']);
    const activity = state.activity.kind === 'ready' ? state.activity.value : [];
    expect(activity).toHaveLength(50);
    expect(activity[0]?.message).toBe('Uploaded shot-499.jpg');
  });

  it('asks for the reviews once more, not once per review event, during a batch of reviews', async () => {
    const { bridge, send } = await startedStore();
    for (let i = 0; i < 100; i += 1) send('review', { kind: 'review_request', remoteKey: `r${i}`, workspaceId: 'ws-spring', assetId: 'a', versionId: null, assetName: 'a.psd', from: 'Rafael', message: '', at: null });
    await vi.advanceTimersByTimeAsync(0);
    expect(bridge.requestsTo('listReviews').length).toBeLessThanOrEqual(3);
  });

  it('applies what is waiting before an answer that carries a newer status', async () => {
    const { store, send } = await startedStore();
    send('transfer', transfer({ id: 'first' }));
    send('transfer', transfer({ id: 'second' }));
    store.applyStatus(status({ state: 'paused', paused: true }));
    const state = store.getState().status;
    expect(state.kind === 'ready' && state.value.state).toBe('paused');
    expect(state.kind === 'ready' && state.value.transfers).toEqual([]);
  });
});
