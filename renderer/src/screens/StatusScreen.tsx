import { useState } from 'react';
import type { ActivityItem, EngineStatus, Problem, TransferProgress, WorkspaceStatus } from '../../../shared/engine.js';
import { isConnected } from '../bridge/connection.js';
import { ActionStatus, useAction } from '../components/ActionStatus.js';
import { LoadableView } from '../components/Loadable.js';
import { ScreenHeading } from '../components/ScreenHeading.js';
import { StateIcon } from '../components/StateIcon.js';
import { formatDate, overallText, pendingText, pendingTotal, plural, problemTitle, stateText, stateTone } from '../format.js';
import { useServices, useUiState } from '../store/context.js';
import { openWithConsent } from '../store/open-with-consent.js';
import { parentFolder } from '../store/route.js';
import { TransferList } from './TransferList.js';

export function StatusScreen() {
  const { status, activity } = useUiState();
  const { store } = useServices();
  return (
    <section aria-labelledby="status-heading">
      <ScreenHeading id="status-heading">Status</ScreenHeading>
      <LoadableView value={status} what="the sync status" onRetry={() => void store.reloadStatus()}>
        {(value) => <StatusBody status={value} />}
      </LoadableView>
      <section aria-labelledby="activity-heading" className="panel">
        <h3 id="activity-heading">Recent activity</h3>
        <LoadableView value={activity} what="recent activity" onRetry={() => void store.reloadActivity()}>
          {(items) => <ActivityList items={items} />}
        </LoadableView>
      </section>
    </section>
  );
}

function StatusBody({ status }: { status: EngineStatus }) {
  const { bridge, store } = useServices();
  const { connection } = useUiState();
  const { outcome, run } = useAction();
  // The last status is kept for reference, but not claimed as the state of a daemon that is gone.
  const connected = isConnected(connection);
  const tone = connected ? stateTone(status.state) : 'offline';
  const problems = status.workspaces.flatMap((w) => w.problems);
  const togglePause = () =>
    run(async () => {
      const next = await bridge.invoke(status.paused ? 'resume' : 'pause', {});
      store.applyStatus(next);
      return next.paused ? 'Sync paused.' : 'Sync resumed.';
    });
  return (
    <>
      <div className="overall panel">
        <p className={`overall-state tone-${tone}`} data-testid="overall-state">
          <StateIcon tone={tone} size={32} />
          <span>{connected ? overallText(status) : 'Not connected to Asset Sync'}</span>
        </p>
        <button type="button" onClick={() => void togglePause()} disabled={outcome.kind === 'busy' || !connected}>
          {status.paused ? 'Resume sync' : 'Pause sync'}
        </button>
      </div>
      <ActionStatus outcome={outcome} />

      <section aria-labelledby="workspaces-heading" className="panel">
        <h3 id="workspaces-heading">Workspaces</h3>
        {status.workspaces.length === 0 ? (
          <p className="muted">No workspace is synced yet. Choose one in Settings.</p>
        ) : (
          <ul className="workspace-list">
            {status.workspaces.map((w) => (
              <WorkspaceRow key={w.workspaceId} workspace={w} transfers={status.transfers.filter((t) => t.workspaceId === w.workspaceId)} stale={!connected} />
            ))}
          </ul>
        )}
      </section>

      {problems.length > 0 && (
        <section aria-labelledby="problems-heading" className="panel">
          <h3 id="problems-heading">Needs attention ({problems.length})</h3>
          <ul className="problem-list">
            {problems.map((p) => (
              <ProblemRow key={`${p.workspaceId}:${p.kind}:${p.path ?? ''}`} problem={p} />
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="transfers-heading" className="panel">
        <h3 id="transfers-heading">Transfers</h3>
        <TransferList transfers={status.transfers} />
      </section>
    </>
  );
}

function WorkspaceRow({ workspace: w, transfers, stale }: { workspace: WorkspaceStatus; transfers: TransferProgress[]; stale: boolean }) {
  const total = transfers.reduce((sum, t) => sum + t.bytesTotal, 0);
  const done = transfers.reduce((sum, t) => sum + t.bytesDone, 0);
  const tone = stale ? 'paused' : stateTone(w.state);
  return (
    <li className="workspace-row">
      <div className="row-main">
        <strong>{w.name}</strong>
        <span className={`state tone-${tone}`}>
          <StateIcon tone={tone} />
          {stale && 'Last known: '}
          {stateText(w.state, pendingTotal(w.pending) + (w.pausedChanges ?? 0))}
        </span>
      </div>
      <p className="muted small">
        {plural(w.files, 'file')} in {w.folder} · {pendingText(w.pending, w.pausedChanges)} · last synced {formatDate(w.lastSyncAt)}
      </p>
      {total > 0 && <progress max={total} value={done} aria-label={`${w.name}: transfer progress`} />}
    </li>
  );
}

function ProblemRow({ problem: p }: { problem: Problem }) {
  const { bridge, store } = useServices();
  const { outcome, run } = useAction();
  const path = p.path;
  return (
    <li className="problem-row">
      <div className="row-main">
        <span className="state tone-warn">
          <StateIcon tone="warn" />
          <strong>{problemTitle(p.kind)}</strong>
        </span>
        {path && <span className="file-name">{path}</span>}
      </div>
      <p>{p.message}</p>
      {p.hint && <p className="muted small">{p.hint}</p>}
      <div className="actions">
        <button
          type="button"
          onClick={() =>
            void run(async () => {
              store.applyStatus(await bridge.invoke('retry', { workspaceId: p.workspaceId }));
              return 'Retrying now.';
            })
          }
        >
          Retry
        </button>
        {p.kind === 'brake' && <ConfirmDeletions workspaceId={p.workspaceId} run={run} />}
        {path && (
          <>
            <button type="button" onClick={() => void run(async () => (await openWithConsent((runConfirmed) => bridge.invoke('openFile', { workspaceId: p.workspaceId, path, runConfirmed })), null))}>
              Open
            </button>
            <button type="button" onClick={() => void run(async () => (await bridge.invoke('showInFolder', { workspaceId: p.workspaceId, path }), null))}>
              Show in folder
            </button>
            {p.kind === 'conflict' && (
              <button type="button" onClick={() => store.navigate({ view: 'versions', workspaceId: p.workspaceId, path, assetId: null })}>
                Resolve
              </button>
            )}
            {p.kind !== 'conflict' && (
              <button type="button" className="link" onClick={() => store.navigate({ view: 'files', workspaceId: p.workspaceId, folder: parentFolder(path) })}>
                Show in Files
              </button>
            )}
          </>
        )}
      </div>
      <ActionStatus outcome={outcome} />
    </li>
  );
}

/**
 * The mass-delete brake held deletions back: the user confirms them here (asked twice, since
 * they reach the service), or puts the files back and nothing is deleted.
 */
function ConfirmDeletions({ workspaceId, run }: { workspaceId: string; run: ReturnType<typeof useAction>['run'] }) {
  const { bridge, store } = useServices();
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" onClick={() => setAsking(true)}>
        Delete on the service…
      </button>
    );
  }
  return (
    <span role="group" aria-label="Confirm the deletions">
      <span className="small">Delete these files on the service too? They can be restored there.</span>{' '}
      <button
        type="button"
        onClick={() =>
          void run(async () => {
            setAsking(false);
            store.applyStatus(await bridge.invoke('allowDeletions', { workspaceId }));
            return 'Deleting them on the service.';
          })
        }
      >
        Delete them
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

const ACTIVITY_SHOWN = 12;

function ActivityList({ items }: { items: ActivityItem[] }) {
  const [all, setAll] = useState(false);
  if (items.length === 0) return <p className="muted">Nothing has happened yet.</p>;
  const shown = all ? items : items.slice(0, ACTIVITY_SHOWN);
  return (
    <>
      <ol className="activity-list">
        {shown.map((item, i) => (
          <li key={`${item.at}:${i}`}>
            <time dateTime={item.at} className="muted small">
              {formatDate(item.at)}
            </time>{' '}
            <span>{item.message}</span>
          </li>
        ))}
      </ol>
      {items.length > shown.length && (
        <button type="button" className="link" onClick={() => setAll(true)}>
          Show all {items.length}
        </button>
      )}
    </>
  );
}
