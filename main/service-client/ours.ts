/**
 * Every payload that is ours rather than the reference's, read and written in one place: the
 * sync listing, the changes feed, version commits, asset creation and deletion options, locks,
 * the upload query's parameter names, the download redirect and the 409 details. The reference
 * lists these endpoints without a payload (docs/protocol.md marks them [ours] and [ext]); a real
 * deployment that differs is fixed here, and docs/protocol.md ("What the client guesses")
 * lists each guess with the function that makes it.
 *
 * Reading is tolerant: an entry of the listing or the feed that cannot be used is kept aside as
 * unreadable, with its id and why, and never read as absent (absent would mean deleted).
 */
import { z } from 'zod';
import { ChecksumText, SequenceValue, type DeleteAssetsRequest } from '../../shared/api/index.js';
import { readServiceChecksum, sameBytes, toServiceChecksum, type ChecksumForm } from '../local/checksum.js';
import { idOf, requiredId, someId, whyUnreadable } from './records.js';
import { readSequence, type Sequence } from './sequence.js';

// Requests: the paths and the names of what is sent.

export const LISTING_PATH = '/workspaces/folders/hierarchy';
export const CHANGES_PATH = '/workspaces/changes';
export const UPLOAD_PATH = '/workspaces/upload';
export const ASSETS_PATH = '/workspaces/assets';
export const FOLDERS_PATH = '/workspaces/folders';

/** `include_deleted=true` adds soft-deleted items to the listing. */
/** The listing's query; `page`: asks for a page of at most `limit` assets after the token `after` (docs/protocol.md). */
export const listingQuery = (includeDeleted: boolean, page?: { limit: number; after: string | null }) => ({
  include_deleted: includeDeleted ? true : undefined,
  limit: page?.limit,
  after: page?.after ?? undefined,
});

/** The feed after `since`, which goes back exactly as the service gave it (an opaque cursor included). */
export const changesQuery = (since: Sequence, limit: number) => ({ since, limit });

export interface UploadInput {
  fileName: string;
  contentType: string;
  /** The bytes' checksum in the client's form (main/local/checksum.ts). */
  checksum: string;
  size?: number | undefined;
}

/** `POST /workspaces/upload`'s query: the reference names the values, not the parameters. */
export const uploadQuery = (input: UploadInput, form: ChecksumForm | undefined) => ({
  file_name: input.fileName,
  content_type: input.contentType,
  checksum: toServiceChecksum(input.checksum, form),
  size: input.size,
});

/** A commit or a create names the upload's checksum as the service writes it. */
export const withServiceChecksum = <T extends { checksum: string }>(body: T, form: ChecksumForm | undefined): T => ({
  ...body,
  checksum: toServiceChecksum(body.checksum, form),
});

export interface DeleteOptions {
  permanent?: boolean | undefined;
  ifCurrentVersionIds?: Record<string, string> | undefined;
}

/** `DELETE /workspaces/assets`: soft unless `permanent`; conditional on the versions the caller saw. */
export function deleteAssetsBody(assetIds: string[], options: DeleteOptions): DeleteAssetsRequest {
  const body: DeleteAssetsRequest = { asset_ids: assetIds };
  if (options.permanent !== undefined) body.permanent = options.permanent;
  if (options.ifCurrentVersionIds !== undefined) body.if_current_version_ids = options.ifCurrentVersionIds;
  return body;
}

/** Taking or releasing a lock is an update of the asset: `locked`. */
export const lockBody = (locked: boolean) => ({ locked });

/** Downloads answer a 302 to the signed URL; `redirect=false` asks for it as JSON instead. */
export const downloadQuery = { redirect: false } as const;

// Answers.

const text = z.string().optional().catch(undefined);
const active = z.boolean().optional();
const sequence = SequenceValue.optional().catch(undefined);
/** The top level is `null`; an empty string is read as the top too. */
const parent = z.union([z.null(), z.string().max(200)]).transform((value) => (value === null || value === '' ? null : value));
const whole = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

const FolderEntry = z.looseObject({ id: requiredId, parent_id: parent, name: z.string(), isActive: active, sequence });
export type ListedFolder = z.output<typeof FolderEntry>;

const AssetEntry = z.looseObject({
  id: requiredId,
  folder_id: parent,
  file_name: z.string(),
  current_version_id: requiredId,
  checksum: ChecksumText,
  size: whole,
  name: text,
  version_number: z.number().int().positive().optional().catch(undefined),
  sequence,
  locked_by_user_id: someId,
  isActive: active,
  updated_at: text,
});

/** An asset of the listing or the feed as the client uses it; `checksum` in the client's form. */
export type ListedAsset = z.output<typeof AssetEntry>;

/**
 * An entry the client could not read. It is not known to be gone: whatever this device holds
 * for it stays as it is, on both sides. Where the entry still tells where it is, `folderId` and
 * `fileName` say so.
 */
export interface UnreadableEntry {
  type: 'folder' | 'asset';
  id?: string;
  why: string;
  folderId?: string | null;
  fileName?: string;
}

export interface Listing {
  workspace_id?: string | undefined;
  /** The workspace's cursor at the moment of the listing. */
  sequence: Sequence;
  folders: ListedFolder[];
  assets: ListedAsset[];
  unreadable: UnreadableEntry[];
  /** How the service writes checksums; null: in a form no algorithm is known by; undefined: no asset to tell. */
  checksumForm: ChecksumForm | null | undefined;
}

const ListingTop = z.looseObject({
  workspace_id: text,
  sequence: SequenceValue,
  folders: z.array(z.unknown()),
  assets: z.array(z.unknown()),
  next: z.string().min(1).nullable().optional(),
});

/**
 * One answer of the listing: the whole listing, or a page of it when asked in pages. `next`: the
 * token for the next page (null or absent: this was the last, or the service does not page);
 * `forms`: the checksum forms of its assets, for the form of the whole listing.
 */
export interface ListingPage extends Listing {
  next: string | null;
  forms: FormTally;
}

/** Learns the service's checksum form from the assets it lists: the form most of them have. */
export class FormTally {
  private readonly counts = new Map<string, { form: ChecksumForm | null; n: number }>();
  add(form: ChecksumForm | null): void {
    const key = form === null ? 'unknown' : `${form.algorithm}/${form.encoding}`;
    const entry = this.counts.get(key);
    if (entry) entry.n += 1;
    else this.counts.set(key, { form, n: 1 });
  }
  /** Adds another page's counts. */
  merge(other: FormTally): void {
    for (const [key, { form, n }] of other.counts) {
      const entry = this.counts.get(key);
      if (entry) entry.n += n;
      else this.counts.set(key, { form, n });
    }
  }
  get result(): ChecksumForm | null | undefined {
    let best: { form: ChecksumForm | null; n: number } | undefined;
    for (const entry of this.counts.values()) if (!best || entry.n > best.n) best = entry;
    return best?.form;
  }
}

type Read<T> = { ok: true; value: T } | { ok: false; entry: UnreadableEntry };

function readAsset(raw: unknown, tally?: FormTally): Read<ListedAsset> {
  const parsed = AssetEntry.safeParse(raw);
  if (!parsed.success) return { ok: false, entry: unreadable('asset', raw, whyUnreadable(parsed.error)) };
  const { checksum, form } = readServiceChecksum(parsed.data.checksum);
  tally?.add(form);
  return { ok: true, value: { ...parsed.data, checksum } };
}

function readFolder(raw: unknown): Read<ListedFolder> {
  const parsed = FolderEntry.safeParse(raw);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, entry: unreadable('folder', raw, whyUnreadable(parsed.error)) };
}

function unreadable(type: 'folder' | 'asset', raw: unknown, why: string): UnreadableEntry {
  const entry: UnreadableEntry = { type, why };
  const id = idOf(raw);
  if (id !== undefined) entry.id = id;
  if (type === 'asset' && raw !== null && typeof raw === 'object') {
    const { folder_id: folderId, file_name: fileName } = raw as { folder_id?: unknown; file_name?: unknown };
    if (typeof fileName === 'string' && fileName !== '') {
      entry.fileName = fileName;
      entry.folderId = typeof folderId === 'string' && folderId !== '' ? folderId : null;
    }
  }
  return entry;
}

/** The sync listing: the entries that read, and the others kept aside as unreadable. */
export const ListingAnswer = ListingTop.transform((top): ListingPage => {
  const tally = new FormTally();
  const listing: ListingPage = { sequence: readSequence(top.sequence), folders: [], assets: [], unreadable: [], checksumForm: undefined, next: top.next ?? null, forms: tally };
  if (top.workspace_id !== undefined) listing.workspace_id = top.workspace_id;
  for (const raw of top.folders) {
    const read = readFolder(raw);
    if (read.ok) listing.folders.push(read.value);
    else listing.unreadable.push(read.entry);
  }
  for (const raw of top.assets) {
    const read = readAsset(raw, tally);
    if (read.ok) listing.assets.push(read.value);
    else listing.unreadable.push(read.entry);
  }
  listing.checksumForm = tally.result;
  return listing;
});

/** One change of the feed, as the client applies it. */
export type FeedChange =
  | { type: 'folder'; id: string; deleted: boolean; folder?: ListedFolder | undefined }
  | { type: 'asset'; id: string; deleted: boolean; asset?: ListedAsset | undefined }
  | { type: 'unreadable'; entry: UnreadableEntry };

export interface FeedPage {
  sequence: Sequence;
  has_more: boolean;
  changes: FeedChange[];
}

const ChangeTop = z.looseObject({ type: z.enum(['folder', 'asset']), id: requiredId, deleted: z.boolean() });

/**
 * A change the client cannot read is unreadable, never a deletion; one that does not even say
 * which item it is about makes the page unusable (the caller lists in full instead).
 */
function readChange(raw: unknown): FeedChange {
  const top = ChangeTop.safeParse(raw);
  if (!top.success) {
    const id = idOf(raw);
    if (id === undefined) throw new Error(`a change of the feed names no item: ${whyUnreadable(top.error)}`);
    const type = (raw as { type?: unknown }).type === 'folder' ? 'folder' : 'asset';
    return { type: 'unreadable', entry: unreadable(type, (raw as Record<string, unknown>)[type] ?? raw, whyUnreadable(top.error)) };
  }
  const { type, id, deleted } = top.data;
  // A deletion is known whatever else the change carries.
  if (deleted) return { type, id, deleted };
  const body = (raw as Record<string, unknown>)[type];
  if (body === undefined || body === null) {
    return { type: 'unreadable', entry: { type, id, why: `the ${type} change is not a deletion and carries no ${type}` } };
  }
  if (type === 'folder') {
    const folder = readFolder(body);
    return folder.ok ? { type, id, deleted, folder: folder.value } : { type: 'unreadable', entry: { ...folder.entry, id } };
  }
  const asset = readAsset(body);
  return asset.ok ? { type, id, deleted, asset: asset.value } : { type: 'unreadable', entry: { ...asset.entry, id } };
}

export const ChangesAnswer = z
  .looseObject({ sequence: SequenceValue, has_more: z.boolean(), changes: z.array(z.unknown()) })
  .transform((page, ctx): FeedPage => {
    try {
      return { sequence: readSequence(page.sequence), has_more: page.has_more, changes: page.changes.map(readChange) };
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message, path: ['changes'] });
      return z.NEVER;
    }
  });

/** `…/download?redirect=false`: where to GET the bytes, with their checksum in the client's form. */
export const SignedDownloadAnswer = z
  .looseObject({ url: z.url(), expires_at: text, checksum: ChecksumText.optional().catch(undefined), size: whole.optional().catch(undefined) })
  .transform(({ checksum, ...rest }) => ({ ...rest, ...(checksum === undefined ? {} : { checksum: readServiceChecksum(checksum).checksum }) }));
export type SignedDownload = z.output<typeof SignedDownloadAnswer>;

/** `DELETE /workspaces/assets`: `{ success, deleted? }`. */
export const DeleteAssetsAnswer = z.looseObject({ success: z.boolean().optional().catch(undefined), deleted: z.array(z.string()).optional().catch(undefined) });
export type DeleteAssetsResult = z.output<typeof DeleteAssetsAnswer>;

/** What a 409 names: the item that holds the name, its current version, and that version's checksum. */
export interface ConflictDetails {
  id?: string;
  current_version_id?: string;
  checksum?: string;
}

/** The adoptable facts of a 409 (`name_conflict`, `version_conflict`), the checksum in the client's form. */
export function readConflictDetails(details: Record<string, unknown>): ConflictDetails {
  const out: ConflictDetails = {};
  for (const field of ['id', 'current_version_id', 'checksum'] as const) {
    const value = details[field];
    if (typeof value === 'string' && value !== '') out[field] = field === 'checksum' ? readServiceChecksum(value).checksum : value;
  }
  return out;
}

/**
 * A signed PUT's answer. Our blob origin sends `{ key, size, checksum }`; object stores often
 * send an empty body with only an ETag, so every field is optional.
 */
export const SignedUploadAnswer = z.looseObject({
  key: text,
  size: whole.optional().catch(undefined),
  checksum: ChecksumText.optional().catch(undefined),
});
export type SignedUploadAnswer = z.output<typeof SignedUploadAnswer>;

/** A folder the client made or moved: its id is what it needs. */
export const FolderAnswer = z.looseObject({ id: requiredId, parent_id: parent.optional().catch(undefined), name: text });
export type FolderAnswer = z.output<typeof FolderAnswer>;

/** `GET /workspaces/folders/{id}`: the folder with its children, read as the listing's entries are. */
export const FolderDetailAnswer = FolderAnswer.extend({ folders: z.array(z.unknown()), assets: z.array(z.unknown()) }).transform(({ folders, assets, ...folder }) => {
  const out = { ...folder, folders: [] as ListedFolder[], assets: [] as ListedAsset[], unreadable: [] as UnreadableEntry[] };
  for (const raw of folders) {
    const read = readFolder(raw);
    if (read.ok) out.folders.push(read.value);
    else out.unreadable.push(read.entry);
  }
  for (const raw of assets) {
    const read = readAsset(raw);
    if (read.ok) out.assets.push(read.value);
    else out.unreadable.push(read.entry);
  }
  return out;
});
export type FolderDetail = z.output<typeof FolderDetailAnswer>;

/**
 * The blob origin's ETag is the blob's checksum (ours: no object store promises that). Only an
 * ETag that reads as a checksum of the same algorithm and differs says other bytes are served.
 */
export function etagSaysOtherBytes(etag: string, checksum: string): boolean {
  return sameBytes(readServiceChecksum(etag).checksum, checksum) === false;
}
