/**
 * Records of the collaboration endpoints whose payloads the reference does not show ([ours] in
 * docs/protocol.md): comments, tasks, histories, settings, invites and the request bodies the
 * service takes for them. A value that is not there is left out, never `null`.
 */
import { z } from 'zod';
import { User } from './resources.js';
import { SequenceValue } from './sync.js';

const id = z.string().min(1).max(200);
const looseDetails = z.record(z.string(), z.unknown());

export const HistoryEntry = z.looseObject({
  id,
  asset_id: id,
  user_id: z.string().optional(),
  action: z.string(),
  details: looseDetails.optional(),
  created_at: z.string().optional(),
  sequence: SequenceValue.optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const ReviewHistoryEntry = z.looseObject({
  id: z.string(),
  asset_id: z.string(),
  review_id: z.string().optional(),
  user_id: z.string().optional(),
  status: z.string().optional(),
  asset_version_id: z.string().optional(),
  created_at: z.string().optional(),
  action: z.string(),
});
export type ReviewHistoryEntry = z.infer<typeof ReviewHistoryEntry>;

export const AccountHistoryEntry = z.looseObject({
  id,
  account_id: id,
  user_id: z.string().optional(),
  action: z.string(),
  target_type: z.string().optional(),
  target_id: z.string().optional(),
  details: looseDetails.optional(),
  created_at: z.string().optional(),
});

export const Comment = z.looseObject({
  id,
  asset_id: id,
  user_id: z.string().optional(),
  content: z.string(),
  mentions: z.array(z.string()).optional(),
  attachments: z.array(z.unknown()).optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  /** Ours: the author, as the service knows them. */
  user: User.optional(),
});
export type Comment = z.infer<typeof Comment>;

export const Task = z.looseObject({
  id,
  workspace_id: id.optional(),
  asset_id: id.optional(),
  title: z.string(),
  description: z.string().optional(),
  status: z.string().optional(),
  assigned_user_id: id.optional(),
  created_by_user_id: z.string().optional(),
  due_date: z.string().optional(),
  created_at: z.string().optional(),
  sequence: SequenceValue.optional(),
});
export type Task = z.infer<typeof Task>;

export const AccountSetting = z.looseObject({ id, account_id: id.optional(), key: z.string(), value: z.unknown() });

export const Invite = z.looseObject({
  id,
  account_id: id.optional(),
  email: z.string(),
  roles: z.array(z.string()).optional(),
  invited_by_user_id: z.string().optional(),
  created_at: z.string().optional(),
});

/** `GET|PUT /workspaces/settings`: the workspace's id and its settings, key by key. */
export const WorkspaceSettings = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

/** Request bodies of these endpoints, as the service takes them (docs/protocol.md). */
const upload = z.looseObject({ key: z.string(), name: z.string(), description: z.string().optional() });
export const CommentRequest = z.looseObject({ content: z.string(), mentions: z.array(z.string()).optional(), attachments: z.array(upload).optional() });
export const ReviewRequestBody = z.looseObject({
  status: z.enum(['approved', 'rejected']).optional(),
  content: z.string().optional(),
  asset_version_id: z.string().optional(),
  assigned_user_id: z.string().optional(),
  mentions: z.array(z.string()).optional(),
  viewer_metadata: looseDetails.optional(),
  attachments: z.array(upload).optional(),
});
export const ReviewRequestMessage = z.looseObject({ message: z.string().optional(), asset_version_id: z.string().optional() });
export const TaskRequest = z.looseObject({
  title: z.string().optional(),
  description: z.string().optional(),
  asset_id: z.string().optional(),
  assigned_user_id: z.string().optional(),
  due_date: z.string().optional(),
  status: z.enum(['open', 'done']).optional(),
});
export const NamedRequest = z.looseObject({ name: z.string().optional(), description: z.string().optional(), color: z.string().optional(), defaultAvatar: z.int().min(1).max(10).optional() });
export const RolesRequest = z.looseObject({ roles: z.array(z.string()).optional() });
export const InviteRequest = z.looseObject({ email: z.string(), roles: z.array(z.string()).optional() });
export const SettingRequest = z.looseObject({ value: z.unknown() });
export const TagIdsRequest = z.looseObject({ tag_ids: z.array(z.string()) });
export const RestoreRequest = z.looseObject({ file_name: z.string().optional() });
export const VersionPatchRequest = z.looseObject({ name: z.string().optional(), description: z.string().optional() });
