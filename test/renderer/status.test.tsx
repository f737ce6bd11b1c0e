// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { never } from './memory-bridge.js';
import { renderApp } from './render-app.js';
import { status, transfer, workspace } from './fixtures.js';

const headerState = () => within(screen.getByRole('banner')).getByTestId('header-state');

describe('Status screen', () => {
  it('says it is loading until the engine answers', async () => {
    renderApp({ getStatus: () => never(), getActivity: () => never() });
    expect(await screen.findByText('Loading the sync status…')).toBeTruthy();
    expect(screen.getByText('Loading recent activity…')).toBeTruthy();
    expect(headerState().textContent).toContain('Connecting…');
  });

  it('shows a failed status call with a way to try again', async () => {
    let fail = true;
    const { bridge } = renderApp({
      getStatus: () => {
        if (fail) throw new Error('Asset Sync is not responding. Is it still running?');
        return status();
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load the sync status: Asset Sync is not responding');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('overall-state')).toBeTruthy();
    expect(screen.getByTestId('overall-state').textContent).toBe('Up to date');
    expect(bridge.requestsTo('getStatus')).toHaveLength(2);
  });

  it('tells a new user there is nothing synced yet', async () => {
    renderApp({ getStatus: () => status({ state: 'starting', workspaces: [] }) });
    expect(await screen.findByText('No workspace is synced yet. Choose one in Settings.')).toBeTruthy();
    expect(screen.getByText(/^Nothing has happened yet\./)).toBeTruthy();
    expect(screen.getByText('No file is being transferred.')).toBeTruthy();
  });

  it('shows files syncing, their transfers with progress, speed and time left', async () => {
    const syncing = status({
      state: 'syncing',
      workspaces: [workspace({ state: 'syncing', pending: { downloads: 10, uploads: 2, deletes: 0, moves: 0, conflicts: 0 } })],
      transfers: [transfer(), transfer({ id: 't2', path: 'Docs/budget.xlsx', direction: 'upload', state: 'queued', bytesDone: 0 })],
    });
    renderApp({ getStatus: () => syncing });
    expect((await screen.findByTestId('overall-state')).textContent).toBe('Syncing 12 files');
    expect(headerState().textContent).toBe('Syncing 12 files');
    expect(screen.getByText(/10 to download, 2 to upload/)).toBeTruthy();

    const bar = screen.getByRole('progressbar', { name: 'hero.psd: download' }) as HTMLProgressElement;
    expect(bar.value).toBe(512 * 1024);
    expect(bar.max).toBe(2 * 1024 * 1024);
    expect(bar.getAttribute('aria-valuetext')).toBe('Downloading: 512 KB of 2.0 MB, 256 KB/s, 6 s left');
    // A queued transfer is not progress: it says so, without a bar.
    const queued = screen.getByText('budget.xlsx').closest('li') as HTMLElement;
    expect(within(queued).getByText('Queued to upload')).toBeTruthy();
    expect(within(queued).queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('progressbar', { name: 'Spring Campaign: transfer progress' })).toBeTruthy();
  });

  it('lists the first 20 transfers, those under way first, and counts the rest', async () => {
    const queued = Array.from({ length: 40 }, (_, i) => transfer({ id: `q${i}`, path: `Upload/queued-${i}.jpg`, state: 'queued', bytesDone: 0 }));
    const active = Array.from({ length: 25 }, (_, i) => transfer({ id: `a${i}`, path: `Upload/active-${i}.jpg` }));
    renderApp({ getStatus: () => status({ state: 'syncing', transfers: [...queued, ...active] }) });
    const panel = (await screen.findByRole('heading', { name: 'Transfers' })).parentElement as HTMLElement;
    const rows = within(panel).getAllByRole('listitem');
    expect(rows).toHaveLength(20);
    expect(rows.every((row) => /^active-/.test(row.querySelector('.file-name')?.textContent ?? ''))).toBe(true);
    expect(within(panel).getByText('And 5 more transferring and 40 more queued.')).toBeTruthy();
  });

  it('follows the engine’s events: status, transfer progress and activity', async () => {
    const { bridge } = renderApp({ getStatus: () => status({ state: 'syncing', workspaces: [workspace({ state: 'syncing' })], transfers: [transfer()] }) });
    await screen.findByRole('progressbar', { name: 'hero.psd: download' });

    // The first event after a quiet spell shows at once; those right after it, a moment later.
    bridge.emit('transfer', transfer({ bytesDone: 2 * 1024 * 1024, etaSeconds: 0 }));
    expect((screen.getByRole('progressbar', { name: 'hero.psd: download' }) as HTMLProgressElement).value).toBe(2 * 1024 * 1024);
    bridge.emit('transfer', transfer({ bytesDone: 2 * 1024 * 1024, state: 'done' }));
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'hero.psd: download' })).toBeNull());

    bridge.emit('activity', { at: '2025-03-14T10:01:00.000Z', workspaceId: 'ws-spring', kind: 'downloaded', path: 'Campaigns/Spring/Social/hero.psd', message: 'Downloaded hero.psd (version 3)' });
    expect(await screen.findByText('Downloaded hero.psd (version 3)')).toBeTruthy();

    bridge.emit('status', status({ state: 'offline', workspaces: [workspace({ state: 'offline' })] }));
    await waitFor(() => expect(screen.getByTestId('overall-state').textContent).toBe('Offline'));
    expect(headerState().textContent).toBe('Offline');
  });

  it('lists problems with what to do: retry, open, resolve a conflict in its versions', async () => {
    const problems = workspace({
      state: 'attention',
      problems: [
        { workspaceId: 'ws-spring', path: 'Brand/palette.ase', kind: 'conflict', message: 'Changed here and on the service.' },
        { workspaceId: 'ws-spring', path: 'Docs/budget.xlsx', kind: 'error', message: 'Permission denied', hint: 'Close the file in Excel.' },
      ],
    });
    const { bridge } = renderApp({
      getStatus: () => status({ state: 'attention', workspaces: [problems] }),
      retry: () => status(),
      openFile: () => ({ opened: true }),
      listVersions: () => never(),
    });
    expect((await screen.findByTestId('overall-state')).textContent).toBe('Needs attention');
    const list = screen.getByRole('heading', { name: 'Needs attention (2)' }).parentElement as HTMLElement;
    const error = within(list).getByText('Permission denied').closest('li') as HTMLElement;
    expect(within(error).getByText('Close the file in Excel.')).toBeTruthy();

    fireEvent.click(within(error).getByRole('button', { name: 'Open' }));
    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    // The retried engine answers with its new status: the problems are gone.
    await waitFor(() => expect(screen.getByTestId('overall-state').textContent).toBe('Up to date'));
    expect(screen.queryByRole('heading', { name: /Needs attention/ })).toBeNull();
    expect(bridge.requestsTo('openFile')).toEqual([{ workspaceId: 'ws-spring', path: 'Docs/budget.xlsx', runConfirmed: false }]);
    expect(bridge.requestsTo('retry')).toEqual([{ workspaceId: 'ws-spring' }]);
  });

  it('lets the user confirm the deletions the mass-delete brake held back, after asking once more', async () => {
    const held = workspace({
      state: 'attention',
      problems: [{ workspaceId: 'ws-spring', path: null, kind: 'brake', message: '20 of 24 synced files were deleted here at once.' }],
    });
    const { bridge } = renderApp({ getStatus: () => status({ state: 'attention', workspaces: [held] }), allowDeletions: () => status() });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete on the service…' }));
    expect(bridge.requestsTo('allowDeletions')).toEqual([]);
    const confirm = screen.getByRole('group', { name: 'Confirm the deletions' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete them' }));
    await waitFor(() => expect(screen.getByTestId('overall-state').textContent).toBe('Up to date'));
    expect(bridge.requestsTo('allowDeletions')).toEqual([{ workspaceId: 'ws-spring' }]);
  });

  it('says a waiting conflict in the header, never "Up to date", and opens it from Resolve', async () => {
    const conflicted = workspace({ state: 'attention', problems: [{ workspaceId: 'ws-spring', path: 'Brand/palette.ase', kind: 'conflict', message: 'Changed here and on the service.' }] });
    const { bridge } = renderApp({ getStatus: () => status({ state: 'attention', workspaces: [conflicted] }), listConflicts: () => never() });
    await waitFor(() => expect(headerState().textContent).toBe('1 conflict to resolve'));
    expect(screen.getByTestId('overall-state').textContent).toBe('1 conflict to resolve');
    expect(screen.getByRole('button', { name: /^Conflicts\s*, 1 to resolve$/ })).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Resolve' }));
    expect(await screen.findByRole('heading', { name: 'Conflicts' })).toBeTruthy();
    expect(bridge.requestsTo('listConflicts')).toEqual([{}]);
  });

  it('shows the latest activity first, and all of it on request', async () => {
    const items = Array.from({ length: 20 }, (_, i) => ({
      at: `2025-03-14T10:${String(59 - i).padStart(2, '0')}:00.000Z`,
      workspaceId: 'ws-spring',
      kind: 'downloaded' as const,
      path: `Photography/studio-${i}.jpg`,
      message: `Downloaded Photography/studio-${i}.jpg`,
    }));
    renderApp({ getActivity: () => items });
    const list = (await screen.findByRole('heading', { name: 'Recent activity' })).parentElement as HTMLElement;
    await within(list).findByText('Downloaded Photography/studio-0.jpg');
    expect(within(list).getAllByRole('listitem')).toHaveLength(12);
    fireEvent.click(within(list).getByRole('button', { name: 'Show all 20' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
  });

  it('pauses and resumes', async () => {
    const { bridge } = renderApp({ pause: () => status({ state: 'paused', paused: true }), resume: () => status() });
    fireEvent.click(await screen.findByRole('button', { name: 'Pause sync' }));
    expect(await screen.findByRole('button', { name: 'Resume sync' })).toBeTruthy();
    expect(screen.getByTestId('overall-state').textContent).toBe('Paused');
    fireEvent.click(screen.getByRole('button', { name: 'Resume sync' }));
    expect(await screen.findByRole('button', { name: 'Pause sync' })).toBeTruthy();
    expect(bridge.calls.map((c) => c.channel).filter((c) => c === 'pause' || c === 'resume')).toEqual(['pause', 'resume']);
  });

  it('switches between light and dark themes and remembers the choice', async () => {
    renderApp();
    const toggle = await screen.findByRole('button', { name: 'Dark theme' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('asset-sync.theme')).toBe('dark');
  });
});
