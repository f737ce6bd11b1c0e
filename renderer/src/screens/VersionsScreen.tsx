import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { VersionInfo } from '../../../shared/ipc.js';
import { errorMessage } from '../bridge/errors.js';
import { ActionStatus, useAction, type Outcome } from '../components/ActionStatus.js';
import { LoadableView } from '../components/Loadable.js';
import { ScreenHeading } from '../components/ScreenHeading.js';
import { Thumbnail } from '../components/Thumbnail.js';
import { formatBytes, formatDate } from '../format.js';
import { useServices } from '../store/context.js';
import { openAssetAndShowVersions } from '../store/open-asset.js';
import { openWithConsent } from '../store/open-with-consent.js';
import { baseName, parentFolder, type ScreenRoute } from '../store/route.js';
import { useQuery } from '../store/use-query.js';
import { SaveCopyButton, useMakeCurrent } from './VersionActions.js';

export function VersionsScreen({ workspaceId, path, assetId, versionId }: { workspaceId: string; path: string | null; assetId: string | null; versionId: string | null }) {
  if (path === null) return <UnplacedAsset workspaceId={workspaceId} assetId={assetId} versionId={versionId} />;
  return <VersionsOfFile workspaceId={workspaceId} path={path} assetId={assetId} highlight={versionId} />;
}

function VersionsOfFile({ workspaceId, path, assetId, highlight }: { workspaceId: string; path: string; assetId: string | null; highlight: string | null }) {
  const { store } = useServices();
  const { result, reload } = useQuery('listVersions', { workspaceId, path });
  const name = baseName(path);
  const here: ScreenRoute = { view: 'versions', workspaceId, path, assetId, versionId: highlight };
  return (
    <section aria-labelledby="versions-heading">
      <ScreenHeading id="versions-heading">Versions of {name}</ScreenHeading>
      <div className="screen-tools">
        <p className="muted">
          <button type="button" className="link" onClick={() => store.navigate({ view: 'files', workspaceId, folder: parentFolder(path) })}>
            Back to {parentFolder(path) || 'the workspace'}
          </button>{' '}
          · <span className="file-name">{path}</span>
        </p>
        {result.kind === 'ready' && result.value.length > 1 && (
          <button type="button" onClick={() => store.navigate({ view: 'compare', workspaceId, path, a: null, b: null })}>
            Compare versions
          </button>
        )}
      </div>
      <LoadableView value={result} what="the versions" onRetry={reload}>
        {(versions) => <VersionList workspaceId={workspaceId} path={path} versions={versions} highlight={highlight} here={here} onChanged={reload} />}
      </LoadableView>
    </section>
  );
}

function VersionList({ workspaceId, path, versions, highlight, here, onChanged }: { workspaceId: string; path: string; versions: VersionInfo[]; highlight: string | null; here: ScreenRoute; onChanged: () => void }) {
  const { bridge, store } = useServices();
  const { outcome, run } = useAction();
  const makeCurrent = useMakeCurrent(workspaceId, path, run, onChanged);
  if (versions.length === 0) return <p className="muted">This file has no versions on the service yet: its first is made when it is uploaded.</p>;
  const numberOf = new Map(versions.map((v) => [v.id, v.number]));
  const sorted = [...versions].sort((a, b) => b.number - a.number);
  const name = baseName(path);

  return (
    <>
      <ol className="version-list" aria-label={`Versions of ${name}, newest first`}>
        {sorted.map((v) => {
          const parent = v.parentId ? numberOf.get(v.parentId) : undefined;
          const titleId = `version-${v.id}`;
          return (
            <li key={v.id} className={`version-card${v.current ? ' current' : ''}`} aria-labelledby={titleId}>
              <button
                type="button"
                className="thumb-button"
                aria-label={`Preview version ${v.number}`}
                onClick={() => store.navigate({ view: 'preview', workspaceId, path, assetId: null, versionId: v.id, name, under: here })}
              >
                <Thumbnail workspaceId={workspaceId} item={{ path, versionId: v.id }} size={72} />
              </button>
              <div className="version-body">
                <h3 id={titleId} className="version-title">
                  Version {v.number}
                  {v.current && <span className="badge">current</span>}
                  {v.deleted && <span className="badge badge-muted">deleted</span>}
                  {v.id === highlight && <span className="badge badge-review">in review</span>}
                </h3>
                <p className="muted small version-byline">
                  <span>{v.mine ? `${v.author} (you)` : v.author}</span> · <time dateTime={v.createdAt ?? undefined}>{formatDate(v.createdAt)}</time> · <span>{formatBytes(v.size)}</span>
                </p>
                <VersionNote workspaceId={workspaceId} path={path} version={v} onSaved={onChanged} />
                <details className="version-details">
                  <summary>Details</summary>
                  <dl className="meta-list">
                    <div>
                      <dt>SHA-256</dt>
                      <dd>
                        <code>{v.checksum}</code>
                      </dd>
                    </div>
                    <div>
                      <dt>Based on</dt>
                      <dd>{parent === undefined ? '—' : `Version ${parent}`}</dd>
                    </div>
                  </dl>
                </details>
              </div>
              <div className="actions version-actions">
                {makeCurrent.question(v) ?? (
                  <>
                    <button type="button" aria-label={`Open version ${v.number}`} onClick={() => void run(async () => (await openWithConsent((runConfirmed) => bridge.invoke('openVersion', { workspaceId, path, versionId: v.id, runConfirmed })), null))}>
                      Open
                    </button>
                    <SaveCopyButton workspaceId={workspaceId} path={path} version={v} run={run} />
                    {makeCurrent.button(v, outcome.kind === 'busy')}
                  </>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      <ActionStatus outcome={outcome} />
    </>
  );
}

/**
 * A version's note. The user's own versions can have it written or changed here (the service's
 * `description`); another's note is theirs, so it is shown only.
 */
function VersionNote({ workspaceId, path, version, onSaved }: { workspaceId: string; path: string; version: VersionInfo; onSaved: () => void }) {
  const { bridge } = useServices();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(version.description ?? '');
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const editButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  const fieldId = useId();
  useEffect(() => {
    if (editing || !returnFocus.current) return;
    returnFocus.current = false;
    editButton.current?.focus();
  }, [editing]);
  const close = () => {
    returnFocus.current = true;
    setEditing(false);
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setOutcome({ kind: 'busy' });
    try {
      await bridge.invoke('setVersionNote', { workspaceId, path, versionId: version.id, note: text });
      setOutcome({ kind: 'done', message: text.trim() ? `Saved the note of version ${version.number}.` : `Removed the note of version ${version.number}.` });
      close();
      onSaved();
    } catch (error) {
      setOutcome({ kind: 'failed', message: errorMessage(error) });
    }
  };
  if (editing) {
    return (
      <form className="note-form" onSubmit={(e) => void save(e)} onKeyDown={(e) => e.key === 'Escape' && close()}>
        <label htmlFor={fieldId}>Note for version {version.number}</label>
        <textarea id={fieldId} rows={2} maxLength={10_000} value={text} onChange={(e) => setText(e.target.value)} autoFocus />
        <div className="actions">
          <button type="submit" className="primary" disabled={outcome.kind === 'busy'}>
            Save note
          </button>
          <button type="button" onClick={close}>
            Cancel
          </button>
        </div>
        <ActionStatus outcome={outcome} />
      </form>
    );
  }
  return (
    <div className="version-note">
      {version.description ? <p className="note-text">{version.description}</p> : <p className="muted small">No note</p>}
      {version.mine && (
        <button
          type="button"
          ref={editButton}
          className="link small"
          aria-label={`${version.description ? 'Edit the note' : 'Add a note'} of version ${version.number}`}
          onClick={() => {
            setText(version.description ?? '');
            setOutcome({ kind: 'idle' });
            setEditing(true);
          }}
        >
          {version.description ? 'Edit note' : 'Add a note'}
        </button>
      )}
      <ActionStatus outcome={outcome} />
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
