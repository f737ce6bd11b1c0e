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
  Account,
  Asset,
  AssetReview,
  AssetVersion,
  ChangesPage,
  CreateAssetRequest,
  CreateVersionRequest,
  Folder,
  FolderDetail,
  Hierarchy,
  HistoryEntry,
  Permissions,
  ReviewRequest,
  SignedDownload,
  Success,
  UploadTicket,
  User,
  Workspace,
  WorkspaceMember,
  type DeleteAssetsRequest,
  type ReviewStatus,
} from '../../shared/api/index.js';
import { ServiceError } from './errors.js';
import { MiB, Transport, type Logger } from './http.js';
import type { SocketBody } from './blob-socket.js';
import { DEFAULT_RETRY_POLICY, type RetryEvent, type RetryPolicy } from './retry.js';
import type { ClientContext } from './context.js';
import { DeleteAssetsResult, ReviewHistoryEntry, WorkspaceAnswer } from './schemas.js';
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
  /** Clock for token lifetimes (ms since the epoch). */
  now?: () => number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export type ChangesResult =
  | { ok: true; page: ChangesPage }
  /** No usable feed: list the workspace in full (`getHierarchy`) and start again from its sequence. */
  | { ok: false; reason: 'unsupported' | 'cursor_expired' };

export interface UploadRequest {
  fileName: string;
  contentType: string;
  /** SHA-256 hex of the bytes. */
  checksum: string;
  size?: number;
}

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

export class ServiceClient {
  private readonly transport: Transport;
  private readonly session: ApiSession;
  private readonly context: ClientContext;
  private readonly shutdown = new AbortController();

  constructor(options: ServiceClientOptions) {
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

  private call<S extends z.ZodType>(spec: ApiCall<S>): Promise<z.output<S>> {
    return this.session.call(spec);
  }

  // Users and accounts

  getUser(options: CallOptions = {}): Promise<User> {
    return this.call({ method: 'GET', path: '/users', schema: User, retriable: true, scope: { user: true }, ...options });
  }

  getPermissions(options: CallOptions = {}): Promise<Permissions> {
    return this.call({ method: 'GET', path: '/users/permissions', schema: Permissions, retriable: true, scope: { user: true }, ...options });
  }

  listAccounts(options: CallOptions = {}): Promise<Account[]> {
    return this.call({ method: 'GET', path: '/accounts', schema: z.array(Account), retriable: true, scope: { account: true }, ...options });
  }

  // Workspaces

  /** The workspace, whether the service answers with it or with the list that holds it. */
  async getWorkspace(workspaceId: string, options: CallOptions = {}): Promise<Workspace> {
    const answer = await this.call({
      method: 'GET',
      path: '/workspaces',
      schema: WorkspaceAnswer,
      retriable: true,
      scope: { workspaceId },
      ...options,
    });
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

  /** The account's workspaces: `/accounts/workspaces`, or the list shape of `GET /workspaces`. */
  async listWorkspaces(options: CallOptions = {}): Promise<Workspace[]> {
    try {
      return await this.call({
        method: 'GET',
        path: '/accounts/workspaces',
        schema: z.array(Workspace),
        retriable: true,
        scope: { account: true },
        ...options,
      });
    } catch (err) {
      if (!(err instanceof ServiceError) || err.status !== 404) throw err;
    }
    return this.call({
      method: 'GET',
      path: '/workspaces',
      schema: WorkspaceAnswer,
      retriable: true,
      scope: { account: true },
      ...options,
    });
  }

  /** The workspace's members with their user records: who holds a lock, by name. */
  listWorkspaceMembers(workspaceId: string, options: CallOptions = {}): Promise<WorkspaceMember[]> {
    return this.call({ method: 'GET', path: '/workspaces/members', schema: z.array(WorkspaceMember), retriable: true, scope: { workspaceId }, ...options });
  }

  /** The whole workspace in one listing (sync's full scan of the remote side). */
  getHierarchy(workspaceId: string, options: CallOptions & { includeDeleted?: boolean } = {}): Promise<Hierarchy> {
    return this.call({
      method: 'GET',
      path: '/workspaces/folders/hierarchy',
      query: { include_deleted: options.includeDeleted ? true : undefined },
      schema: Hierarchy,
      retriable: true,
      scope: { workspaceId },
      maxBytes: HIERARCHY_LIMIT,
      signal: options.signal,
    });
  }

  /** Changes after `since`; `ok: false` when the caller must list in full instead. */
  async getChanges(workspaceId: string, since: number, limit = 1000, options: CallOptions = {}): Promise<ChangesResult> {
    try {
      const page = await this.call({
        method: 'GET',
        path: '/workspaces/changes',
        query: { since, limit },
        schema: ChangesPage,
        // 501 is a 5xx but no outage: the service has no feed, and asking again will not add one.
        retriable: (err) => err.status !== 501,
        scope: { workspaceId },
        maxBytes: CHANGES_LIMIT,
        ...options,
      });
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
    const query: Query = {
      file_name: input.fileName,
      content_type: input.contentType,
      checksum: input.checksum,
      size: input.size,
    };
    return this.call({
      method: 'POST',
      path: '/workspaces/upload',
      query,
      schema: UploadTicket,
      retriable: true,
      scope: { workspaceId },
      ...options,
    });
  }

  /** Streams the bytes to a signed URL (without the bearer token). */
  putSignedUpload(url: string, body: UploadBody, options: UploadOptions = {}): Promise<UploadResult> {
    return putSignedUpload(this.context, url, body, options);
  }

  /** Where to GET the bytes of the current version (or of `versionId`); the 302 is not followed. */
  getDownloadUrl(workspaceId: string, assetId: string, versionId?: string, options: CallOptions = {}): Promise<SignedDownload> {
    const path =
      versionId === undefined
        ? `/workspaces/assets/${seg(assetId)}/download`
        : `/workspaces/assets/${seg(assetId)}/versions/${seg(versionId)}/download`;
    return this.call({
      method: 'GET',
      path,
      query: { redirect: false },
      schema: SignedDownload,
      retriable: true,
      scope: { workspaceId },
      onRedirect: (location) => ({ url: location.href }),
      ...options,
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
    return this.call({ method: 'GET', path: `/workspaces/assets/${seg(assetId)}`, schema: Asset, retriable: true, scope: { workspaceId }, ...options });
  }

  /**
   * Creates an asset from an uploaded key. Retried: a repeat whose first answer was lost comes
   * back 409 name_conflict with the existing asset in `details` (see `conflictDetails`).
   */
  createAsset(workspaceId: string, input: CreateAssetInput, options: CallOptions = {}): Promise<Asset> {
    return this.call({ method: 'POST', path: '/workspaces/assets', body: input, schema: Asset, retriable: true, scope: { workspaceId }, ...options });
  }

  /** Rename, move, lock or edit fields (PUT: repeating it sets the same values). */
  updateAsset(workspaceId: string, assetId: string, patch: UpdateAssetInput, options: CallOptions = {}): Promise<Asset> {
    return this.call({
      method: 'PUT',
      path: `/workspaces/assets/${seg(assetId)}`,
      body: patch,
      schema: Asset,
      retriable: true,
      scope: { workspaceId },
      ...options,
    });
  }

  /** Soft delete by default; `ifCurrentVersionIds` makes it conditional. */
  deleteAssets(workspaceId: string, assetIds: string[], options: DeleteAssetsOptions = {}): Promise<DeleteAssetsResult> {
    const body: DeleteAssetsRequest = { asset_ids: assetIds };
    if (options.permanent !== undefined) body.permanent = options.permanent;
    if (options.ifCurrentVersionIds !== undefined) body.if_current_version_ids = options.ifCurrentVersionIds;
    return this.call({
      method: 'DELETE',
      path: '/workspaces/assets',
      body,
      schema: DeleteAssetsResult,
      retriable: true,
      scope: { workspaceId },
      signal: options.signal,
    });
  }

  /** Not retried: a repeat would answer 409 not_deleted. */
  restoreAsset(workspaceId: string, assetId: string, options: CallOptions = {}): Promise<Asset> {
    return this.call({
      method: 'PATCH',
      path: `/workspaces/assets/${seg(assetId)}/restore`,
      schema: Asset,
      retriable: false,
      scope: { workspaceId },
      ...options,
    });
  }

  // Versions

  listVersions(workspaceId: string, assetId: string, options: CallOptions = {}): Promise<AssetVersion[]> {
    return this.call({
      method: 'GET',
      path: `/workspaces/assets/${seg(assetId)}/versions`,
      schema: z.array(AssetVersion),
      retriable: true,
      scope: { workspaceId },
      ...options,
    });
  }

  /** Commits an uploaded key as the new current version. Retried: the same key commits once. */
  createVersion(workspaceId: string, assetId: string, input: CreateVersionInput, options: CallOptions = {}): Promise<AssetVersion> {
    return this.call({
      method: 'POST',
      path: `/workspaces/assets/${seg(assetId)}/versions`,
      body: input,
      schema: AssetVersion,
      retriable: true,
      scope: { workspaceId },
      ...options,
    });
  }

  deleteVersion(workspaceId: string, assetId: string, versionId: string, options: CallOptions = {}): Promise<z.output<typeof Success>> {
    return this.call({
      method: 'DELETE',
      path: `/workspaces/assets/${seg(assetId)}/versions/${seg(versionId)}`,
      schema: Success,
      retriable: true,
      scope: { workspaceId },
      ...options,
    });
  }

  /** Not retried: a repeat would answer 409 not_deleted. */
  restoreVersion(workspaceId: string, assetId: string, versionId: string, options: CallOptions = {}): Promise<AssetVersion> {
    return this.call({
      method: 'PATCH',
      path: `/workspaces/assets/${seg(assetId)}/versions/${seg(versionId)}/restore`,
      schema: AssetVersion,
      retriable: false,
      scope: { workspaceId },
      ...options,
    });
  }

  // Folders

  /** Retried: a repeat answers 409 name_conflict with `details.id` of the folder it made. */
  createFolder(workspaceId: string, input: { name: string; parent_id?: string | null }, options: CallOptions = {}): Promise<Folder> {
    return this.call({ method: 'POST', path: '/workspaces/folders', body: input, schema: Folder, retriable: true, scope: { workspaceId }, ...options });
  }

  getFolder(workspaceId: string, folderId: string, options: CallOptions = {}): Promise<FolderDetail> {
    return this.call({
      method: 'GET',
      path: `/workspaces/folders/${seg(folderId)}`,
      schema: FolderDetail,
      retriable: true,
      scope: { workspaceId },
      ...options,
    });
  }

  /** Rename and/or move. */
  updateFolder(
    workspaceId: string,
    folderId: string,
    patch: { name?: string; parent_id?: string | null },
    options: CallOptions = {},
  ): Promise<Folder> {
    return this.call({
      method: 'PUT',
      path: `/workspaces/folders/${seg(folderId)}`,
      body: patch,
      schema: Folder,
      retriable: true,
      scope: { workspaceId },
      ...options,
    });
  }

  deleteFolder(
    workspaceId: string,
    folderId: string,
    options: CallOptions & { recursive?: boolean } = {},
  ): Promise<z.output<typeof Success>> {
    return this.call({
      method: 'DELETE',
      path: `/workspaces/folders/${seg(folderId)}`,
      query: { recursive: options.recursive ? true : undefined },
      schema: Success,
      retriable: true,
      scope: { workspaceId },
      signal: options.signal,
    });
  }

  // Reviews and notifications

  /** The caller's open review requests across the account. */
  listReviewRequests(options: CallOptions = {}): Promise<ReviewRequest[]> {
    return this.call({ method: 'GET', path: '/reviewRequests', schema: z.array(ReviewRequest), retriable: true, scope: { account: true }, ...options });
  }

  /** Reviews assigned to the caller across the account. */
  listChangeRequests(options: CallOptions = {}): Promise<AssetReview[]> {
    return this.call({ method: 'GET', path: '/changeRequests', schema: z.array(AssetReview), retriable: true, scope: { account: true }, ...options });
  }

  /** Not retried: each POST records another decision. */
  createReview(workspaceId: string, assetId: string, input: CreateReviewInput, options: CallOptions = {}): Promise<AssetReview> {
    return this.call({
      method: 'POST',
      path: `/workspaces/assets/${seg(assetId)}/reviews`,
      body: input,
      schema: AssetReview,
      retriable: false,
      scope: { workspaceId },
      ...options,
    });
  }

  /** Retried: one open request per user and asset, a repeat refreshes it. */
  requestReview(
    workspaceId: string,
    assetId: string,
    userId: string,
    input: { message?: string } = {},
    options: CallOptions = {},
  ): Promise<ReviewRequest> {
    return this.call({
      method: 'POST',
      path: `/workspaces/assets/${seg(assetId)}/reviewRequests/${seg(userId)}`,
      body: input,
      schema: ReviewRequest,
      retriable: true,
      scope: { workspaceId },
      ...options,
    });
  }

  // History

  getHistory(workspaceId: string, assetId: string, options: CallOptions = {}): Promise<HistoryEntry[]> {
    return this.call({
      method: 'GET',
      path: `/workspaces/assets/${seg(assetId)}/history`,
      schema: z.array(HistoryEntry),
      retriable: true,
      scope: { workspaceId },
      ...options,
    });
  }

  getReviewHistory(workspaceId: string, assetId: string, options: CallOptions = {}): Promise<ReviewHistoryEntry[]> {
    return this.call({
      method: 'GET',
      path: `/workspaces/assets/${seg(assetId)}/history/review`,
      schema: z.array(ReviewHistoryEntry),
      retriable: true,
      scope: { workspaceId },
      ...options,
    });
  }
}
