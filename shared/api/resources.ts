/**
 * Resources of the Asset Collaboration Service (reference part 2), as the reference types them:
 * a field is required only where the reference says so (the Account fields it does not mark
 * optional, AssetVersion's list of required fields), nullable only where it says "nullable",
 * and every record may carry fields the reference does not name. These schemas are the contract:
 * docs/openapi.json is generated from them, the local service types its answers with them, and
 * the contract tests hold the service to them. The client does not read answers with them: it
 * validates only what it uses (main/service-client/records.ts).
 */
import { z } from 'zod';

const str = z.string();
const uuid = z.uuid();

/** The reference's own words for a field, carried into docs/openapi.json. */
const note = <T extends z.ZodType>(schema: T, description: string): T => schema.describe(description);

export interface User {
  id?: string;
  idpUserID?: string;
  username?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  avatar_file_id?: string;
  defaultAvatar?: number;
  industry?: string;
  occupation?: string;
  company?: string;
  emailVerified?: boolean;
  isActive?: boolean;
  city?: string;
  state?: string;
  country?: string;
  zipCode?: string;
  invited_by_user?: User;
  [key: string]: unknown;
}
/** No field of the User record is marked required. */
export const User: z.ZodType<User> = z.lazy(() =>
  z.looseObject({
    id: str.optional(),
    idpUserID: note(str, 'identity-provider user identifier').optional(),
    username: str.optional(),
    email: str.optional(),
    firstName: str.optional(),
    lastName: str.optional(),
    avatar_file_id: note(str, 'file identifier of the avatar').optional(),
    defaultAvatar: note(z.number(), 'default avatar identifier').optional(),
    industry: str.optional(),
    occupation: str.optional(),
    company: str.optional(),
    emailVerified: z.boolean().optional(),
    isActive: z.boolean().optional(),
    city: str.optional(),
    state: str.optional(),
    country: str.optional(),
    zipCode: str.optional(),
    invited_by_user: User.optional(),
  }),
);

export const Subscription = z.looseObject({
  account_id: str.optional(),
  billing_customer_id: note(str, 'billing-provider customer identifier').optional(),
  status: str.optional(),
  licenses: z.number().optional(),
  frequency: str.optional(),
  contact: str.optional(),
});
export type Subscription = z.infer<typeof Subscription>;

export const AccountMember = z.looseObject({
  account_id: str.optional(),
  user_id: str.optional(),
  roles: z.array(str).optional(),
  user: User.optional(),
});
export type AccountMember = z.infer<typeof AccountMember>;

export const Tier = z.looseObject({
  id: str.optional(),
  type: str.optional(),
  name: str.optional(),
  maxStorage: z.number().optional(),
  costPerLicense: z.number().optional(),
  costPerExtraTB: z.number().optional(),
});
export type Tier = z.infer<typeof Tier>;

export const AccountType = z.looseObject({
  id: str.optional(),
  name: str.optional(),
  maxStorage: z.number().optional(),
  maxAssets: z.number().optional(),
  maxUsers: z.number().optional(),
  costPerUser: z.number().optional(),
  addStoragePrice: z.number().optional(),
});
export type AccountType = z.infer<typeof AccountType>;

export const WorkspaceMember = z.looseObject({
  workspace_id: str.optional(),
  user_id: str.optional(),
  roles: z.array(str).optional(),
  user: User.optional(),
});
export type WorkspaceMember = z.infer<typeof WorkspaceMember>;

/**
 * `sequence` is declared a string, and an example elsewhere in the reference shows a number:
 * either is the reference's.
 */
export const Workspace = z.looseObject({
  id: uuid.optional(),
  account_id: note(uuid, 'owning account').optional(),
  name: str.optional(),
  thumbnail_file_id: uuid.optional(),
  defaultAvatar: z.int().min(1).max(10).optional(),
  created_by_user_id: uuid.optional(),
  sequence: note(z.union([str, z.number()]), 'declared as a string in the reference; an example elsewhere shows a number').optional(),
  roles: note(WorkspaceMember, 'roles of the caller in the workspace').optional(),
  usage: note(z.record(str, z.unknown()), 'usage information').optional(),
});
export type Workspace = z.infer<typeof Workspace>;

/** The fields the reference does not mark optional are required. */
export const Account = z.looseObject({
  id: str,
  name: str,
  account_tier_id: str,
  thumbnail_file_id: str.optional(),
  created_by_user_id: str.optional(),
  defaultAvatar: z.number(),
  sequence: z.number(),
  subscription: Subscription.optional(),
  members: note(AccountMember, 'a single object').optional(),
  tier: Tier.optional(),
  type: AccountType.optional(),
  creator: User.optional(),
  workspaces: z.array(Workspace),
  isCreator: note(z.boolean(), 'whether the caller created the account').optional(),
  account_roles: note(z.array(str), "the caller's roles on the account").optional(),
});
export type Account = z.infer<typeof Account>;

/** The answer of GET /users/permissions. */
export const Permissions = z.looseObject({
  id: str.optional(),
  idpUserID: str.optional(),
  email: str.optional(),
  accounts: z.array(Account).optional(),
  personalAccount: Account.optional(),
});
export type Permissions = z.infer<typeof Permissions>;

export const AssetVersion = z.looseObject({
  id: str,
  asset_id: str,
  commit_parent_id: note(str, 'parent commit, if any').optional(),
  created_by_user_id: str,
  thumbnail_file_id: str,
  name: str,
  description: str,
  key: str,
  size: z.int(),
  version_number: z.int(),
  sequence: z.int(),
  checksum: str,
  user: note(User, 'creator').optional(),
});
export type AssetVersion = z.infer<typeof AssetVersion>;

export const AssetAttachment = z.looseObject({
  id: str.optional(),
  asset_id: str.optional(),
  created_by_user_id: str.optional(),
  file_id: str.optional(),
  thumbnail_file_id: str.optional(),
  review_id: str.optional(),
  comment_id: str.optional(),
  name: str.optional(),
  description: str.optional(),
  user: User.optional(),
});
export type AssetAttachment = z.infer<typeof AssetAttachment>;

export const ReviewStatus = z.enum(['approved', 'rejected']);
export type ReviewStatus = z.infer<typeof ReviewStatus>;

/** A review, also called a change request. */
export const AssetReview = z.looseObject({
  id: str.optional(),
  asset_id: str.optional(),
  asset_version_id: str.nullable().optional(),
  user_id: note(str, 'creator of the review').optional(),
  assigned_user_id: str.nullable().optional(),
  status: ReviewStatus.optional(),
  content: str.optional(),
  mentions: note(z.array(str), 'mentioned users').optional(),
  viewer_metadata: z.record(str, z.unknown()).optional(),
  attachments: z.array(AssetAttachment).optional(),
  version: AssetVersion.optional(),
  user: note(User, 'creator').optional(),
  assignee: User.optional(),
  workspace_id: str.nullable().optional(),
});
export type AssetReview = z.infer<typeof AssetReview>;

export const Tag = z.looseObject({
  id: str.optional(),
  workspace_id: str.optional(),
  name: str.optional(),
  color: str.optional(),
  created_by_user_id: str.optional(),
  sequence: z.number().optional(),
});
export type Tag = z.infer<typeof Tag>;

export const Library = z.looseObject({
  id: str.optional(),
  workspace_id: str.optional(),
  name: str.optional(),
  description: str.optional(),
  thumbnail_file_id: str.optional(),
  defaultAvatar: z.number().optional(),
  created_by_user_id: str.optional(),
  sequence: z.number().optional(),
});
export type Library = z.infer<typeof Library>;

export const AssetType = z.looseObject({
  id: str.optional(),
  name: str.optional(),
  displayType: str.optional(),
  color: str.optional(),
  generic: z.boolean().optional(),
  knownExtensions: z.array(str).optional(),
});
export type AssetType = z.infer<typeof AssetType>;

export const AssetStatus = z.looseObject({
  id: str.optional(),
  workspace_id: str.optional(),
  name: str.optional(),
  color: str.optional(),
  rank: str.optional(),
  created_by_user_id: str.optional(),
});
export type AssetStatus = z.infer<typeof AssetStatus>;

export const Asset = z.looseObject({
  id: str.optional(),
  workspace_id: str.optional(),
  name: str.optional(),
  asset_type_id: str.optional(),
  status_id: str.optional(),
  isActive: z.boolean().optional(),
  created_by_user_id: str.optional(),
  locked_by_user_id: str.optional(),
  file_name: str.optional(),
  file_location: str.optional(),
  current_version_id: str.optional(),
  sequence: z.number().optional(),
  currentVersion: AssetVersion.optional(),
  version: AssetVersion.optional(),
  versions: z.array(AssetVersion).optional(),
  collaborators: z.array(User).optional(),
  favorited: z.boolean().optional(),
  tags: z.array(Tag).optional(),
  libraries: z.array(Library).optional(),
  reviewRequests: note(z.array(z.unknown()), 'element shape is not detailed in the reference').optional(),
  assetType: AssetType.optional(),
  assetStatus: AssetStatus.optional(),
});
export type Asset = z.infer<typeof Asset>;

export const ReviewRequest = z.looseObject({
  workspace_id: str.optional(),
  asset_id: str.optional(),
  asset_version_id: str.optional(),
  requestor_id: str.optional(),
  user_id: str.optional(),
  review_id: str.optional(),
  user: note(User, 'the requested user').optional(),
  requestor: User.optional(),
  asset: Asset.optional(),
  version: AssetVersion.optional(),
  review: AssetReview.optional(),
});
export type ReviewRequest = z.infer<typeof ReviewRequest>;
