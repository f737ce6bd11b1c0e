/**
 * Review requests and change requests, polled and remembered, so each one becomes exactly one
 * desktop notification, also across restarts. A request refreshed to a new version is news again.
 */
import { personName } from '../../shared/api/index.js';
import type { ReviewNotification } from '../../shared/engine.js';
import type { SyncIndex } from '../index/sync-index.js';
import type { Logger } from '../logging.js';
import type { AssetReview, ReviewRequest, ServiceClient } from '../service-client/index.js';
import { nextPollDelay } from './poll-cadence.js';
import { PollTimer } from './poll-timer.js';

export function fromReviewRequest(r: ReviewRequest): ReviewNotification {
  return {
    kind: 'review_request',
    remoteKey: `${r.id ?? `${r.asset_id}:${r.user_id ?? ''}`}@${r.asset_version_id ?? ''}`,
    workspaceId: r.workspace_id,
    assetId: r.asset_id,
    versionId: r.asset_version_id ?? null,
    versionNumber: r.version?.version_number ?? null,
    folder: r.asset?.file_location ?? null,
    assetName: r.asset?.file_name ?? r.asset?.name ?? 'an asset',
    from: personName(r.requestor, 'a colleague'),
    message: typeof r.message === 'string' && r.message !== '' ? r.message : 'asks for your review',
    at: r.created_at ?? null,
  };
}

export function fromChangeRequest(r: AssetReview): ReviewNotification {
  return {
    kind: 'change_request',
    remoteKey: `${r.id}:${r.status}`,
    workspaceId: r.workspace_id ?? null,
    assetId: r.asset_id,
    versionId: r.asset_version_id ?? null,
    versionNumber: r.version?.version_number ?? null,
    folder: null,
    assetName: r.version?.name ?? 'an asset',
    from: personName(r.user, 'a colleague'),
    message: r.content ?? '',
    at: r.created_at ?? null,
  };
}

/** Notices no longer current are forgotten after this long (a month). */
const FORGET_AFTER_MS = 30 * 24 * 3600 * 1000;

/** One poll: returns only what was never seen before (and remembers it). */
export async function pollReviews(client: ServiceClient, index: SyncIndex, signal?: AbortSignal): Promise<ReviewNotification[]> {
  const opts = signal ? { signal } : {};
  const [requests, changes] = await Promise.all([client.listReviewRequests(opts), client.listChangeRequests(opts)]);
  const items = [...requests.map(fromReviewRequest), ...changes.map(fromChangeRequest)];
  const fresh = index.notifications.markSeen(items);
  index.notifications.prune(items, Date.now() - FORGET_AFTER_MS);
  return fresh;
}

export interface ReviewPollingDeps {
  client: ServiceClient;
  index: SyncIndex;
  logger: Logger;
  /** The engine's stop. */
  signal: AbortSignal;
  /** Someone looks: requests are asked for every 2 s. */
  watched: () => boolean;
  intervalMs: () => number;
  onReview: (item: ReviewNotification) => void;
}

/** Asks for review and change requests, at the change poll's cadence while someone looks (poll-cadence.ts). */
export class ReviewPolling {
  private readonly timer: PollTimer;
  /** Polls that failed in a row: the cadence backs off. */
  private failures = 0;

  constructor(private readonly deps: ReviewPollingDeps) {
    this.timer = new PollTimer(
      () => nextPollDelay({ feed: true, watched: deps.watched(), lastTransferAt: null, now: Date.now(), intervalMs: deps.intervalMs(), failures: this.failures }),
      async () => void (await this.poll()),
    );
  }

  start(options: { now: boolean }): void {
    this.timer.start(options);
  }

  /** What the cadence depends on changed (someone looks, the interval is set). */
  reschedule(): void {
    this.timer.reschedule();
  }

  stop(): void {
    this.timer.stop();
  }

  /** One poll; a failure is logged and tried again at the next. */
  async poll(): Promise<ReviewNotification[]> {
    try {
      const fresh = await pollReviews(this.deps.client, this.deps.index, this.deps.signal);
      this.failures = 0;
      for (const item of fresh) this.deps.onReview(item);
      return fresh;
    } catch (error) {
      this.failures += 1;
      if (!this.deps.signal.aborted) this.deps.logger.warn({ err: error }, 'review poll failed; retrying at the next poll');
      return [];
    }
  }
}
