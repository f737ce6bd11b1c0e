/**
 * Payloads this project designed where the reference lists only method and path, chosen for
 * sync clients (docs/protocol.md marks each as [ours] or [ext]). The client reads them as a
 * tolerant reader: a field it does not decide with is optional, so a service that sends only
 * what docs/protocol.md shows, or less, is understood (the document's tables of required fields
 * are checked against these schemas).
 */
import { z } from 'zod';
import { Checksum, Sequence } from './resources.js';

const id = z.string().min(1).max(200);
const Size = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** A folder: where it is and what it is called. Absent `isActive` means active. */
export const Folder = z.looseObject({
  id,
  parent_id: id.nullable(),
  name: z.string(),
  workspace_id: id.optional(),
  created_by_user_id: z.string().optional(),
  sequence: Sequence.optional(),
  isActive: z.boolean().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type Folder = z.infer<typeof Folder>;

/**
 * One asset as a sync client needs it: where it is, which version is current, its bytes'
 * identity. Absent `isActive` means active, absent `locked_by_user_id` not locked.
 */
export const AssetEntry = z.looseObject({
  id,
  folder_id: id.nullable(),
  file_name: z.string(),
  current_version_id: id,
  checksum: Checksum,
  size: Size,
  name: z.string().optional(),
  version_number: z.number().int().positive().optional(),
  sequence: Sequence.optional(),
  locked_by_user_id: id.nullish(),
  isActive: z.boolean().optional(),
  updated_at: z.string().optional(),
});
export type AssetEntry = z.infer<typeof AssetEntry>;

export const Hierarchy = z.looseObject({
  workspace_id: id.optional(),
  sequence: Sequence,
  folders: z.array(Folder),
  assets: z.array(AssetEntry),
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

export const Change = z.discriminatedUnion('type', [
  z
    .looseObject({
      type: z.literal('folder'),
      id,
      deleted: z.boolean(),
      sequence: Sequence.optional(),
      purged: z.boolean().optional(),
      folder: Folder.nullish(),
    })
    .refine(carriesEntry('folder'), { message: 'a folder change that is not a deletion carries the folder', path: ['folder'] }),
  z
    .looseObject({
      type: z.literal('asset'),
      id,
      deleted: z.boolean(),
      sequence: Sequence.optional(),
      purged: z.boolean().optional(),
      asset: AssetEntry.nullish(),
    })
    .refine(carriesEntry('asset'), { message: 'an asset change that is not a deletion carries the asset', path: ['asset'] }),
]);
export type Change = z.infer<typeof Change>;

export const ChangesPage = z.looseObject({
  sequence: Sequence,
  has_more: z.boolean(),
  changes: z.array(Change),
});
export type ChangesPage = z.infer<typeof ChangesPage>;

/**
 * Bodies the client sends. Strict: an example in docs/protocol.md with a field the client never
 * sends is refused by the test that runs it.
 */

/** `POST /auth/token`'s body. */
export const TokenRequest = z.strictObject({ key: z.string().min(1), secret: z.string().min(1) });
export type TokenRequest = z.infer<typeof TokenRequest>;

/** `POST /workspaces/assets` creating an asset from an uploaded key. */
export const CreateAssetRequest = z.strictObject({
  key: z.string().min(1),
  file_name: z.string(),
  folder_id: id.nullish(),
  checksum: Checksum,
  size: Size.optional(),
  name: z.string().optional(),
  asset_type_id: z.string().optional(),
  status_id: z.string().optional(),
  library_ids: z.array(id).optional(),
  description: z.string().optional(),
});
export type CreateAssetRequest = z.infer<typeof CreateAssetRequest>;

/** `POST /workspaces/assets/{id}/versions`: conditional on `commit_parent_id` when given. */
export const CreateVersionRequest = z.strictObject({
  key: z.string().min(1),
  checksum: Checksum,
  size: Size.optional(),
  /** The version the edit started from; a different current version answers 409 version_conflict. */
  commit_parent_id: id.optional(),
  name: z.string().optional(),
  description: z.string().optional(),
});
export type CreateVersionRequest = z.infer<typeof CreateVersionRequest>;

/** `DELETE /workspaces/assets`: soft unless `permanent`, all or nothing under `if_current_version_ids`. */
export const DeleteAssetsRequest = z.strictObject({
  asset_ids: z.array(id),
  permanent: z.boolean().optional(),
  if_current_version_ids: z.record(z.string(), id).optional(),
});
export type DeleteAssetsRequest = z.infer<typeof DeleteAssetsRequest>;

export const UploadTicket = z.looseObject({
  key: z.string().min(1).max(500),
  signed_url: z.string().url(),
});
export type UploadTicket = z.infer<typeof UploadTicket>;

export const SignedDownload = z.looseObject({
  url: z.string().url(),
  expires_at: z.string().optional(),
  checksum: Checksum.optional(),
  size: z.number().int().nonnegative().optional(),
});
export type SignedDownload = z.infer<typeof SignedDownload>;

/** POST /auth/token answers a bare string (reference) or `{ token, expires_in }` (its guidance). */
export const TokenResponse = z.union([
  z.string().min(1),
  z.looseObject({ token: z.string().min(1), expires_in: z.number().positive().optional() }),
]);
export type TokenResponse = z.infer<typeof TokenResponse>;

export const Success = z.looseObject({ success: z.boolean() });

export const HistoryEntry = z.looseObject({
  id,
  asset_id: id,
  user_id: z.string(),
  action: z.string(),
  details: z.record(z.string(), z.unknown()).nullish(),
  created_at: z.string(),
  sequence: Sequence.optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const Comment = z.looseObject({
  id,
  asset_id: id,
  user_id: id,
  content: z.string(),
  mentions: z.array(z.string()).default([]),
  attachments: z.array(z.unknown()).default([]),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type Comment = z.infer<typeof Comment>;

export const Task = z.looseObject({
  id,
  workspace_id: id,
  asset_id: id.nullable(),
  title: z.string(),
  description: z.string().nullish(),
  status: z.string(),
  assigned_user_id: id.nullable(),
  created_by_user_id: z.string(),
  due_date: z.string().nullish(),
  created_at: z.string().optional(),
  sequence: Sequence.optional(),
});
export type Task = z.infer<typeof Task>;
