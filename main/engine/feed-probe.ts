/**
 * The fast poll: one small request that tells whether the service changed since our cursor,
 * without listing anything. `GET /workspaces/changes?since=<cursor>&limit=1` answers at most one
 * change; the cycle it triggers then reads the feed in full pages (workspace-sync.ts).
 */
import type { Problem } from '../../shared/engine.js';
import { compareSequences, readSequence, type Sequence, type ServiceClient } from '../service-client/index.js';

/**
 * 'changed': something happened after the cursor (a cycle brings it); 'unchanged': nothing did;
 * 'no-feed': the service lacks the changes feed (only the full listing tells it changes);
 * 'relist': the feed cannot answer from this cursor (expired): a cycle lists in full.
 */
export type ProbeAnswer = 'changed' | 'unchanged' | 'no-feed' | 'relist';

export async function probeChanges(client: ServiceClient, workspaceId: string, cursor: Sequence, signal: AbortSignal): Promise<ProbeAnswer> {
  const answer = await client.getChanges(workspaceId, cursor, 1, { signal });
  if (!answer.ok) return answer.reason === 'unsupported' ? 'no-feed' : 'relist';
  const { page } = answer;
  // The cursor moves for changes the listing does not show too (the service's counter is
  // workspace-wide): the cycle then only stores the new cursor.
  return page.changes.length > 0 || page.has_more || compareSequences(cursor, readSequence(page.sequence)) !== 'same' ? 'changed' : 'unchanged';
}

/** Told while the service offers no changes feed: sync works, changes from elsewhere come at the poll interval. */
export function noFeedNotice(workspaceId: string, pollMs: number): Problem {
  const every = pollMs % 60_000 === 0 ? `${pollMs / 60_000} min` : `${Math.round(pollMs / 1000)} s`;
  return {
    workspaceId,
    path: null,
    kind: 'degraded',
    message: `The service offers no list of recent changes, so Asset Sync lists the whole workspace every ${every} instead: changes made elsewhere arrive slower.`,
    hint: 'Nothing to do: everything syncs as usual. With a service that offers the changes feed, they arrive within seconds while Asset Sync is open.',
  };
}
