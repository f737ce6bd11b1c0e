export { ServiceClient } from './client.js';
export type {
  ServiceClientOptions,
  CallOptions,
  ChangesResult,
  UploadRequest,
  CreateAssetInput,
  UpdateAssetInput,
  CreateVersionInput,
  UpdateVersionInput,
  DeleteAssetsOptions,
  CreateReviewInput,
  UnreadableItem,
} from './client.js';
export { ServiceError, isServiceError, conflictDetails, kindForStatus } from './service-error.js';
export type { ServiceErrorKind } from './service-error.js';
export type { Logger } from './http.js';
export { DEFAULT_RETRY_POLICY, backoffDelay, parseRetryAfter, retryDelay } from './retry.js';
export type { RetryPolicy, RetryEvent } from './retry.js';
export type { Credentials, CredentialsProvider } from './token.js';
export { parseContentRange } from './response-headers.js';
export type { ContentRange } from './response-headers.js';
export type { SocketBody } from './blob-socket.js';
export type {
  UploadBody,
  UploadOptions,
  UploadResult,
  DownloadOptions,
  DownloadResponse,
  StreamedDownload,
} from './transfers.js';
export type {
  ConflictDetails,
  DeleteAssetsResult,
  SignedUploadAnswer,
  SignedDownload,
  Listing,
  ListedAsset,
  ListedFolder,
  UnreadableEntry,
  FeedPage,
  FeedChange,
  FolderAnswer,
  FolderDetail,
} from './ours.js';
export type { User, Workspace, WorkspaceMember, Permissions, Asset, AssetVersion, AssetReview, ReviewRequest, SkippedItem } from './records.js';
export { compareSequences, readSequence, sequenceNumber } from './sequence.js';
export type { Sequence } from './sequence.js';
