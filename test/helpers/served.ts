/**
 * The records as our service serves them: the reference's schemas (shared/api), with the fields
 * our service always sends made required, so contract tests read them without guessing. The
 * reference itself requires fewer (docs/openapi.json); these are for tests of our service only.
 */
import { z } from 'zod';
import * as api from '../../shared/api/index.js';

const sequence = z.int().nonnegative();

export const Workspace = api.Workspace.required({ id: true, account_id: true, name: true });
export type Workspace = z.infer<typeof Workspace>;
export const WorkspaceMember = api.WorkspaceMember.required({ workspace_id: true, user_id: true, roles: true });
export const AccountMember = api.AccountMember.required({ account_id: true, user_id: true, roles: true });
export const Account = api.Account;
export const Permissions = api.Permissions.required({ id: true, accounts: true });
export const User = api.User;
export const AssetVersion = api.AssetVersion;
export type AssetVersion = z.infer<typeof AssetVersion>;
export const Asset = api.Asset.required({ id: true, workspace_id: true, name: true, file_name: true, current_version_id: true, isActive: true, sequence: true });
export type Asset = z.infer<typeof Asset>;
export const Tag = api.Tag.required({ id: true, workspace_id: true, name: true, sequence: true });
export const Library = api.Library.required({ id: true, workspace_id: true, name: true, sequence: true });
export type Library = z.infer<typeof Library>;
export const AssetReview = api.AssetReview.required({ id: true, asset_id: true, user_id: true, status: true, content: true });
export type AssetReview = z.infer<typeof AssetReview>;
export const ReviewRequest = api.ReviewRequest.required({ workspace_id: true, asset_id: true, asset_version_id: true, requestor_id: true, user_id: true }).extend({ id: z.string() });
export type ReviewRequest = z.infer<typeof ReviewRequest>;
export const Comment = api.Comment.required({ user_id: true, mentions: true, attachments: true });
export type Comment = z.infer<typeof Comment>;
export const Task = api.Task.required({ workspace_id: true, status: true, sequence: true });
export type Task = z.infer<typeof Task>;
export const HistoryEntry = api.HistoryEntry.required({ user_id: true, created_at: true }).extend({ sequence: sequence.optional() });
export const Success = api.Success;
export const SignedDownload = api.SignedDownload;
export type UploadTicket = api.UploadTicket;

/** The listing and the feed: our service numbers its sequences. */
export const Folder = api.Folder.extend({ sequence });
export type Folder = z.infer<typeof Folder>;
export const AssetEntry = api.AssetEntry.extend({ sequence });
export type AssetEntry = z.infer<typeof AssetEntry>;
export const Hierarchy = api.Hierarchy.extend({ sequence, folders: z.array(Folder), assets: z.array(AssetEntry) });
export type Hierarchy = z.infer<typeof Hierarchy>;
export const HierarchyPage = Hierarchy.extend({ next: z.string().nullable() });
export const FolderDetail = Folder.extend({ folders: z.array(Folder), assets: z.array(AssetEntry) });
export const Change = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('folder'), id: z.string(), deleted: z.boolean(), sequence, purged: z.boolean(), folder: Folder.optional() }),
  z.looseObject({ type: z.literal('asset'), id: z.string(), deleted: z.boolean(), sequence, purged: z.boolean(), asset: AssetEntry.optional() }),
]);
export type Change = z.infer<typeof Change>;
export const ChangesPage = z.looseObject({ sequence, has_more: z.boolean(), changes: z.array(Change) });
export type ChangesPage = z.infer<typeof ChangesPage>;
