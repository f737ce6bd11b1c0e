/**
 * The reference's records as the client reads them: a tolerant reader. Only the fields the
 * client uses are validated; every other field passes through unread, whatever it holds.
 * - A field the client acts on (an id it calls with, a size it checks) is required: an item
 *   without it cannot be used and is skipped, and reported, while the rest of the answer is used.
 * - A field it only shows or passes on is read leniently: `null`, an empty string or a value of
 *   another type counts as absent, and never rejects the answer.
 * The contract itself, as the reference types it, is shared/api/resources.ts.
 */
import { z } from 'zod';
import { readServiceChecksum } from '../local/checksum.js';

/** Shown or passed on: anything but a string is absent. */
const text = z.string().optional().catch(undefined);
/** An id the client only passes on or compares: an empty string is no id, as `null` is. */
export const someId = text.transform((value) => (value === '' ? undefined : value));
/** An id the client calls the service with. */
export const requiredId = z.string().min(1).max(200);
const flag = z.boolean().optional().catch(undefined);
const whole = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
/**
 * A checksum in the client's form (main/local/checksum.ts): a form nobody can tell still reads,
 * and the bytes are then checked by their size.
 */
export const ServiceChecksum = z.string().min(1).max(300).transform((value) => readServiceChecksum(value).checksum);

/** An item of a list the client could not use: what it was, its id when it has one, and why. */
export interface SkippedItem {
  what: string;
  id?: string;
  why: string;
}

export interface Listed<T> {
  items: T[];
  skipped: SkippedItem[];
}

/** Why an item failed, in a line: the first issues with their paths. */
export function whyUnreadable(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(item)'}: ${issue.message}`)
    .join('; ');
}

/** The id of an item that could not be read, when it carries one worth naming. */
export function idOf(raw: unknown): string | undefined {
  const value = raw !== null && typeof raw === 'object' ? (raw as { id?: unknown }).id : undefined;
  return typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : typeof value === 'number' ? String(value) : undefined;
}

/**
 * A list read item by item: the items that read, and the others skipped with why. An answer that
 * is no list at all is still refused whole.
 */
export function listOf<T extends z.ZodType>(item: T, what: string) {
  return z.array(z.unknown()).transform((raw): Listed<z.output<T>> => {
    const listed: Listed<z.output<T>> = { items: [], skipped: [] };
    for (const entry of raw) {
      const parsed = item.safeParse(entry);
      if (parsed.success) {
        listed.items.push(parsed.data);
      } else {
        const id = idOf(entry);
        listed.skipped.push({ what, ...(id ? { id } : {}), why: whyUnreadable(parsed.error) });
      }
    }
    return listed;
  });
}

/** A list inside a record the client reads for display: the items that read, the rest left out. */
const quietListOf = <T extends z.ZodType>(item: T) =>
  z
    .array(z.unknown())
    .catch([])
    .optional()
    .transform((raw) => (raw ?? []).flatMap((entry) => {
      const parsed = item.safeParse(entry);
      return parsed.success ? [parsed.data as z.output<T>] : [];
    }));

/** A nested record the client reads for display: absent when it does not read. */
const optionalRecord = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/**
 * `POST /auth/token`: the JWT as a JSON string, or `{ token, expires_in }` as the reference's
 * guidance names them. A lifetime that is no positive number is unknown: the JWT's own `exp`, or
 * a refusal later, tells when a new one is needed.
 */
export const TokenAnswer = z.union([
  z.string().min(1),
  z.looseObject({ token: z.string().min(1), expires_in: z.number().positive().optional().catch(undefined) }),
]);
export type TokenAnswer = z.output<typeof TokenAnswer>;

export const User = z.looseObject({
  id: someId,
  email: text,
  username: text,
  firstName: text,
  lastName: text,
});
export type User = z.output<typeof User>;

export const WorkspaceMember = z.looseObject({
  user_id: requiredId,
  roles: z.array(z.string()).optional().catch(undefined),
  user: optionalRecord(User),
});
export type WorkspaceMember = z.output<typeof WorkspaceMember>;

/** A workspace the client can sync: it has an id; its name is shown, its id when it has none. */
export const Workspace = z
  .looseObject({ id: requiredId, name: text, account_id: someId })
  .transform((w) => ({ ...w, name: w.name === undefined || w.name === '' ? w.id : w.name }));
export type Workspace = z.output<typeof Workspace>;

const Account = z.looseObject({ id: someId, name: text, workspaces: quietListOf(Workspace) });

/** GET /users/permissions: every account of the caller with its workspaces. */
export const Permissions = z.looseObject({
  id: someId,
  accounts: quietListOf(Account),
  personalAccount: optionalRecord(Account),
});
export type Permissions = z.output<typeof Permissions>;

/** A version: the client downloads, compares and restores it by id, checksum and size. */
export const AssetVersion = z.looseObject({
  id: requiredId,
  asset_id: someId,
  version_number: z.number().int().positive(),
  checksum: ServiceChecksum,
  size: whole,
  commit_parent_id: someId,
  created_by_user_id: someId,
  name: text,
  description: text,
  content_type: text,
  created_at: text,
  deleted: flag,
  user: optionalRecord(User),
});
export type AssetVersion = z.output<typeof AssetVersion>;

/** An asset as the client acts on it: its id, current version, name and lock. */
export const Asset = z.looseObject({
  id: requiredId,
  current_version_id: requiredId,
  file_name: text,
  name: text,
  workspace_id: someId,
  folder_id: someId.nullable().catch(undefined),
  locked_by_user_id: someId,
  isActive: flag,
  currentVersion: optionalRecord(AssetVersion),
});
export type Asset = z.output<typeof Asset>;

export const ReviewStatus = z.enum(['approved', 'rejected']);

/** The version a review or a request is about, as shown: its name and number. */
const VersionShown = optionalRecord(z.looseObject({ name: text, version_number: z.number().int().optional().catch(undefined) }));

/** A review (a change request): the client names the asset it is about and what was said. */
export const AssetReview = z.looseObject({
  id: requiredId,
  asset_id: requiredId,
  workspace_id: someId.nullable().catch(undefined),
  asset_version_id: someId.nullable().catch(undefined),
  status: ReviewStatus.optional().catch(undefined),
  content: text,
  created_at: text,
  user: optionalRecord(User),
  version: VersionShown,
});
export type AssetReview = z.output<typeof AssetReview>;

/** A review request: the client opens the asset it names in the workspace it names. */
export const ReviewRequest = z.looseObject({
  id: someId,
  workspace_id: requiredId,
  asset_id: requiredId,
  asset_version_id: someId,
  user_id: someId,
  review_id: someId,
  created_at: text,
  requestor: optionalRecord(User),
  asset: optionalRecord(z.looseObject({ file_name: text, name: text, file_location: text })),
  version: VersionShown,
});
export type ReviewRequest = z.output<typeof ReviewRequest>;
