import { useEffect, useRef, useState } from 'react';
import type { VersionInfo } from '../../../shared/ipc.js';
import { ActionStatus, useAction } from '../components/ActionStatus.js';
import { LoadableView } from '../components/Loadable.js';
import { ScreenHeading } from '../components/ScreenHeading.js';
import { checksumPrefix, formatBytes, formatDate } from '../format.js';
import { useServices } from '../store/context.js';
import { openAssetAndShowVersions } from '../store/open-asset.js';
import { openWithConsent } from '../store/open-with-consent.js';
import { baseName, parentFolder } from '../store/route.js';
import { useQuery } from '../store/use-query.js';

export function VersionsScreen({ workspaceId, path, assetId, versionId }: { workspaceId: string; path: string | null; assetId: string | null; versionId: string | null }) {
  if (path === null) return <UnplacedAsset workspaceId={workspaceId} assetId={assetId} versionId={versionId} />;
  return <VersionsOfFile workspaceId={workspaceId} path={path} highlight={versionId} />;
}

function VersionsOfFile({ workspaceId, path, highlight }: { workspaceId: string; path: string; highlight: string | null }) {
  const { store } = useServices();
  const { result, reload } = useQuery('listVersions', { workspaceId, path });
  const name = baseName(path);
  return (
    <section aria-labelledby="versions-heading">
      <ScreenHeading id="versions-heading">Versions of {name}</ScreenHeading>
      <p className="muted">
        <button type="button" className="link" onClick={() => store.navigate({ view: 'files', workspaceId, folder: parentFolder(path) })}>
          Back to {parentFolder(path) || 'the workspace'}
        </button>{' '}
        · <span className="file-name">{path}</span>
      </p>
      <LoadableView value={result} what="the versions" onRetry={reload}>
        {(versions) => <VersionTable workspaceId={workspaceId} path={path} versions={versions} highlight={highlight} onChanged={reload} />}
      </LoadableView>
    </section>
  );
}

function VersionTable({ workspaceId, path, versions, highlight, onChanged }: { workspaceId: string; path: string; versions: VersionInfo[]; highlight: string | null; onChanged: () => void }) {
  const { bridge } = useServices();
  const { outcome, run } = useAction();
  const [confirming, setConfirming] = useState<string | null>(null);
  // The version whose "Make current" button gets the focus back when the question closes.
  const [returnFocusTo, setReturnFocusTo] = useState<string | null>(null);
  if (versions.length === 0) return <p className="muted">This file has no versions on the service yet.</p>;
  const numberOf = new Map(versions.map((v) => [v.id, v.number]));
  const sorted = [...versions].sort((a, b) => b.number - a.number);

  const restore = (version: VersionInfo) =>
    void run(async () => {
      setConfirming(null);
      setReturnFocusTo(version.id);
      await bridge.invoke('restoreVersion', { workspaceId, path, versionId: version.id });
      onChanged();
      return `Version ${version.number} is current again.`;
    });

  return (
    <>
      <div className="table-scroll">
        <table className="data-table">
          <caption className="visually-hidden">Versions of {path}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Author</th>
              <th scope="col">Date</th>
              <th scope="col">Size</th>
              <th scope="col">Checksum</th>
              <th scope="col">Based on</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((v) => {
              const parent = v.parentId ? numberOf.get(v.parentId) : undefined;
              return (
                <tr key={v.id} className={v.current ? 'current-row' : undefined}>
                  <th scope="row">
                    Version {v.number}
                    {v.current && <span className="badge">current</span>}
                    {v.deleted && <span className="badge badge-muted">deleted</span>}
                    {v.id === highlight && <span className="badge badge-review">in review</span>}
                    {v.description && <div className="muted small">{v.description}</div>}
                  </th>
                  <td>{v.author}</td>
                  <td>{formatDate(v.createdAt)}</td>
                  <td>{formatBytes(v.size)}</td>
                  <td>
                    <code title={`SHA-256 ${v.checksum}`}>{checksumPrefix(v.checksum)}</code>
                  </td>
                  <td>{parent === undefined ? '—' : `Version ${parent}`}</td>
                  <td className="actions">
                    {confirming === v.id ? (
                      <RestoreConfirm
                        number={v.number}
                        onConfirm={() => restore(v)}
                        onCancel={() => {
                          setConfirming(null);
                          setReturnFocusTo(v.id);
                        }}
                      />
                    ) : (
                      <>
                        <button type="button" aria-label={`Open version ${v.number}`} onClick={() => void run(async () => (await openWithConsent((runConfirmed) => bridge.invoke('openVersion', { workspaceId, path, versionId: v.id, runConfirmed })), null))}>
                          Open
                        </button>
                        <button
                          type="button"
                          aria-label={`Save a copy of version ${v.number}`}
                          onClick={() =>
                            void run(async () => {
                              const { savedTo } = await bridge.invoke('saveVersionCopy', { workspaceId, path, versionId: v.id });
                              return savedTo === null ? null : `Saved version ${v.number} to ${savedTo}.`;
                            })
                          }
                        >
                          Save a copy
                        </button>
                        {!v.current && !v.deleted && (
                          <MakeCurrentButton
                            number={v.number}
                            disabled={outcome.kind === 'busy'}
                            takeFocus={returnFocusTo === v.id}
                            onFocused={() => setReturnFocusTo(null)}
                            onClick={() => setConfirming(v.id)}
                          />
                        )}
                      </>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ActionStatus outcome={outcome} />
    </>
  );
}

/**
 * Opens the question below. When the question closes, the focus comes back here (once the
 * restore is done, if it was confirmed), unless the user has put it somewhere else meanwhile.
 */
function MakeCurrentButton({ number, disabled, takeFocus, onFocused, onClick }: { number: number; disabled: boolean; takeFocus: boolean; onFocused: () => void; onClick: () => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!takeFocus || disabled) return;
    const active = document.activeElement;
    if (active === null || active === document.body) ref.current?.focus();
    onFocused();
  }, [takeFocus, disabled, onFocused]);
  return (
    <button type="button" ref={ref} aria-label={`Make version ${number} current`} onClick={onClick} disabled={disabled}>
      Make current
    </button>
  );
}

/** Restoring adds a new version everyone gets: ask once, with focus on the choice. */
function RestoreConfirm({ number, onConfirm, onCancel }: { number: number; onConfirm: () => void; onCancel: () => void }) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => confirmRef.current?.focus(), []);
  return (
    <div role="group" aria-label={`Make version ${number} current?`} className="confirm" onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <span className="small">Make version {number} current for everyone?</span>
      <button type="button" ref={confirmRef} className="primary" onClick={onConfirm}>
        Yes, make current
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** An asset known only by its id (a notification): opening it finds its file. */
function UnplacedAsset({ workspaceId, assetId, versionId }: { workspaceId: string; assetId: string | null; versionId: string | null }) {
  const { bridge, store } = useServices();
  const { outcome, run } = useAction();
  return (
    <section aria-labelledby="versions-heading">
      <ScreenHeading id="versions-heading">Versions</ScreenHeading>
      {assetId ? (
        <button type="button" className="primary" onClick={() => void run(() => openAssetAndShowVersions(bridge, store, { workspaceId, assetId, versionId, name: 'This asset' }))}>
          Open the asset
        </button>
      ) : (
        <p className="muted">Asset Sync did not say which file to show.</p>
      )}
      <ActionStatus outcome={outcome} />
    </section>
  );
}
