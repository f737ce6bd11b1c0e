import { useEffect, useRef, useState } from 'react';
import type { ConflictView } from '../../../shared/ipc.js';
import { ActionStatus, useAction } from '../components/ActionStatus.js';
import { LoadableView } from '../components/Loadable.js';
import { ScreenHeading } from '../components/ScreenHeading.js';
import { Thumbnail } from '../components/Thumbnail.js';
import type { MediaItem } from '../media/thumbnail-loader.js';
import { formatBytes, formatDate, plural } from '../format.js';
import { useServices, useUiState } from '../store/context.js';
import { useOpenPreview, type PreviewTarget } from '../store/open-preview.js';
import { baseName } from '../store/route.js';
import { useQuery } from '../store/use-query.js';

/**
 * Conflicts resolved by looking: each file changed here and on the service shows both versions
 * side by side (yours: the conflicted copy on this computer; theirs: the service's version, who
 * made it and when), each opening in the preview, and the user keeps theirs, their own, or both. What a choice did is said by
 * the screen, not the card: the card goes once its conflict is resolved.
 */
export function ConflictsScreen({ focusPath }: { focusPath?: string | undefined }) {
  const { status } = useUiState();
  // A finished sync may bring or settle conflicts: ask again then.
  const refresh = status.kind === 'ready' ? status.value.workspaces.map((w) => `${w.state}|${w.lastSyncAt ?? ''}|${w.problems.filter((p) => p.kind === 'conflict').length}`).join(',') : '';
  const { result, reload } = useQuery('listConflicts', {}, refresh);
  const [resolved, setResolved] = useState('');
  return (
    <section aria-labelledby="conflicts-heading">
      <ScreenHeading id="conflicts-heading">Conflicts</ScreenHeading>
      <p className="action-status" role="status">
        {resolved}
      </p>
      <LoadableView value={result} what="the conflicts" onRetry={reload}>
        {(conflicts) =>
          conflicts.length === 0 ? (
            <p className="muted">No conflicts. When a file changes on this computer and on the service at the same time, both versions are shown here to compare.</p>
          ) : (
            <>
              <p>{plural(conflicts.length, 'file')} changed here and on the service at once. Look at both versions, then keep one or both.</p>
              <ul className="conflict-list">
                {conflicts.map((c) => (
                  <ConflictCard
                    key={`${c.workspaceId}:${c.copyPath}`}
                    conflict={c}
                    focused={focusPath === c.path}
                    onResolved={(message) => {
                      setResolved(message);
                      reload();
                    }}
                  />
                ))}
              </ul>
            </>
          )
        }
      </LoadableView>
    </section>
  );
}

function ConflictCard({ conflict: c, focused, onResolved }: { conflict: ConflictView; focused: boolean; onResolved: (message: string) => void }) {
  const { bridge, store } = useServices();
  const { outcome, run } = useAction();
  const card = useRef<HTMLLIElement>(null);
  const name = baseName(c.path);
  const headingId = `conflict-${c.workspaceId}-${c.copyPath}`.replace(/[^A-Za-z0-9_-]/g, '_');
  useEffect(() => {
    if (!focused) return;
    card.current?.scrollIntoView?.({ block: 'start' });
    card.current?.focus({ preventScroll: true });
  }, [focused]);

  const keep = (side: 'mine' | 'theirs' | 'both') =>
    void run(async () => {
      const done = await bridge.invoke('resolveConflict', { workspaceId: c.workspaceId, copyPath: c.copyPath, keep: side, ...(c.theirs ? { theirsVersionId: c.theirs.versionId } : {}) });
      void store.reloadStatus();
      if (side === 'mine') onResolved(`Kept your version of ${name}${done.versionNumber ? ` as version ${done.versionNumber}` : ''}; the copy went to the trash.`);
      else if (side === 'theirs') onResolved(`Kept their version of ${name}; your copy went to the trash.`);
      else onResolved(`Kept both: ${baseName(c.copyPath)} stays beside ${name}.`);
      return null;
    });

  return (
    <li ref={card} tabIndex={-1} className="panel conflict-card" aria-labelledby={headingId}>
      <h3 id={headingId}>{c.path}</h3>
      <div className="conflict-sides">
        <Side
          title="Yours"
          workspaceId={c.workspaceId}
          item={{ path: c.copyPath }}
          label={`Your version of ${name}`}
          preview={{ workspaceId: c.workspaceId, path: c.copyPath, assetId: null, versionId: null, name: baseName(c.copyPath) }}
          facts={[`On this computer, as ${baseName(c.copyPath)}`, c.mine.modifiedAt ? `saved ${formatDate(c.mine.modifiedAt)}` : null, c.mine.size !== null ? formatBytes(c.mine.size) : null]}
        />
        <Side
          title="Theirs"
          workspaceId={c.workspaceId}
          item={c.assetId ? { assetId: c.assetId, ...(c.theirs ? { versionId: c.theirs.versionId } : {}) } : { path: c.path }}
          label={`Their version of ${name}`}
          preview={{ workspaceId: c.workspaceId, path: c.path, assetId: c.assetId, versionId: c.theirs?.versionId ?? null, name }}
          facts={
            c.theirs
              ? [`${c.theirs.versionNumber ? `Version ${c.theirs.versionNumber}` : 'The current version'} by ${c.theirs.author}`, c.theirs.createdAt ? formatDate(c.theirs.createdAt) : null, formatBytes(c.theirs.size)]
              : ["The service's version"]
          }
        />
      </div>
      <div className="actions conflict-actions" role="group" aria-label={`Resolve ${name}`}>
        <button type="button" className="primary" disabled={outcome.kind === 'busy'} onClick={() => keep('mine')} aria-describedby={`${headingId}-mine`}>
          Keep mine
        </button>
        <button type="button" disabled={outcome.kind === 'busy'} onClick={() => keep('theirs')} aria-describedby={`${headingId}-theirs`}>
          Keep theirs
        </button>
        <button type="button" disabled={outcome.kind === 'busy'} onClick={() => keep('both')} aria-describedby={`${headingId}-both`}>
          Keep both
        </button>
      </div>
      <ul className="muted small conflict-help">
        <li id={`${headingId}-mine`}>Keep mine: your version becomes the new version on the service; the copy goes to the trash.</li>
        <li id={`${headingId}-theirs`}>Keep theirs: your copy goes to the trash.</li>
        <li id={`${headingId}-both`}>Keep both: the copy stays, a file of its own.</li>
      </ul>
      <ActionStatus outcome={outcome} />
    </li>
  );
}

/** One side of a conflict: its picture, what it is, and the way to look at it closely. */
function Side({ title, workspaceId, item, label, facts, preview }: { title: string; workspaceId: string; item: MediaItem; label: string; facts: Array<string | null>; preview: PreviewTarget }) {
  const openPreview = useOpenPreview();
  return (
    <figure className="conflict-side">
      <div className="conflict-picture">
        <Thumbnail workspaceId={workspaceId} item={item} size={240} quality="preview" alt={label} />
      </div>
      <figcaption>
        <strong>{title}</strong>
        <span className="muted small"> {facts.filter(Boolean).join(' · ')}</span>
        <button type="button" className="conflict-preview" onClick={() => openPreview(preview)} aria-label={`Preview ${label.charAt(0).toLowerCase()}${label.slice(1)}`}>
          Preview
        </button>
      </figcaption>
    </figure>
  );
}
