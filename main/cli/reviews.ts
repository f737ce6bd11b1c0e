/** `asset-sync reviews`: review requests waiting for you, and change requests assigned to you. */
import type { Command } from 'commander';
import type { AssetReview, ReviewRequest } from '../../shared/api/index.js';
import type { ReviewNotification } from '../../shared/engine.js';
import { connect } from '../bootstrap.js';
import { fromChangeRequest, fromReviewRequest } from '../engine/review-poller.js';
import { EXIT_OK } from './errors.js';
import { addServiceOptions, readConfig, resolveService, type GlobalOptions, type Run, type ServiceOptions } from './options.js';
import { formatDate, print, printJson } from './output.js';

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
}

function itemOf(n: ReviewNotification, version: number | null): ReviewItem {
  return { assetId: n.assetId, assetName: n.assetName, workspaceId: n.workspaceId, version, from: n.from, message: n.message, at: n.at };
}

export const reviewRequestItem = (r: ReviewRequest): ReviewItem => itemOf(fromReviewRequest(r), r.version?.version_number ?? null);

export const changeRequestItem = (r: AssetReview): ReviewItem => ({ ...itemOf(fromChangeRequest(r), r.version?.version_number ?? null), status: r.status });

export function reviewLines(requests: readonly ReviewItem[], changes: readonly ReviewItem[]): string[] {
  const version = (i: ReviewItem): string => (i.version === null ? '' : ` v${i.version}`);
  return [
    `Review requests (${requests.length}):`,
    ...(requests.length ? requests.map((i) => `  ${i.assetName}${version(i)} from ${i.from}, ${formatDate(i.at)}: "${i.message}"`) : ['  none']),
    '',
    `Change requests (${changes.length}):`,
    ...(changes.length ? changes.map((i) => `  ${i.status ?? ''} ${i.assetName}${version(i)} by ${i.from}, ${formatDate(i.at)}: "${i.message}"`) : ['  none']),
  ];
}

export function registerReviews(program: Command, run: Run): void {
  addServiceOptions(program.command('reviews'))
    .description('list review requests and change requests for you')
    .option('--json', 'print JSON')
    .action((options: ServiceOptions & { json?: boolean }, command: Command) => run(() => reviews(options, command.optsWithGlobals<GlobalOptions>())));
}

async function reviews(options: ServiceOptions & { json?: boolean }, globals: GlobalOptions): Promise<number> {
  const connection = await connect({ ...resolveService(options, readConfig()), logToStderr: globals.verbose });
  try {
    const [requests, changes] = await Promise.all([connection.client.listReviewRequests(), connection.client.listChangeRequests()]);
    const requestItems = requests.map(reviewRequestItem);
    const changeItems = changes.map(changeRequestItem);
    if (options.json) printJson({ reviewRequests: requestItems, changeRequests: changeItems });
    else reviewLines(requestItems, changeItems).forEach((line) => print(line));
    return EXIT_OK;
  } finally {
    await connection.close();
  }
}
