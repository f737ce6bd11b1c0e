/**
 * The typed API of the Asset Collaboration Service, as docs/protocol.md describes it. Every
 * answer is validated with the shared schemas; every failure is a ServiceError. Which calls are
 * retried is stated per endpoint: reads, PUT/DELETE, and the POSTs the protocol makes safe to
 * repeat.
 */
import { setMaxListeners } from 'node:events';
import type { Writable } from 'node:stream';
import { z } from 'zod';
import {
  Comment,
  CreateAssetRequest,
  CreateVersionRequest,
  UpdateVersionRequest,
  HistoryEntry,
  ReviewHistoryEntry,
  Success,
  UploadTicket,
  type CreateCommentRequest,
  type ReviewStatus,
  type UpdateReviewRequest,
} from '../../shared/api/index.js';
import type { ChecksumForm } from '../local/checksum.js';
import { ServiceError } from './service-error.js';
import { MiB, Transport, type Logger } from './http.js';
import type { SocketBody } from './blob-socket.js';
import { DEFAULT_RETRY_POLICY, type RetryEvent, type RetryPolicy } from './retry.js';
import type { ClientContext } from './context.js';
import {
  ASSETS_PATH,
  CHANGES_PATH,
  ChangesAnswer,
  DeleteAssetsAnswer,
  FOLDERS_PATH,
  FolderAnswer,
  FolderDetailAnswer,
  LISTING_PATH,
  ListingAnswer,
  type ListingPage,
  SignedDownloadAnswer,
  UPLOAD_PATH,
  changesQuery,
  deleteAssetsBody,
  downloadQuery,
  listingQuery,
  uploadQuery,
  withServiceChecksum,
  type DeleteAssetsResult,
  type FeedPage,
  type FolderDetail,
  type Listing,
  type SignedDownload,
  type UploadInput,
} from './ours.js';
import {
  Asset,
  AssetReview,
  AssetVersion,
  Permissions,
  ReviewRequest,
  User,
  Workspace,
  WorkspaceMember,
  listOf,
  type Listed,
  type SkippedItem,
} from './records.js';
import { readSequence, type Sequence } from './sequence.js';
import { ApiSession, type ApiCall, type Query } from './session.js';
import type { Credentials, CredentialsProvider } from './token.js';
import {
  downloadFromSocket,
  downloadRange,
  downloadToStream,
  putSignedUpload,
  type DownloadOptions,
  type DownloadResponse,
  type StreamedDownload,
  type UploadBody,
  type UploadOptions,
  type UploadResult,
} from './transfers.js';

const HIERARCHY_LIMIT = 64 * MiB;
/** Assets per page of the listing: about 2.5 MiB of JSON, a few tens of milliseconds to serve. */
const LISTING_PAGE_ASSETS = 5000;
const API_CONNECTIONS = 16;
const CHANGES_LIMIT = 32 * MiB;

export interface ServiceClientOptions {
  baseUrl: string;
  accountId: string;
  credentials: Credentials | CredentialsProvider;
  userAgent?: string;
  /** Attempts per call, the first included (default 5). */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Longest `Retry-After` waited out inside one call (default 60 s); longer ones are thrown. */
  maxRetryAfterMs?: number;
  /** Idle limit for connecting, for the response headers and between body chunks. */
  timeoutMs?: number;
  /**
   * Connections kept open to the API origin (default 16). Small files cost one or two API calls
   * each: with 50 ms to the service, 8 connections held an upload to 80 files/s whatever the
   * transfer slots allowed.
   */
  connections?: number;
  /** pino-compatible; gets request lines and retries, never tokens, keys or query strings. */
  logger?: Logger;
  onRetry?: (event: RetryEvent) => void;
  /**
   * An item of an answer the client could not use (a review request without an asset id, an
   * asset with a negative size): it was skipped and the rest of the answer used. Told once per
   * request and item; the log gets it too.
   */
  onUnreadable?: (item: UnreadableItem) => void;
  /** Clock for token lifetimes (ms since the epoch). */
  now?: () => number;
}

/** An item skipped from an answer, with the request that brought it. */
export interface UnreadableItem extends SkippedItem {
  request: string;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export type ChangesResult =
  | { ok: true; page: FeedPage }
  /** No usable feed: list the workspace in full (`getHierarchy`) and start again from its sequence. */
  | { ok: false; reason: 'unsupported' | 'cursor_expired' };

/** An upload to ask for; `checksum` in the client's form (main/local/checksum.ts), sent as the service writes it. */
export type UploadRequest = UploadInput;

export type CreateAssetInput = z.input<typeof CreateAssetRequest>;

export interface UpdateAssetInput {
  name?: string;
  file_name?: string;
  folder_id?: string | null;
  status_id?: string;
  asset_type_id?: string;
  library_ids?: string[];
  locked?: boolean;
}

export type CreateVersionInput = z.input<typeof CreateVersionRequest>;
export type UpdateVersionInput = z.input<typeof UpdateVersionRequest>;

export interface DeleteAssetsOptions extends CallOptions {
  permanent?: boolean;
  /** Asset id → the version the caller saw: all or nothing, 409 version_conflict otherwise. */
  ifCurrentVersionIds?: Record<string, string>;
}

export interface CreateReviewInput {
  status: ReviewStatus;
  content: string;
  asset_version_id?: string;
  assigned_user_id?: string;
}

const seg = encodeURIComponent;

/** `/workspaces/assets/<asset>/<part>/...`, each part encoded as a path segment. */
const assetPath = (assetId: string, ...parts: string[]): string => [ASSETS_PATH, ...[assetId, ...parts].map(seg)].join('/');
const folderPath = (folderId: string): string => `${FOLDERS_PATH}/${seg(folderId)}`;

/** `GET /workspaces`: the reference's Workspace, or its getting-started example's list; as a list. */
const WorkspaceAnswer = z.union([
  z.looseObject({ workspaces: listOf(Workspace, 'workspace') }).transform((answer) => answer.workspaces),
  Workspace.transform((workspace): Listed<Workspace> => ({ items: [workspace], skipped: [] })),
]);

export class ServiceClient {
  private readonly transport: Transport;
  private readonly session: ApiSession;
  private readonly context: ClientContext;
  private readonly shutdown = new AbortController();
  /** How each workspace's service writes checksums, learned from its listings: uploads are named that way. */
  private readonly forms = new Map<string, ChecksumForm>();
  /** Unreadable items already told, so each is told once. */
  private readonly told = new Set<string>();

  constructor(private readonly options: ServiceClientOptions) {
    // Every request in flight listens on the shutdown signal; dozens at once are normal.
    setMaxListeners(0, this.shutdown.signal);
    const policy: RetryPolicy = {
      maxAttempts: options.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts,
      baseDelayMs: options.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
      maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
      maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_RETRY_POLICY.maxRetryAfterMs,
    };
    const secrets = (): readonly string[] => this.session.secrets();
    this.transport = new Transport({
      baseUrl: options.baseUrl,
      userAgent: options.userAgent ?? 'asset-sync',
      timeoutMs: options.timeoutMs ?? 60_000,
      connections: options.connections ?? API_CONNECTIONS,
      secrets,
      logger: options.logger,
    });
    const logger = options.logger;
    this.context = {
      transport: this.transport,
      policy,
      secrets,
      closed: this.shutdown.signal,
      onRetry: (event) => {
        logger?.warn(
          {
            request: event.request,
            attempt: event.attempt,
            delayMs: event.delayMs,
            status: event.error.status,
            code: event.error.code,
          },
          'retrying service request',
        );
        options.onRetry?.(event);
      },
    };
    this.session = new ApiSession(this.context, options.accountId, options.credentials, options.now ?? Date.now);
  }

  /** Ends every request and wait in progress and closes the connections. */
  async close(): Promise<void> {
    this.shutdown.abort(new Error('service client closed'));
    await this.transport.close();
  }

  /** How the workspace's service writes checksums, once a listing told (undefined before, or with no asset). */
  checksumForm(workspaceId: string): ChecksumForm | undefined {
    return this.forms.get(workspaceId);
  }

  /** The form the workspace's service writes checksums in, as this device kept it from an earlier listing. */
  rememberChecksumForm(workspaceId: string, form: ChecksumForm): void {
    this.forms.set(workspaceId, form);
  }

  /** Items the client could not use, told once each: to the log and to `onUnreadable`. */
  tellUnreadable(request: string, items: readonly SkippedItem[]): void {
    for (const item of items) {
      const key = `${request} ${item.what} ${item.id ?? item.why}`;
      if (this.told.has(key)) continue;
      this.told.add(key);
      this.options.logger?.warn({ request, what: item.what, id: item.id, why: item.why }, 'skipped an item of an answer that cannot be used');
      this.options.onUnreadable?.({ ...item, request });
    }
  }

  private call<S extends z.ZodType>(spec: ApiCall<S>): Promise<z.output<S>> {
    return this.session.call(spec);
  }

  /** A call in a workspace: its scope, and the caller's options. */
  private inWorkspace<S extends z.ZodType>(workspaceId: string, options: CallOptions, spec: Omit<ApiCall<S>, 'scope' | 'signal'>): Promise<z.output<S>> {
    return this.call({ ...spec, scope: { workspaceId }, signal: options.signal });
  }

  /** `list` in a workspace. */
  private listInWorkspace<T>(workspaceId: string, options: CallOptions, spec: Omit<ApiCall<z.ZodType<Listed<T>>>, 'scope' | 'signal'>): Promise<T[]> {
    return this.list({ ...spec, scope: { workspaceId }, signal: options.signal });
  }

  /** A list read item by item: what reads is returned, the rest told (`tellUnreadable`). */
  private async list<T>(spec: ApiCall<z.ZodType<Listed<T>>>): Promise<T[]> {
    const listed = await this.session.call(spec);
    this.tellUnreadable(`${spec.method} ${spec.path}`, listed.skipped);
    return listed.items;
  }

  // Users and accounts

  getUser(options: CallOptions = {}): Promise<User> {
    return this.call({ method: 'GET', path: '/users', schema: User, retriable: true, scope: { user: true }, ...options });
  }

  getPermissions(options: CallOptions = {}): Promise<Permissions> {
    return this.call({ method: 'GET', path: '/users/permissions', schema: Permissions, retriable: true, scope: { user: true }, ...options });
  }

  // Workspaces

  /** The workspace, whether the service answers with it or with the list that holds it. */
  async getWorkspace(workspaceId: string, options: CallOptions = {}): Promise<Workspace> {
    const answer = await this.listInWorkspace(workspaceId, options, { method: 'GET', path: '/workspaces', schema: WorkspaceAnswer, retriable: true });
    const found = answer.find((workspace) => workspace.id === workspaceId);
    if (found === undefined) {
      throw new ServiceError({
        kind: 'not_found',
        code: 'not_found',
        message: `GET /workspaces: workspace ${workspaceId} is not in the answer`,
        request: 'GET /workspaces',
      });
    }
    return found;
  }

  /**
   * The account's workspaces: `GET /accounts/workspaces`, whose payload the reference does not
   * show; when it fails or is not understood, the account's entry of `GET /users/permissions`,
   * which the reference specifies in full.
   */
  async listWorkspaces(options: CallOptions = {}): Promise<Workspace[]> {
    try {
      return await this.list({
        method: 'GET',
        path: '/accounts/workspaces',
        schema: listOf(Workspace, 'workspace'),
        retriable: true,
        scope: { account: true },
        ...options,
      });
    } catch (err) {
      if (!(err instanceof ServiceError) || err.kind === 'auth' || err.kind === 'aborted') throw err;
      this.options.logger?.warn({ err }, 'GET /accounts/workspaces could not be used; listing the workspaces from GET /users/permissions');
    }
    const permissions = await this.getPermissions(options);
    const accounts = [...permissions.accounts, ...(permissions.personalAccount ? [permissions.personalAccount] : [])];
    const mine = accounts.filter((account) => account.id === this.options.accountId);
    const workspaces = new Map<string, Workspace>();
    for (const account of mine) for (const workspace of account.workspaces) workspaces.set(workspace.id, workspace);
    return [...workspaces.values()];
  }

  /** The workspace's members with their user records: who holds a lock, by name. */
  listWorkspaceMembers(workspaceId: string, options: CallOptions = {}): Promise<WorkspaceMember[]> {
    return this.listInWorkspace(workspaceId, options, { method: 'GET', path: '/workspaces/members', schema: listOf(WorkspaceMember, 'member'), retriable: true });
  }

  /**
   * The whole workspace (sync's full scan of the remote side), asked in pages of `pageSize`
   * assets so that neither side holds a million assets in one answer; a service that does not
   * page answers the whole listing to the first request. The listing is as of the first page's
   * sequence: what changes while the pages are read comes again through the feed from there.
   */
  async getHierarchy(workspaceId: string, options: CallOptions & { includeDeleted?: boolean; pageSize?: number } = {}): Promise<Listing> {
    const limit = options.pageSize ?? LISTING_PAGE_ASSETS;
    const tokens = new Set<string>();
    let listing: ListingPage | undefined;
    for (let after: string | null = null; ; ) {
      const page: ListingPage = await this.inWorkspace(workspaceId, options, {
        method: 'GET',
        path: LISTING_PATH,
        query: listingQuery(options.includeDeleted === true, { limit, after }),
        schema: ListingAnswer,
        retriable: true,
        maxBytes: HIERARCHY_LIMIT,
      });
      if (listing === undefined) listing = page;
      else {
        listing.folders.push(...page.folders);
        for (const asset of page.assets) listing.assets.push(asset);
        listing.unreadable.push(...page.unreadable);
        listing.forms.merge(page.forms);
      }
      if (page.next === null) break;
      // A token given twice would page for ever.
      if (tokens.has(page.next)) throw new ServiceError({ kind: 'malformed', code: 'malformed_body', message: `GET ${LISTING_PATH} gave the page token ${page.next} twice`, request: `GET ${LISTING_PATH}` });
      tokens.add(page.next);
      after = page.next;
    }
    listing.checksumForm = listing.forms.result;
    if (listing.checksumForm) this.forms.set(workspaceId, listing.checksumForm);
    this.tellUnreadable(`GET ${LISTING_PATH}`, listing.unreadable.map(({ type, id, why }) => ({ what: type, ...(id ? { id } : {}), why })));
    const { next: _next, forms: _forms, ...whole } = listing;
    return whole;
  }

  /**
   * Changes after `since` (a sequence as the listing or a page gave it); `ok: false` when the
   * caller must list in full instead.
   */
  async getChanges(workspaceId: string, since: Sequence | number, limit = 1000, options: CallOptions = {}): Promise<ChangesResult> {
    try {
      const page = await this.inWorkspace(workspaceId, options, {
        method: 'GET',
        path: CHANGES_PATH,
        query: changesQuery(readSequence(since), limit),
        schema: ChangesAnswer,
        // 501 is a 5xx but no outage: the service has no feed, and asking again will not add one.
        retriable: (err) => err.status !== 501,
        maxBytes: CHANGES_LIMIT,
      });
      const unreadable = page.changes.flatMap((c) => (c.type === 'unreadable' ? [{ what: c.entry.type, ...(c.entry.id ? { id: c.entry.id } : {}), why: c.entry.why }] : []));
      this.tellUnreadable(`GET ${CHANGES_PATH}`, unreadable);
      return { ok: true, page };
    } catch (err) {
      if (err instanceof ServiceError) {
        if (err.status === 410 || err.code === 'cursor_expired') return { ok: false, reason: 'cursor_expired' };
        // The feed is our extension: a service without it answers 404 (or 405/501).
        if (err.status === 404 || err.status === 405 || err.status === 501) return { ok: false, reason: 'unsupported' };
      }
      throw err;
    }
  }

  // Uploads and downloads

  /** A signed URL for one upload. Retried: a second ticket is harmless. */
  requestUpload(workspaceId: string, input: UploadRequest, options: CallOptions = {}): Promise<UploadTicket> {
    const query: Query = uploadQuery(input, this.forms.get(workspaceId));
    return this.inWorkspace(workspaceId, options, { method: 'POST', path: UPLOAD_PATH, query, schema: UploadTicket, retriable: true });
  }

  /** Streams the bytes to a signed URL (without the bearer token). */
  putSignedUpload(url: string, body: UploadBody, options: UploadOptions = {}): Promise<UploadResult> {
    return putSignedUpload(this.context, url, body, options);
  }

  /** Where to GET the bytes of the current version (or of `versionId`); the 302 is not followed. */
  getDownloadUrl(workspaceId: string, assetId: string, versionId?: string, options: CallOptions = {}): Promise<SignedDownload> {
    const path =
      versionId === undefined
        ? assetPath(assetId, 'download')
        : assetPath(assetId, 'versions', versionId, 'download');
    return this.inWorkspace(workspaceId, options, {
      method: 'GET',
      path,
      query: downloadQuery,
      schema: SignedDownloadAnswer,
      retriable: true,
      onRedirect: (location) => ({ url: location.href }),
    });
  }

  /** GET of a signed URL, optionally from a byte offset; the body comes back as a stream. */
  downloadRange(url: string, options: DownloadOptions = {}): Promise<DownloadResponse> {
    return downloadRange(this.context, url, options);
  }

  /**
   * GET of a signed URL read from the socket into one reused buffer or the consumer's own memory
   * (large downloads); undefined where the response is not a plain 200 or 206 with a length:
   * `downloadRange` then.
   */
  downloadFromSocket(url: string, options: Pick<DownloadOptions, 'start' | 'signal'> = {}): Promise<SocketBody | undefined> {
    return downloadFromSocket(this.context, url, options);
  }

  downloadToStream(url: string, destination: Writable, options: DownloadOptions = {}): Promise<StreamedDownload> {
    return downloadToStream(this.context, url, destination, options);
  }

  // Assets

  getAsset(workspaceId: string, assetId: string, options: CallOptions = {}): Promise<Asset> {
    return this.inWorkspace(workspaceId, options, { method: 'GET', path: assetPath(assetId), schema: Asset, retriable: true });
  }

  /**
   * Creates an asset from an uploaded key. Retried: a repeat whose first answer was lost comes
   * back 409 name_conflict with the existing asset in `details` (see `conflictDetails`).
   */
  createAsset(workspaceId: string, input: CreateAssetInput, options: CallOptions = {}): Promise<Asset> {
    const body = withServiceChecksum(input, this.forms.get(workspaceId));
    return this.inWorkspace(workspaceId, options, { method: 'POST', path: ASSETS_PATH, body, schema: Asset, retriable: true });
  }

  /** Rename, move, lock or edit fields (PUT: repeating it sets the same values). */
  updateAsset(workspaceId: string, assetId: string, patch: UpdateAssetInput, options: CallOptions = {}): Promise<Asset> {
    return this.inWorkspace(workspaceId, options, { method: 'PUT', path: assetPath(assetId), body: patch, schema: Asset, retriable: true });
  }

  /** Soft delete by default; `ifCurrentVersionIds` makes it conditional. */
  deleteAssets(workspaceId: string, assetIds: string[], options: DeleteAssetsOptions = {}): Promise<DeleteAssetsResult> {
    return this.inWorkspace(workspaceId, options, {
      method: 'DELETE',
      path: ASSETS_PATH,
      body: deleteAssetsBody(assetIds, options),
      schema: DeleteAssetsAnswer,
      retriable: true,
    });
  }

  /** Not retried: a repeat would answer 409 not_deleted. */
  restoreAsset(workspaceId: string, assetId: string, options: CallOptions = {}): Promise<Asset> {
    return this.inWorkspace(workspaceId, options, { method: 'PATCH', path: assetPath(assetId, 'restore'), schema: Asset, retriable: false });
  }

  // Versions

  listVersions(workspaceId: string, assetId: string, options: CallOptions = {}): Promise<AssetVersion[]> {
    return this.listInWorkspace(workspaceId, options, { method: 'GET', path: assetPath(assetId, 'versions'), schema: listOf(AssetVersion, 'version'), retriable: true });
  }

  /** Commits an uploaded key as the new current version. Retried: the same key commits once. */
  createVersion(workspaceId: string, assetId: string, input: CreateVersionInput, options: CallOptions = {}): Promise<AssetVersion> {
    return this.inWorkspace(workspaceId, options, {
      method: 'POST',
      path: assetPath(assetId, 'versions'),
      body: withServiceChecksum(input, this.forms.get(workspaceId)),
      schema: AssetVersion,
      retriable: true,
    });
  }

  getVersion(workspaceId: string, assetId: string, versionId: string, options: CallOptions = {}): Promise<AssetVersion> {
    return this.inWorkspace(workspaceId, options, { method: 'GET', path: assetPath(assetId, 'versions', versionId), schema: AssetVersion, retriable: true });
  }

  /** A version's name or note. Retried: the same change twice leaves the same version. */
  updateVersion(workspaceId: string, assetId: string, versionId: string, input: UpdateVersionInput, options: CallOptions = {}): Promise<AssetVersion> {
    return this.inWorkspace(workspaceId, options, { method: 'PATCH', path: assetPath(assetId, 'versions', versionId), body: input, schema: AssetVersion, retriable: true });
  }

  deleteVersion(workspaceId: string, assetId: string, versionId: string, options: CallOptions = {}): Promise<z.output<typeof Success>> {
    return this.inWorkspace(workspaceId, options, { method: 'DELETE', path: assetPath(assetId, 'versions', versionId), schema: Success, retriable: true });
  }

  /** Not retried: a repeat would answer 409 not_deleted. */
  restoreVersion(workspaceId: string, assetId: string, versionId: string, options: CallOptions = {}): Promise<AssetVersion> {
    return this.inWorkspace(workspaceId, options, { method: 'PATCH', path: assetPath(assetId, 'versions', versionId, 'restore'), schema: AssetVersion, retriable: false });
  }

  // Folders

  /** Retried: a repeat answers 409 name_conflict with `details.id` of the folder it made. */
  createFolder(workspaceId: string, input: { name: string; parent_id?: string | null }, options: CallOptions = {}): Promise<FolderAnswer> {
    return this.inWorkspace(workspaceId, options, { method: 'POST', path: FOLDERS_PATH, body: input, schema: FolderAnswer, retriable: true });
  }

  getFolder(workspaceId: string, folderId: string, options: CallOptions = {}): Promise<FolderDetail> {
    return this.inWorkspace(workspaceId, options, { method: 'GET', path: folderPath(folderId), schema: FolderDetailAnswer, retriable: true });
  }

  /** Rename and/or move. */
  updateFolder(
    workspaceId: string,
    folderId: string,
    patch: { name?: string; parent_id?: string | null },
    options: CallOptions = {},
  ): Promise<FolderAnswer> {
    return this.inWorkspace(workspaceId, options, { method: 'PUT', path: folderPath(folderId), body: patch, schema: FolderAnswer, retriable: true });
  }

  deleteFolder(
    workspaceId: string,
    folderId: string,
    options: CallOptions & { recursive?: boolean } = {},
  ): Promise<z.output<typeof Success>> {
    return this.inWorkspace(workspaceId, options, {
      method: 'DELETE',
      path: folderPath(folderId),
      query: { recursive: options.recursive ? true : undefined },
      schema: Success,
      retriable: true,
    });
  }

  // Reviews and notifications

  /** The caller's open review requests across the account. */
  listReviewRequests(options: CallOptions = {}): Promise<ReviewRequest[]> {
    return this.list({ method: 'GET', path: '/reviewRequests', schema: listOf(ReviewRequest, 'review request'), retriable: true, scope: { account: true }, ...options });
  }

  /** Reviews assigned to the caller across the account. */
  listChangeRequests(options: CallOptions = {}): Promise<AssetReview[]> {
    return this.list({ method: 'GET', path: '/changeRequests', schema: listOf(AssetReview, 'change request'), retriable: true, scope: { account: true }, ...options });
  }

  /** Not retried: each POST records another decision. */
  createReview(workspaceId: string, assetId: string, input: CreateReviewInput, options: CallOptions = {}): Promise<AssetReview> {
    return this.inWorkspace(workspaceId, options, { method: 'POST', path: assetPath(assetId, 'reviews'), body: input, schema: AssetReview, retriable: false });
  }

  /** Retried: one open request per user and asset, a repeat refreshes it. */
  requestReview(
    workspaceId: string,
    assetId: string,
    userId: string,
    input: { message?: string } = {},
    options: CallOptions = {},
  ): Promise<ReviewRequest> {
    return this.inWorkspace(workspaceId, options, { method: 'POST', path: assetPath(assetId, 'reviewRequests', userId), body: input, schema: ReviewRequest, retriable: true });
  }

  /** Reviews of an asset, by anyone. */
  listReviews(workspaceId: string, assetId: string, options: CallOptions = {}): Promise<AssetReview[]> {
    return this.inWorkspace(workspaceId, options, { method: 'GET', path: assetPath(assetId, 'reviews'), schema: z.array(AssetReview), retriable: true });
  }

  /** Changes the caller's own decision (PUT: repeating it sets the same values). */
  updateReview(workspaceId: string, assetId: string, reviewId: string, input: UpdateReviewRequest, options: CallOptions = {}): Promise<AssetReview> {
    return this.inWorkspace(workspaceId, options, { method: 'PUT', path: assetPath(assetId, 'reviews', reviewId), body: input, schema: AssetReview, retriable: true });
  }

  /** Withdraws the caller's decision; the request it answered is open again. Retried: a repeat answers 404. */
  deleteReview(workspaceId: string, assetId: string, reviewId: string, options: CallOptions = {}): Promise<z.output<typeof Success>> {
    return this.inWorkspace(workspaceId, options, { method: 'DELETE', path: assetPath(assetId, 'reviews', reviewId), schema: Success, retriable: true });
  }

  // Comments

  listComments(workspaceId: string, assetId: string, options: CallOptions = {}): Promise<Comment[]> {
    return this.inWorkspace(workspaceId, options, { method: 'GET', path: assetPath(assetId, 'comments'), schema: z.array(Comment), retriable: true });
  }

  /** Not retried: each POST adds another comment. */
  createComment(workspaceId: string, assetId: string, input: CreateCommentRequest, options: CallOptions = {}): Promise<Comment> {
    return this.inWorkspace(workspaceId, options, { method: 'POST', path: assetPath(assetId, 'comments'), body: input, schema: Comment, retriable: false });
  }

  // History

  getHistory(workspaceId: string, assetId: string, options: CallOptions = {}): Promise<HistoryEntry[]> {
    return this.listInWorkspace(workspaceId, options, { method: 'GET', path: assetPath(assetId, 'history'), schema: listOf(HistoryEntry, 'history entry'), retriable: true });
  }

  getReviewHistory(workspaceId: string, assetId: string, options: CallOptions = {}): Promise<ReviewHistoryEntry[]> {
    return this.listInWorkspace(workspaceId, options, {
      method: 'GET',
      path: assetPath(assetId, 'history', 'review'),
      schema: listOf(ReviewHistoryEntry, 'review history entry'),
      retriable: true,
    });
  }
}
