import { useEffect, useRef } from 'react';
import type { FileEntry } from '../../../shared/ipc.js';
import type { WorkspaceStatus } from '../../../shared/engine.js';
import { ActionStatus, useAction } from '../components/ActionStatus.js';
import { EntryIcon } from '../components/EntryIcon.js';
import { LoadableView } from '../components/Loadable.js';
import { ScreenHeading } from '../components/ScreenHeading.js';
import { StateIcon } from '../components/StateIcon.js';
import { compareNames, fileStateText, fileStateTone, formatBytes, formatDate } from '../format.js';
import { useServices, useUiState } from '../store/context.js';
import { openWithConsent } from '../store/open-with-consent.js';
import { useQuery } from '../store/use-query.js';

export function FilesScreen({ workspaceId, folder }: { workspaceId: string | null; folder: string }) {
  const { status } = useUiState();
  const { store } = useServices();
  const workspaces = status.kind === 'ready' ? status.value.workspaces : [];
  const workspace = workspaces.find((w) => w.workspaceId === workspaceId) ?? workspaces[0];
  return (
    <section aria-labelledby="files-heading">
      <ScreenHeading id="files-heading">Files</ScreenHeading>
      <LoadableView value={status} what="your workspaces" onRetry={() => void store.reloadStatus()}>
        {() =>
          workspace ? (
            <>
              {workspaces.length > 1 && (
                <p>
                  <label htmlFor="files-workspace">Workspace </label>
                  <select
                    id="files-workspace"
                    value={workspace.workspaceId}
                    onChange={(e) => store.navigate({ view: 'files', workspaceId: e.target.value, folder: '' })}
                  >
                    {workspaces.map((w) => (
                      <option key={w.workspaceId} value={w.workspaceId}>
                        {w.name}
                      </option>
                    ))}
                  </select>
                </p>
              )}
              <FolderView workspace={workspace} folder={workspace.workspaceId === workspaceId ? folder : ''} />
            </>
          ) : (
            <p className="muted">No workspace is synced yet. Choose one in Settings.</p>
          )
        }
      </LoadableView>
    </section>
  );
}

function FolderView({ workspace, folder }: { workspace: WorkspaceStatus; folder: string }) {
  const { store } = useServices();
  const workspaceId = workspace.workspaceId;
  // A finished sync cycle changes what the folder holds: list it again then.
  const { result, reload } = useQuery('listFiles', { workspaceId, folder }, `${workspace.state}|${workspace.lastSyncAt ?? ''}`);
  const goTo = (target: string) => store.navigate({ view: 'files', workspaceId, folder: target });
  const crumbs = folder ? folder.split('/') : [];
  const here = useRef<HTMLButtonElement>(null);
  const shownFolder = useRef(folder);
  // The folder left behind took the focus with it: give it to where the user is now.
  useEffect(() => {
    if (shownFolder.current === folder) return;
    shownFolder.current = folder;
    here.current?.focus();
  }, [folder]);
  return (
    <>
      <nav aria-label="Folder path" className="breadcrumbs">
        <ol>
          <li>
            <button type="button" className="link" ref={crumbs.length === 0 ? here : undefined} onClick={() => goTo('')} aria-current={crumbs.length === 0 ? 'location' : undefined}>
              {workspace.name}
            </button>
          </li>
          {crumbs.map((name, i) => {
            const target = crumbs.slice(0, i + 1).join('/');
            return (
              <li key={target}>
                <button
                  type="button"
                  className="link"
                  ref={i === crumbs.length - 1 ? here : undefined}
                  onClick={() => goTo(target)}
                  aria-current={i === crumbs.length - 1 ? 'location' : undefined}
                >
                  {name}
                </button>
              </li>
            );
          })}
        </ol>
      </nav>
      <LoadableView value={result} what="this folder" onRetry={reload}>
        {(entries) => <FileTable workspaceId={workspaceId} folder={folder} entries={entries} />}
      </LoadableView>
    </>
  );
}

function FileTable({ workspaceId, folder, entries }: { workspaceId: string; folder: string; entries: FileEntry[] }) {
  const { bridge, store } = useServices();
  const { outcome, run } = useAction();
  if (entries.length === 0) return <p className="muted">This folder is empty.</p>;
  const sorted = [...entries].sort((a, b) => Number(b.isFolder) - Number(a.isFolder) || compareNames(a.name, b.name));
  const open = (path: string) => void run(async () => (await openWithConsent((runConfirmed) => bridge.invoke('openFile', { workspaceId, path, runConfirmed })), null));
  const reveal = (path: string) => void run(async () => (await bridge.invoke('showInFolder', { workspaceId, path }), null));
  return (
    <>
      <div className="table-scroll">
        <table className="data-table">
          <caption className="visually-hidden">Contents of {folder || 'the workspace'}</caption>
          <thead>
            <tr>
              <th scope="col" className="name-col">
                Name
              </th>
              <th scope="col">Sync state</th>
              <th scope="col">Size</th>
              <th scope="col">Modified</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((entry) => (
              <tr key={entry.path}>
                <th scope="row">
                  <span className="name-cell">
                    <EntryIcon folder={entry.isFolder} />
                    <button
                      type="button"
                      className="link"
                      aria-label={entry.isFolder ? `Folder ${entry.name}` : `${entry.name}: versions`}
                      onClick={() =>
                        entry.isFolder
                          ? store.navigate({ view: 'files', workspaceId, folder: entry.path })
                          : store.navigate({ view: 'versions', workspaceId, path: entry.path, assetId: entry.assetId })
                      }
                    >
                      {entry.name}
                    </button>
                  </span>
                </th>
                <td>
                  <span className={`state tone-${fileStateTone(entry.state)}`}>
                    <StateIcon tone={fileStateTone(entry.state)} size={16} />
                    {fileStateText(entry.state, entry.lockedBy)}
                  </span>
                </td>
                <td>{entry.isFolder || entry.size === null ? '—' : formatBytes(entry.size)}</td>
                <td>{formatDate(entry.modifiedAt)}</td>
                <td className="actions">
                  {!entry.isFolder && entry.state !== 'remote-only' && (
                    <button type="button" onClick={() => open(entry.path)} aria-label={`Open ${entry.name}`}>
                      Open
                    </button>
                  )}
                  {entry.state !== 'remote-only' && (
                    <button type="button" onClick={() => reveal(entry.path)} aria-label={`Show ${entry.name} in folder`}>
                      Show in folder
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ActionStatus outcome={outcome} />
    </>
  );
}
