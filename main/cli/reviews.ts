/** `asset-sync reviews`: review requests waiting for you, and change requests assigned to you. */
import type { AssetReview, ReviewRequest, UnreadableItem } from '../service-client/index.js';
import type { ReviewNotification } from '../../shared/engine.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { connect } from '../bootstrap.js';
import { indexPathFor } from '../config.js';
import { fromChangeRequest, fromReviewRequest } from '../engine/review-poller.js';
import type { NotificationKey } from '../index/notifications.js';
import { openIndex } from '../index/sync-index.js';
import { EXIT_OK } from './outcomes.js';
import { readConfig, resolveService, type GlobalOptions, type ServiceOptions } from './options.js';
import { formatDate, print, printError, printJson, skippedLine } from './output.js';

export interface ReviewItem {
  assetId: string;
  assetName: string;
  workspaceId: string | null;
  version: number | null;
  from: string;
  message: string;
  at: string | null;
  /** Change requests: the reviewer's decision. */
  status?: string;
  /** Marked read in the app on this computer; absent when no index of this computer is at hand. */
  read?: boolean;
}

/** Whether the app marked a request read; null without an index. */
export type ReadState = ((item: NotificationKey) => boolean) | null;

function itemOf(n: ReviewNotification, version: number | null, isRead: ReadState): ReviewItem {
  return {
    assetId: n.assetId,
    assetName: n.assetName,
    workspaceId: n.workspaceId,
    version,
    from: n.from,
    message: n.message,
    at: n.at,
    ...(isRead === null ? {} : { read: isRead(n) }),
  };
}

export const reviewRequestItem = (r: ReviewRequest, read: ReadState = null): ReviewItem => itemOf(fromReviewRequest(r), r.version?.version_number ?? null, read);

export const changeRequestItem = (r: AssetReview, read: ReadState = null): ReviewItem => ({
  ...itemOf(fromChangeRequest(r), r.version?.version_number ?? null, read),
  status: r.status,
});

/** What the app marked read, from the index of the configured sync folder (if there is one). */
function readState(rootOption: string | undefined): ReadState {
  const root = rootOption ?? readConfig().root;
  if (!root) return null;
  const indexPath = indexPathFor(resolve(root));
  if (!existsSync(indexPath)) return null;
  // The list matters more than its marks: an index that cannot be read leaves them out.
  try {
    const index = openIndex(indexPath);
    try {
      return index.notifications.readState();
    } finally {
      index.close();
    }
  } catch {
    return null;
  }
}

export function reviewLines(requests: readonly ReviewItem[], changes: readonly ReviewItem[]): string[] {
  const version = (i: ReviewItem): string => (i.version === null ? '' : ` v${i.version}`);
  // Only unread ones are marked, as a mail client bolds them: most lists are mostly read.
  const unread = (i: ReviewItem): string => (i.read === false ? ' (new)' : '');
  return [
    `Review requests (${requests.length}):`,
    ...(requests.length ? requests.map((i) => `  ${i.assetName}${version(i)} from ${i.from}, ${formatDate(i.at)}: "${i.message}"${unread(i)}`) : ['  none']),
    '',
    `Change requests (${changes.length}):`,
    ...(changes.length ? changes.map((i) => `  ${i.status ?? ''} ${i.assetName}${version(i)} by ${i.from}, ${formatDate(i.at)}: "${i.message}"${unread(i)}`) : ['  none']),
  ];
}

export async function reviews(options: ServiceOptions & { json?: boolean; root?: string }, globals: GlobalOptions): Promise<number> {
  const skipped: UnreadableItem[] = [];
  const connection = await connect({ ...resolveService(options, readConfig()), logToStderr: globals.verbose, onUnreadable: (item) => skipped.push(item) });
  try {
    const [requests, changes] = await Promise.all([connection.client.listReviewRequests(), connection.client.listChangeRequests()]);
    for (const item of skipped) printError(skippedLine(item));
    const read = readState(options.root);
    const requestItems = requests.map((r) => reviewRequestItem(r, read));
    const changeItems = changes.map((r) => changeRequestItem(r, read));
    if (options.json) printJson({ reviewRequests: requestItems, changeRequests: changeItems });
    else reviewLines(requestItems, changeItems).forEach((line) => print(line));
    return EXIT_OK;
  } finally {
    await connection.close();
  }
}
