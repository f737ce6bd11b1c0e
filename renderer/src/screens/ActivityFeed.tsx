import { useState } from 'react';
import type { ActivityItem } from '../../../shared/engine.js';
import { Thumbnail } from '../components/Thumbnail.js';
import { activitySentence, formatDate } from '../format.js';
import { useServices } from '../store/context.js';
import { useVersionSummaries } from '../store/version-summaries.js';

const ACTIVITY_SHOWN = 12;

/** Kinds whose path names a file that is still there to look at. */
const ABOUT_A_FILE = new Set<ActivityItem['kind']>(['downloaded', 'uploaded', 'restored', 'conflict', 'locked', 'waiting', 'moved', 'error']);

/**
 * What happened, newest first, as sentences about the work ("Rafael Reviewer uploaded version 3
 * of hero.psd: brighter sky"), each with the version's picture; an entry opens the file's
 * versions.
 */
export function ActivityFeed({ items }: { items: ActivityItem[] }) {
  const [all, setAll] = useState(false);
  const shown = all ? items : items.slice(0, ACTIVITY_SHOWN);
  const summaries = useVersionSummaries(shown);
  if (items.length === 0) return <p className="muted">Nothing has happened yet. Files synced, versions made and reviews asked for are listed here as they happen.</p>;
  return (
    <>
      <ol className="activity-list">
        {shown.map((item, i) => (
          <ActivityEntry key={`${item.at}:${i}`} item={item} sentence={activitySentence(item, item.version ? summaries.get(item.version.versionId) : null)} />
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

function ActivityEntry({ item, sentence }: { item: ActivityItem; sentence: string }) {
  const { store } = useServices();
  const path = item.path && ABOUT_A_FILE.has(item.kind) ? item.path : null;
  const picture = item.version ? { assetId: item.version.assetId, versionId: item.version.versionId } : path ? { path } : null;
  return (
    <li className="activity-entry">
      {picture ? <Thumbnail workspaceId={item.workspaceId} item={picture} size={40} /> : <span className="thumb thumb-none" aria-hidden="true" />}
      <span className="activity-text">
        {path && item.kind !== 'waiting' ? (
          <button
            type="button"
            className="link"
            onClick={() => store.navigate({ view: 'versions', workspaceId: item.workspaceId, path, assetId: item.version?.assetId ?? null })}
          >
            {sentence}
          </button>
        ) : (
          <span>{sentence}</span>
        )}
        <time dateTime={item.at} className="muted small">
          {formatDate(item.at)}
        </time>
      </span>
    </li>
  );
}
