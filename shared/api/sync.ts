/**
 * Payloads this project designed where the reference lists only method and path, chosen for
 * sync clients (docs/protocol.md marks each as [ours] or [ext]).
 */
import { z } from 'zod';
import { Checksum, Sequence } from './resources.js';

const id = z.string().min(1).max(200);

export const Folder = z.looseObject({
  id,
  workspace_id: id,
  parent_id: id.nullable(),
  name: z.string(),
  created_by_user_id: z.string().optional(),
  sequence: Sequence,
  isActive: z.boolean(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type Folder = z.infer<typeof Folder>;

/** One asset as a sync client needs it: where it is, which version is current, its bytes' identity. */
export const AssetEntry = z.looseObject({
  id,
  folder_id: id.nullable(),
  name: z.string(),
  file_name: z.string(),
  current_version_id: id,
  version_number: z.number().int().positive(),
  checksum: Checksum,
  size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  sequence: Sequence,
  locked_by_user_id: id.nullable(),
  isActive: z.boolean(),
  updated_at: z.string().optional(),
});
export type AssetEntry = z.infer<typeof AssetEntry>;

export const Hierarchy = z.looseObject({
  workspace_id: id,
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

export const Change = z.discriminatedUnion('type', [
  z.looseObject({
    type: z.literal('folder'),
    sequence: Sequence,
    id,
    deleted: z.boolean(),
    purged: z.boolean().optional(),
    folder: Folder.nullable(),
  }),
  z.looseObject({
    type: z.literal('asset'),
    sequence: Sequence,
    id,
    deleted: z.boolean(),
    purged: z.boolean().optional(),
    asset: AssetEntry.nullable(),
  }),
]);
export type Change = z.infer<typeof Change>;

export const ChangesPage = z.looseObject({
  sequence: Sequence,
  has_more: z.boolean(),
  changes: z.array(Change),
});
export type ChangesPage = z.infer<typeof ChangesPage>;

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
