// @vitest-environment jsdom
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineStatus } from '../../shared/engine.js';
import { ANNOUNCE_AFTER_MS } from '../../renderer/src/components/HeaderState.js';
import { MemoryConnection } from './memory-bridge.js';
import { renderApp } from './render-app.js';
import { status, workspace } from './fixtures.js';

const banner = () => screen.getByRole('banner');
const shown = () => within(banner()).getByTestId('header-state').textContent;
/** What a screen reader hears from the header: its one live region. */
const liveRegion = () => within(banner()).getByRole('status');

const syncing = (files: number): EngineStatus =>
  status({ state: 'syncing', workspaces: [workspace({ state: 'syncing', pending: { downloads: files, uploads: 0, deletes: 0, moves: 0, conflicts: 0 } })] });
const listing = status({ state: 'listing', workspaces: [workspace({ state: 'listing' })] });

/** Everything the live region said, in order, sampled as time passes in small steps. */
function listen() {
  const said: string[] = [];
  const sample = () => {
    const text = liveRegion().textContent ?? '';
    if (text !== '' && text !== said.at(-1)) said.push(text);
  };
  const pass = (ms: number) => {
    for (let t = 0; t < ms; t += 100) {
      act(() => vi.advanceTimersByTime(100));
      sample();
    }
  };
  return { said, pass };
}

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

describe('what the header announces', () => {
  it('has one live region, apart from the words shown', async () => {
    renderApp();
    await screen.findByTestId('overall-state');
    expect(within(banner()).getAllByRole('status')).toHaveLength(1);
    expect(within(banner()).getByTestId('header-state').getAttribute('role')).toBeNull();
  });

  it('stays quiet through the checks an idle engine makes every few seconds', async () => {
    const { bridge } = renderApp();
    await screen.findByTestId('overall-state');
    const { said, pass } = listen();
    pass(ANNOUNCE_AFTER_MS + 200);
    expect(said).toEqual(['Up to date']);

    for (let poll = 0; poll < 5; poll += 1) {
      bridge.emit('status', listing);
      expect(shown()).toBe('Checking the service');
      pass(300);
      bridge.emit('status', status());
      pass(5000);
      expect(shown()).toBe('Up to date');
    }
    expect(said).toEqual(['Up to date']);
  });

  it('says "Syncing" once while the counts change, then when it is done', async () => {
    const { bridge } = renderApp();
    await screen.findByTestId('overall-state');
    const { said, pass } = listen();
    pass(ANNOUNCE_AFTER_MS + 200);
    for (let left = 48; left > 0; left -= 1) {
      bridge.emit('status', syncing(left));
      pass(400);
    }
    expect(shown()).toBe('Syncing 1 file');
    bridge.emit('status', status());
    pass(ANNOUNCE_AFTER_MS + 200);
    expect(said).toEqual(['Up to date', 'Syncing', 'Up to date']);
  });

  it('does not announce a sync shorter than a moment', async () => {
    const { bridge } = renderApp();
    await screen.findByTestId('overall-state');
    const { said, pass } = listen();
    pass(ANNOUNCE_AFTER_MS + 200);
    bridge.emit('status', syncing(1));
    pass(500);
    bridge.emit('status', status());
    pass(5000);
    expect(said).toEqual(['Up to date']);
  });

  it('announces a lost connection and the return', async () => {
    const connection = new MemoryConnection('connected');
    renderApp({}, { view: 'status' }, { connection });
    await screen.findByTestId('overall-state');
    const { said, pass } = listen();
    pass(ANNOUNCE_AFTER_MS + 200);
    connection.set('lost');
    pass(ANNOUNCE_AFTER_MS + 200);
    connection.set('connected');
    pass(ANNOUNCE_AFTER_MS + 200);
    expect(said).toEqual(['Up to date', 'Not connected to Asset Sync', 'Up to date']);
  });
});
