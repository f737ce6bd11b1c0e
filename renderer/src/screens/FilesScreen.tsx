import { useEffect, useRef, useState } from 'react';
import type { WorkspaceStatus } from '../../../shared/engine.js';
import { LoadableView } from '../components/Loadable.js';
import { ScreenHeading } from '../components/ScreenHeading.js';
import { useServices, useUiState } from '../store/context.js';
import { useFolderListing } from '../store/folder-listing.js';
import { FolderContents, firstPageSize } from './FolderContents.js';

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
  const [pageSize] = useState(firstPageSize);
  const { result, reload } = useFolderListing(workspaceId, folder, `${workspace.state}|${workspace.lastSyncAt ?? ''}`, pageSize);
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
        {({ entries, total }) => <FolderContents workspace={workspace} folder={folder} entries={entries} total={total} />}
      </LoadableView>
    </>
  );
}

