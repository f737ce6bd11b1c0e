/**
 * Payloads this project designed where the reference lists only method and path, chosen for
 * sync clients (docs/protocol.md marks each as [ours] or [ext]), as they travel. A field the
 * client does not decide with is optional, so a service that sends only what docs/protocol.md
 * shows, or less, is understood (the document's tables of required fields are checked against
 * these schemas). The client reads and writes them in one place, main/service-client/ours.ts.
 *
 * No field is ever `null` for "no value": it is left out. `null` appears only where it means
 * something: the top level (`parent_id`, `folder_id`), as documented.
 */
import { z } from 'zod';
import { ReviewStatus } from './resources.js';

const id = z.string().min(1).max(200);

/**
 * A sequence: a number, or a string. A string of digits is a number too (compared as one, any
 * size); any other string is an opaque token that only tells "changed" from "unchanged".
 */
export const SequenceValue = z.union([z.int().nonnegative(), z.string().min(1).max(200)]);
export type SequenceValue = z.infer<typeof SequenceValue>;

/**
 * The bytes' digest, hex or base64: the algorithm is told by its length (32, 40, 64 or 128 hex
 * digits: MD5, SHA-1, SHA-256, SHA-512). Our service sends SHA-256 in lowercase hex. A form the
 * client does not know still reads: it then checks downloads by their size.
 */
export const ChecksumText = z.string().min(1).max(300);
const Size = z.int().nonnegative();

/** A folder: where it is and what it is called. Absent `isActive` means active. */
export const Folder = z.looseObject({
  id,
  parent_id: id.nullable(),
  name: z.string(),
  workspace_id: id.optional(),
  created_by_user_id: z.string().optional(),
  sequence: SequenceValue.optional(),
  isActive: z.boolean().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type Folder = z.infer<typeof Folder>;

/**
 * One asset as a sync client needs it: where it is, which version is current, its bytes'
 * identity. Absent `isActive` means active; absent or empty `locked_by_user_id`, not locked.
 */
export const AssetEntry = z.looseObject({
  id,
  folder_id: id.nullable(),
  file_name: z.string(),
  current_version_id: id,
  checksum: ChecksumText,
  size: Size,
  name: z.string().optional(),
  version_number: z.int().positive().optional(),
  sequence: SequenceValue.optional(),
  locked_by_user_id: z.string().optional(),
  isActive: z.boolean().optional(),
  updated_at: z.string().optional(),
});
export type AssetEntry = z.infer<typeof AssetEntry>;

export const Hierarchy = z.looseObject({
  workspace_id: id.optional(),
  sequence: SequenceValue,
  folders: z.array(Folder),
  assets: z.array(AssetEntry),
  /** Asked in pages (`limit`): the token for the next page's `after`, null on the last page. */
  next: z.string().nullable().optional(),
});
export type Hierarchy = z.infer<typeof Hierarchy>;

export const FolderDetail = Folder.extend({
  folders: z.array(Folder),
  assets: z.array(AssetEntry),
});
export type FolderDetail = z.infer<typeof FolderDetail>;

/**
 * A change that is not a deletion must carry its entry: without it the client could only guess,
 * and taking the item for gone would delete it here.
 */
const carriesEntry = (key: 'folder' | 'asset') => (change: { deleted: boolean; folder?: unknown; asset?: unknown }) =>
  change.deleted || (change[key] !== null && change[key] !== undefined);

export const FolderChange = z
  .looseObject({
    type: z.literal('folder'),
    id,
    deleted: z.boolean(),
    sequence: SequenceValue.optional(),
    purged: z.boolean().optional(),
    folder: Folder.optional(),
  })
  .refine(carriesEntry('folder'), { message: 'a folder change that is not a deletion carries the folder', path: ['folder'] });

export const AssetChange = z
  .looseObject({
    type: z.literal('asset'),
    id,
    deleted: z.boolean(),
    sequence: SequenceValue.optional(),
    purged: z.boolean().optional(),
    asset: AssetEntry.optional(),
  })
  .refine(carriesEntry('asset'), { message: 'an asset change that is not a deletion carries the asset', path: ['asset'] });

export const Change = z.discriminatedUnion('type', [FolderChange, AssetChange]);
export type Change = z.infer<typeof Change>;

export const ChangesPage = z.looseObject({
  sequence: SequenceValue,
  has_more: z.boolean(),
  changes: z.array(Change),
});
export type ChangesPage = z.infer<typeof ChangesPage>;

/**
 * Bodies the client sends. Strict: an example in docs/protocol.md with a field the client never
 * sends is refused by the test that runs it.
 */

/** `POST /auth/token`'s body [ref]. */
export const TokenRequest = z.strictObject({ key: z.string().min(1), secret: z.string().min(1) });
export type TokenRequest = z.infer<typeof TokenRequest>;

/** `POST /workspaces/assets` creating an asset from an uploaded key. */
export const CreateAssetRequest = z.strictObject({
  key: z.string().min(1),
  file_name: z.string(),
  folder_id: id.nullish(),
  checksum: ChecksumText,
  size: Size.optional(),
  name: z.string().optional(),
  asset_type_id: z.string().optional(),
  status_id: z.string().optional(),
  library_ids: z.array(id).optional(),
  description: z.string().optional(),
});
export type CreateAssetRequest = z.infer<typeof CreateAssetRequest>;

/** `POST /workspaces/assets` or `PUT /workspaces/assets/{id}` changing an asset. */
export const UpdateAssetRequest = z.looseObject({
  id: id.optional(),
  name: z.string().optional(),
  file_name: z.string().optional(),
  folder_id: id.nullish(),
  status_id: z.string().optional(),
  asset_type_id: z.string().optional(),
  library_ids: z.array(id).optional(),
  locked: z.boolean().optional(),
});
export type UpdateAssetRequest = z.infer<typeof UpdateAssetRequest>;

/** `POST /workspaces/assets/{id}/versions`: conditional on `commit_parent_id` when given. */
export const CreateVersionRequest = z.strictObject({
  key: z.string().min(1),
  checksum: ChecksumText,
  size: Size.optional(),
  /** The version the edit started from; a different current version answers 409 version_conflict. */
  commit_parent_id: id.optional(),
  name: z.string().optional(),
  description: z.string().optional(),
});
export type CreateVersionRequest = z.infer<typeof CreateVersionRequest>;

/** `PATCH /workspaces/assets/{id}/versions/{vid}`: a version's name or note (its `description`). */
export const UpdateVersionRequest = z.strictObject({
  name: z.string().optional(),
  description: z.string().max(10_000).optional(),
});
export type UpdateVersionRequest = z.infer<typeof UpdateVersionRequest>;

/** `DELETE /workspaces/assets`: soft unless `permanent`, all or nothing under `if_current_version_ids`. */
export const DeleteAssetsRequest = z.strictObject({
  asset_ids: z.array(id),
  permanent: z.boolean().optional(),
  if_current_version_ids: z.record(z.string(), id).optional(),
});
export type DeleteAssetsRequest = z.infer<typeof DeleteAssetsRequest>;

export const DeleteAssetsResult = z.looseObject({ success: z.boolean(), deleted: z.array(z.string()).optional() });
export type DeleteAssetsResult = z.infer<typeof DeleteAssetsResult>;

/** `POST /workspaces/folders` [ours]. */
export const CreateFolderRequest = z.looseObject({ name: z.string(), parent_id: id.nullish() });
/** `PUT /workspaces/folders/{id}` [ours]: rename and/or move. */
export const UpdateFolderRequest = z.looseObject({ name: z.string().optional(), parent_id: id.nullish() });

/** The answer of `POST /workspaces/upload` [ref shape]. */
export const UploadTicket = z.looseObject({
  key: z.string().min(1).max(500),
  signed_url: z.url(),
});
export type UploadTicket = z.infer<typeof UploadTicket>;

/** `…/download?redirect=false` [ours]: where to GET the bytes. */
export const SignedDownload = z.looseObject({
  url: z.url(),
  expires_at: z.string().optional(),
  checksum: ChecksumText.optional(),
  size: Size.optional(),
});
export type SignedDownload = z.infer<typeof SignedDownload>;

/** POST /auth/token answers a bare string (reference) or `{ token, expires_in }` (its guidance). */
export const TokenResponse = z.union([
  z.string().min(1),
  z.looseObject({ token: z.string().min(1), expires_in: z.number().positive().optional() }),
]);
export type TokenResponse = z.infer<typeof TokenResponse>;

export const Success = z.looseObject({ success: z.boolean() });

/** `POST …/comments`: what the client sends. An attachment is an upload's key, then its name. */
export const CreateCommentRequest = z.strictObject({
  content: z.string().min(1).max(50_000),
  mentions: z.array(id).max(100).optional(),
  attachments: z.array(z.strictObject({ key: z.string().min(1).max(200), name: z.string().min(1).max(255), description: z.string().optional() })).max(20).optional(),
});
export type CreateCommentRequest = z.infer<typeof CreateCommentRequest>;

/** `PUT …/reviews/{review_id}`: a decision changed by its author. */
export const UpdateReviewRequest = z.strictObject({
  status: ReviewStatus.optional(),
  content: z.string().max(50_000).optional(),
});
export type UpdateReviewRequest = z.infer<typeof UpdateReviewRequest>;
