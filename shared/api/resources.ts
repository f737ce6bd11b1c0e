/**
 * Resources of the Asset Collaboration Service (reference part 2), as zod schemas.
 * The schemas serve twice: as TypeScript types for the service and the client, and as the
 * client's validation of every answer at the boundary. They are deliberately lenient where
 * the reference is ambiguous (`sequence` as string or number, optional fields) and strict
 * where a wrong type would hurt a sync client (ids, checksums, sizes).
 */
import { z } from 'zod';

const id = z.string().min(1).max(200);
const optionalString = z.string().nullish();
/** The reference declares some sequences as strings and shows numbers elsewhere. */
export const Sequence = z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,16}$/)]).transform(Number);
export const Checksum = z.string().regex(/^[0-9a-f]{64}$/, 'expected a SHA-256 hex checksum');
const Size = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

export interface User {
  id?: string;
  idpUserID?: string;
  username?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  avatar_file_id?: string | null;
  defaultAvatar?: number;
  industry?: string | null;
  occupation?: string | null;
  company?: string | null;
  emailVerified?: boolean;
  isActive?: boolean;
  city?: string | null;
  state?: string | null;
  country?: string | null;
  zipCode?: string | null;
  invited_by_user?: User | null;
}
export const User: z.ZodType<User> = z.lazy(() =>
  z.looseObject({
    id: id.optional(),
    idpUserID: z.string().optional(),
    username: z.string().optional(),
    email: z.string().optional(),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    avatar_file_id: optionalString,
    defaultAvatar: z.number().optional(),
    industry: optionalString,
    occupation: optionalString,
    company: optionalString,
    emailVerified: z.boolean().optional(),
    isActive: z.boolean().optional(),
    city: optionalString,
    state: optionalString,
    country: optionalString,
    zipCode: optionalString,
    invited_by_user: User.nullish(),
  }),
);

export const Subscription = z.looseObject({
  account_id: z.string(),
  billing_customer_id: z.string(),
  status: z.string(),
  licenses: z.number(),
  frequency: z.string(),
  contact: z.string(),
});
export type Subscription = z.infer<typeof Subscription>;

export const AccountMember = z.looseObject({
  account_id: id,
  user_id: id,
  roles: z.array(z.string()),
  user: User.optional(),
});
export type AccountMember = z.infer<typeof AccountMember>;

export const Tier = z.looseObject({
  id,
  type: z.string(),
  name: z.string(),
  maxStorage: z.number(),
  costPerLicense: z.number(),
  costPerExtraTB: z.number(),
});
export type Tier = z.infer<typeof Tier>;

export const AccountType = z.looseObject({
  id,
  name: z.string(),
  maxStorage: z.number(),
  maxAssets: z.number(),
  maxUsers: z.number(),
  costPerUser: z.number(),
  addStoragePrice: z.number(),
});
export type AccountType = z.infer<typeof AccountType>;

export const WorkspaceMember = z.looseObject({
  workspace_id: id,
  user_id: id,
  roles: z.array(z.string()),
  user: User.optional(),
});
export type WorkspaceMember = z.infer<typeof WorkspaceMember>;

export const Workspace = z.looseObject({
  id,
  account_id: id,
  name: z.string(),
  thumbnail_file_id: optionalString,
  defaultAvatar: z.number().int().min(1).max(10).optional(),
  created_by_user_id: optionalString,
  sequence: Sequence.optional(),
  roles: WorkspaceMember.optional(),
  usage: z.record(z.string(), z.unknown()).optional(),
});
export type Workspace = z.infer<typeof Workspace>;

export const Account = z.looseObject({
  id,
  name: z.string(),
  account_tier_id: z.string(),
  thumbnail_file_id: optionalString,
  created_by_user_id: optionalString,
  defaultAvatar: z.number().optional(),
  sequence: Sequence.optional(),
  subscription: Subscription.optional(),
  members: AccountMember.optional(),
  tier: Tier.optional(),
  type: AccountType.optional(),
  creator: User.optional(),
  workspaces: z.array(Workspace).default([]),
  isCreator: z.boolean().optional(),
  account_roles: z.array(z.string()).optional(),
});
export type Account = z.infer<typeof Account>;

export const Permissions = z.looseObject({
  id,
  idpUserID: z.string().optional(),
  email: z.string().optional(),
  accounts: z.array(Account),
  personalAccount: Account.nullish(),
});
export type Permissions = z.infer<typeof Permissions>;

export const AssetVersion = z.looseObject({
  id,
  asset_id: id,
  commit_parent_id: id.nullish(),
  created_by_user_id: z.string(),
  thumbnail_file_id: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  key: z.string(),
  size: Size,
  version_number: z.number().int().positive(),
  sequence: Sequence,
  checksum: Checksum,
  user: User.optional(),
  deleted: z.boolean().optional(),
  created_at: z.string().optional(),
  content_type: z.string().nullish(),
});
export type AssetVersion = z.infer<typeof AssetVersion>;

export const AssetAttachment = z.looseObject({
  id,
  asset_id: id,
  created_by_user_id: z.string(),
  file_id: z.string(),
  thumbnail_file_id: z.string().nullish(),
  review_id: z.string().nullish(),
  comment_id: z.string().nullish(),
  name: z.string(),
  description: z.string().nullish(),
  user: User.optional(),
});
export type AssetAttachment = z.infer<typeof AssetAttachment>;

export const ReviewStatus = z.enum(['approved', 'rejected']);
export type ReviewStatus = z.infer<typeof ReviewStatus>;

export const AssetReview = z.looseObject({
  id,
  asset_id: id,
  asset_version_id: id.nullable(),
  user_id: id,
  assigned_user_id: id.nullable(),
  status: ReviewStatus,
  content: z.string(),
  mentions: z.array(z.string()).default([]),
  viewer_metadata: z.record(z.string(), z.unknown()).nullish(),
  attachments: z.array(AssetAttachment).default([]),
  version: AssetVersion.nullish(),
  user: User.optional(),
  assignee: User.nullish(),
  workspace_id: id.nullable(),
  created_at: z.string().optional(),
});
export type AssetReview = z.infer<typeof AssetReview>;

export const Tag = z.looseObject({
  id,
  workspace_id: id,
  name: z.string(),
  color: z.string().nullish(),
  created_by_user_id: z.string(),
  sequence: Sequence,
});
export type Tag = z.infer<typeof Tag>;

export const Library = z.looseObject({
  id,
  workspace_id: id,
  name: z.string(),
  description: z.string().nullish(),
  thumbnail_file_id: z.string().nullish(),
  defaultAvatar: z.number().optional(),
  created_by_user_id: z.string(),
  sequence: Sequence,
});
export type Library = z.infer<typeof Library>;

export const AssetType = z.looseObject({
  id,
  name: z.string(),
  displayType: z.string(),
  color: z.string(),
  generic: z.boolean(),
  knownExtensions: z.array(z.string()),
});
export type AssetType = z.infer<typeof AssetType>;

export const AssetStatus = z.looseObject({
  id,
  workspace_id: id,
  name: z.string(),
  color: z.string(),
  rank: z.string(),
  created_by_user_id: z.string(),
});
export type AssetStatus = z.infer<typeof AssetStatus>;

export const Asset = z.looseObject({
  id,
  workspace_id: id,
  name: z.string(),
  asset_type_id: z.string().nullish(),
  status_id: z.string().nullish(),
  isActive: z.boolean(),
  created_by_user_id: z.string(),
  locked_by_user_id: z.string().nullish(),
  file_name: z.string(),
  file_location: z.string().nullish(),
  folder_id: id.nullish(),
  current_version_id: id,
  sequence: Sequence,
  currentVersion: AssetVersion.optional(),
  version: AssetVersion.optional(),
  versions: z.array(AssetVersion).optional(),
  collaborators: z.array(User).optional(),
  favorited: z.boolean().optional(),
  tags: z.array(Tag).optional(),
  libraries: z.array(Library).optional(),
  reviewRequests: z.array(z.unknown()).optional(),
  assetType: AssetType.nullish(),
  assetStatus: AssetStatus.nullish(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  deleted_at: z.string().nullish(),
});
export type Asset = z.infer<typeof Asset>;

export const ReviewRequest = z.looseObject({
  id: id.optional(),
  workspace_id: id,
  asset_id: id,
  asset_version_id: id,
  requestor_id: id,
  user_id: id,
  review_id: id.nullable(),
  message: z.string().nullish(),
  created_at: z.string().optional(),
  user: User.optional(),
  requestor: User.optional(),
  asset: Asset.optional(),
  version: AssetVersion.optional(),
  review: AssetReview.nullish(),
});
export type ReviewRequest = z.infer<typeof ReviewRequest>;
