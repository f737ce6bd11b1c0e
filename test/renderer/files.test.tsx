// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { FileEntry } from '../../shared/ipc.js';
import { never } from './memory-bridge.js';
import { renderApp } from './render-app.js';
import { file, folder, status, workspace, WS } from './fixtures.js';

const FILES = { view: 'files', workspaceId: null, folder: '' } as const;

const TREE: Record<string, FileEntry[]> = {
  '': [folder('Campaigns'), file({ name: 'README.txt', path: 'README.txt', size: 900, assetId: 'asset-readme' })],
  Campaigns: [
    file({ name: 'brief.md', path: 'Campaigns/brief.md', state: 'pending-upload', assetId: 'asset-brief' }),
    file({ name: 'teaser.mp4', path: 'Campaigns/teaser.mp4', state: 'conflict' }),
    file({ name: 'new.psd', path: 'Campaigns/new.psd', state: 'remote-only', assetId: 'asset-new' }),
    file({ name: 'logo.ai', path: 'Campaigns/logo.ai', state: 'locked', assetId: 'asset-logo', lockedBy: 'Rafael Reviewer' }),
  ],
};

const row = (name: RegExp | string) => screen.getByRole('rowheader', { name }).closest('tr') as HTMLElement;

describe('Files screen', () => {
  it('says it is loading the folder until main answers', async () => {
    renderApp({ listFiles: () => never() }, FILES);
    expect(await screen.findByText('Loading this folder…')).toBeTruthy();
  });

  it('shows why a folder could not be listed, and lists it on a second try', async () => {
    let fail = true;
    const { bridge } = renderApp(
      {
        listFiles: ({ folder: f }) => {
          if (fail) throw new Error('The index is busy.');
          return TREE[f ?? ''] ?? [];
        },
      },
      FILES,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load this folder: The index is busy.');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('rowheader', { name: /README\.txt/ })).toBeTruthy();
    // A folder that fits in the window is listed whole by its first page.
    expect(bridge.requestsTo('listFilesFirst')).toEqual([
      { workspaceId: WS, folder: '', limit: expect.any(Number) },
      { workspaceId: WS, folder: '', limit: expect.any(Number) },
    ]);
    expect(bridge.requestsTo('listFiles')).toEqual([]);
  });

  it('says when a folder is empty', async () => {
    renderApp({ listFiles: () => [] }, FILES);
    expect(await screen.findByText(/^This folder is empty\./)).toBeTruthy();
  });

  it('tells a user without workspaces where to choose one', async () => {
    renderApp({ getStatus: () => status({ workspaces: [] }) }, FILES);
    expect(await screen.findByText('No workspace is synced yet. Choose one in Settings.')).toBeTruthy();
  });

  it('browses folders and shows each entry’s sync state in words', async () => {
    const { bridge } = renderApp({ listFiles: ({ folder: f }) => TREE[f ?? ''] ?? [] }, FILES);
    fireEvent.click(await screen.findByRole('button', { name: 'Folder Campaigns' }));
    await screen.findByRole('rowheader', { name: /brief\.md/ });
    expect(within(row(/brief\.md/)).getByText('Waiting to upload')).toBeTruthy();
    expect(within(row(/teaser\.mp4/)).getByText('Conflict')).toBeTruthy();
    expect(within(row(/new\.psd/)).getByText('Only on the service')).toBeTruthy();
    expect(within(row(/logo\.ai/)).getByText('Locked by Rafael Reviewer')).toBeTruthy();
    // A file only on the service has nothing local to open.
    expect(within(row(/new\.psd/)).queryByRole('button', { name: 'Open new.psd' })).toBeNull();

    const crumbs = screen.getByRole('navigation', { name: 'Folder path' });
    expect(within(crumbs).getByRole('button', { name: 'Campaigns' }).getAttribute('aria-current')).toBe('location');
    fireEvent.click(within(crumbs).getByRole('button', { name: 'Spring Campaign' }));
    expect(await screen.findByRole('rowheader', { name: /README\.txt/ })).toBeTruthy();
    expect(bridge.requestsTo('listFilesFirst').map((r) => r.folder)).toEqual(['', 'Campaigns', '']);
  });

  it('puts the focus on where the user went: the folder opened, or the one gone back to', async () => {
    renderApp({ listFiles: ({ folder: f }) => TREE[f ?? ''] ?? [] }, FILES);
    const campaigns = await screen.findByRole('button', { name: 'Folder Campaigns' });
    campaigns.focus();
    fireEvent.click(campaigns);
    const crumbs = screen.getByRole('navigation', { name: 'Folder path' });
    expect(document.activeElement).toBe(within(crumbs).getByRole('button', { name: 'Campaigns' }));
    expect(document.activeElement?.getAttribute('aria-current')).toBe('location');

    fireEvent.click(within(crumbs).getByRole('button', { name: 'Spring Campaign' }));
    expect(document.activeElement).toBe(within(crumbs).getByRole('button', { name: 'Spring Campaign' }));
    expect(await screen.findByRole('rowheader', { name: /README\.txt/ })).toBeTruthy();
  });

  it('lists folders first, then files, in the order people count', async () => {
    const names = ['README 10.txt', 'readme 3.txt', 'README 2.txt', 'Élan.psd', 'eagle.psd', 'README 11.txt', 'zebra.png'];
    renderApp({ listFiles: () => [...names.map((name) => file({ name, path: name })), folder('Shot 10'), folder('Shot 9')] }, FILES);
    await screen.findByRole('rowheader', { name: /zebra\.png/ });
    expect(screen.getAllByRole('rowheader').map((h) => h.textContent)).toEqual([
      'Shot 9',
      'Shot 10',
      'eagle.psd',
      'Élan.psd',
      'README 2.txt',
      'readme 3.txt',
      'README 10.txt',
      'README 11.txt',
      'zebra.png',
    ]);
  });

  it('opens a file, shows it in its folder, and goes to its versions', async () => {
    const { bridge } = renderApp({ listFiles: ({ folder: f }) => TREE[f ?? ''] ?? [], openFile: () => ({ opened: true }), showInFolder: () => ({ ok: true }), listVersions: () => never() }, FILES);
    await screen.findByRole('rowheader', { name: /README\.txt/ });
    fireEvent.click(screen.getByRole('button', { name: 'Open README.txt' }));
    fireEvent.click(screen.getByRole('button', { name: 'Show README.txt in folder' }));
    fireEvent.click(screen.getByRole('button', { name: 'README.txt: versions' }));
    expect(await screen.findByRole('heading', { name: 'Versions of README.txt' })).toBeTruthy();
    expect(bridge.requestsTo('openFile')).toEqual([{ workspaceId: WS, path: 'README.txt', runConfirmed: false }]);
    expect(bridge.requestsTo('showInFolder')).toEqual([{ workspaceId: WS, path: 'README.txt' }]);
    expect(bridge.requestsTo('listVersions')).toEqual([{ workspaceId: WS, path: 'README.txt' }]);
  });

  it('asks before opening a program or script, and opens it only on a yes', async () => {
    const question = '“install.sh” is a program or a script. Opening it runs it on this computer.';
    const { bridge } = renderApp(
      {
        listFiles: () => [file({ name: 'install.sh', path: 'install.sh', assetId: 'asset-install' })],
        openFile: ({ runConfirmed }) => (runConfirmed ? { opened: true } : { opened: false, confirm: { name: 'install.sh', uploadedBy: 'Rafael Reviewer', question } }),
      },
      FILES,
    );
    const ask = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    try {
      await screen.findByRole('rowheader', { name: /install\.sh/ });
      fireEvent.click(screen.getByRole('button', { name: 'Open install.sh' }));
      await waitFor(() => expect(ask).toHaveBeenCalledTimes(1));
      expect(ask).toHaveBeenLastCalledWith(question);
      expect(bridge.requestsTo('openFile')).toEqual([{ workspaceId: WS, path: 'install.sh', runConfirmed: false }]);

      fireEvent.click(screen.getByRole('button', { name: 'Open install.sh' }));
      await waitFor(() => expect(bridge.requestsTo('openFile')).toHaveLength(3));
      expect(bridge.requestsTo('openFile').slice(1)).toEqual([
        { workspaceId: WS, path: 'install.sh', runConfirmed: false },
        { workspaceId: WS, path: 'install.sh', runConfirmed: true },
      ]);
    } finally {
      ask.mockRestore();
    }
  });

  it('locks a synced file for the user and unlocks it; a file someone else holds offers neither', async () => {
    const { bridge } = renderApp(
      {
        listFiles: ({ folder: f }) => (f === 'Campaigns' ? [...(TREE.Campaigns ?? []), file({ name: 'mine.psd', path: 'Campaigns/mine.psd', lockedByYou: true })] : (TREE[f ?? ''] ?? [])),
        setLock: ({ locked }) => ({ locked, lockedBy: null, byYou: locked }),
      },
      { view: 'files', workspaceId: WS, folder: 'Campaigns' },
    );
    await screen.findByRole('rowheader', { name: /logo\.ai/ });
    expect(within(row(/logo\.ai/)).queryByRole('button', { name: /lock/i })).toBeNull();
    expect(within(row(/new\.psd/)).queryByRole('button', { name: /lock/i })).toBeNull();
    fireEvent.click(within(row(/brief\.md/)).getByRole('button', { name: 'Lock brief.md' }));
    expect(await screen.findByText('Locked brief.md: it is read-only for everyone else until you unlock it.')).toBeTruthy();
    expect(within(row(/brief\.md/)).getByRole('button', { name: 'Unlock brief.md (you hold the lock)' })).toBeTruthy();
    fireEvent.click(within(row(/mine\.psd/)).getByRole('button', { name: 'Unlock mine.psd (you hold the lock)' }));
    expect(await screen.findByText('Unlocked mine.psd.')).toBeTruthy();
    expect(bridge.requestsTo('setLock')).toEqual([
      { workspaceId: WS, path: 'Campaigns/brief.md', locked: true },
      { workspaceId: WS, path: 'Campaigns/mine.psd', locked: false },
    ]);
  });

  it('says why a lock was refused', async () => {
    renderApp(
      { listFiles: ({ folder: f }) => TREE[f ?? ''] ?? [], setLock: () => Promise.reject(new Error('README.txt is locked by Rafael Reviewer: only they can unlock it. Ask them, or wait until they do.')) },
      FILES,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Lock README.txt' }));
    expect(await screen.findByText('README.txt is locked by Rafael Reviewer: only they can unlock it. Ask them, or wait until they do.')).toBeTruthy();
  });

  it('lists the folder again when its workspace finishes syncing, keeping the old listing meanwhile', async () => {
    let listing = [file({ name: 'README.txt', path: 'README.txt', state: 'pending-download' })];
    const { bridge } = renderApp(
      { getStatus: () => status({ state: 'syncing', workspaces: [workspace({ state: 'syncing' })] }), listFiles: () => listing },
      FILES,
    );
    await screen.findByText('Waiting to download');
    listing = [file({ name: 'README.txt', path: 'README.txt', state: 'synced' })];
    bridge.emit('status', status({ workspaces: [workspace({ lastSyncAt: '2025-03-14T10:05:00.000Z' })] }));
    expect(screen.getByRole('rowheader', { name: /README\.txt/ })).toBeTruthy();
    expect(await screen.findByText('Synced')).toBeTruthy();
  });

  it('shows a folder as soon as its first listing arrives, though the workspace changed state while it was on its way', async () => {
    // A folder that just had files put in it is being synced: its listing is asked for again
    // before the first answer comes. That answer is shown, and the folder is listed once more
    // after it, not twice at once.
    const answers: Array<(entries: FileEntry[]) => void> = [];
    const { bridge } = renderApp(
      {
        getStatus: () => status({ state: 'syncing', workspaces: [workspace({ state: 'syncing' })] }),
        listFiles: () => new Promise<FileEntry[]>((resolve) => answers.push(resolve)),
      },
      FILES,
    );
    await waitFor(() => expect(answers).toHaveLength(1));
    await act(async () => bridge.emit('status', status({ state: 'syncing', workspaces: [workspace({ state: 'syncing', lastSyncAt: '2025-03-14T10:04:00.000Z' })] })));
    await act(async () => bridge.emit('status', status({ workspaces: [workspace({ lastSyncAt: '2025-03-14T10:05:00.000Z' })] })));
    // The engine's events reach the screen in batches: the last status is applied by now.
    await waitFor(() => expect(screen.getByTestId('header-state').textContent).toBe('Up to date'));
    expect(answers).toHaveLength(1);
    answers[0]?.([file({ name: 'README.txt', path: 'README.txt', state: 'pending-upload' })]);
    expect(await screen.findByRole('rowheader', { name: /README\.txt/ })).toBeTruthy();
    await waitFor(() => expect(answers).toHaveLength(2));
    answers[1]?.([file({ name: 'README.txt', path: 'README.txt', state: 'synced' })]);
    expect(await screen.findByText('Synced')).toBeTruthy();
    expect(bridge.requestsTo('listFilesFirst')).toHaveLength(2);
  });
});
