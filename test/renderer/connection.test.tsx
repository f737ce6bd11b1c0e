// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Responses } from '../../shared/ipc.js';
import { MemoryConnection } from './memory-bridge.js';
import { renderApp } from './render-app.js';
import { review, status } from './fixtures.js';

const headerState = () => within(screen.getByRole('banner')).getByTestId('header-state');

describe('the connection to Asset Sync', () => {
  it('says so when Asset Sync stops answering, instead of the last status it reported', async () => {
    const connection = new MemoryConnection('connected');
    renderApp({}, { view: 'status' }, { connection });
    expect((await screen.findByTestId('overall-state')).textContent).toBe('Up to date');
    expect(screen.queryByTestId('connection-notice')).toBeNull();

    connection.set('lost');
    expect(headerState().textContent).toBe('Not connected to Asset Sync');
    expect(screen.getByTestId('overall-state').textContent).toBe('Not connected to Asset Sync');
    expect(screen.getByTestId('connection-notice').textContent).toContain('This page reconnects by itself when Asset Sync is back.');
    expect((screen.getByRole('button', { name: 'Pause sync' }) as HTMLButtonElement).disabled).toBe(true);
    const workspaceRow = screen.getByText('Spring Campaign', { selector: 'strong' }).closest('li') as HTMLElement;
    expect(within(workspaceRow).getByText(/Up to date/).textContent).toBe('Last known: Up to date');
  });

  it('shows the state again when Asset Sync is back, with fresh lists', async () => {
    const connection = new MemoryConnection('connected');
    let reviews: Responses['listReviews'] = { reviewRequests: [], changeRequests: [] };
    const { bridge } = renderApp({ listReviews: () => reviews }, { view: 'status' }, { connection });
    await screen.findByTestId('overall-state');
    connection.set('lost');
    reviews = { reviewRequests: [review({ read: false })], changeRequests: [] };

    connection.set('connected');
    expect(screen.queryByTestId('connection-notice')).toBeNull();
    await waitFor(() => expect(headerState().textContent).toBe('Up to date'));
    expect(await screen.findByRole('button', { name: /^Reviews\s*, 1 new$/ })).toBeTruthy();
    expect(bridge.requestsTo('getStatus')).toHaveLength(2);
    expect(bridge.requestsTo('getActivity')).toHaveLength(2);
  });

  it('tells a page whose session has ended how to get back', async () => {
    const connection = new MemoryConnection('connected');
    renderApp({ getStatus: () => status() }, { view: 'status' }, { connection });
    await screen.findByTestId('overall-state');
    connection.set('expired');
    expect(headerState().textContent).toBe('Not connected to Asset Sync');
    expect(screen.getByTestId('connection-notice').textContent).toContain('open the address Asset Sync printed when it started again');
  });
});
