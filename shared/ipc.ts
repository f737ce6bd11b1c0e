/**
 * The one API the renderer has, declared once (as GitHub Desktop's ipc-shared.ts does).
 * Each channel has a zod schema for its request (main validates every call with it) and a
 * response type. Two transports carry it and the renderer cannot tell them apart: Electron IPC
 * through the preload bridge, and HTTP + server-sent events from the headless daemon
 * (`asset-sync sync --ui`).
 */
import { z } from 'zod';
import type { EngineStatus, ActivityItem, ReviewNotification } from './engine.js';
import type { MediaPreview, ThumbnailRef } from './media.js';
import type { EventName, UiEvents } from './ui-events.js';

const id = z.string().min(1).max(200);

/** Attachments of one comment together, as bytes: base64 in a request stays under the UI server's 1 MiB. */
export const ATTACHMENT_MAX_BYTES = 512 * 1024;
/** A path relative to a workspace folder, as the UI shows it. */
const relPath = z.string().max(4096);
/**
 * The user said yes to opening a program or script (`OpenOutcome.confirm`). Only the headless UI
 * takes it from the page; the desktop app asks with a dialog of its own whatever the page says.
 */
const runConfirmed = z.boolean().default(false);
/** An asset by id (as Files, Versions and Reviews have it) or by path (as the activity feed has it); its synced version unless one is named. */
const mediaItem = z
  .object({ assetId: id.optional(), path: relPath.optional(), versionId: id.optional() })
  .refine((item) => item.assetId !== undefined || item.path !== undefined, { message: 'name an assetId or a path' });

export const Requests = {
  getStatus: z.object({}),
  getActivity: z.object({ workspaceId: id.optional(), limit: z.number().int().min(1).max(500).default(50) }),
  listFiles: z.object({ workspaceId: id, folder: relPath.default('') }),
  /**
   * The first `limit` entries of a folder in the order the Files view shows them, and how many it
   * holds: a large folder shows its first rows while `listFiles` lists the whole of it.
   */
  listFilesFirst: z.object({ workspaceId: id, folder: relPath.default(''), limit: z.number().int().min(1).max(1000) }),
  openFile: z.object({ workspaceId: id, path: relPath, runConfirmed }),
  showInFolder: z.object({ workspaceId: id, path: relPath }),
  listVersions: z.object({ workspaceId: id, path: relPath }),
  openVersion: z.object({ workspaceId: id, path: relPath, versionId: id, runConfirmed }),
  saveVersionCopy: z.object({ workspaceId: id, path: relPath, versionId: id }),
  /** Commits the version's bytes as a new current version; `note` is its note (else "Restored from version N"). */
  restoreVersion: z.object({ workspaceId: id, path: relPath, versionId: id, note: z.string().max(10_000).optional() }),
  /** The note (the service's `description`) of a version the user made; '' clears it. */
  setVersionNote: z.object({ workspaceId: id, path: relPath, versionId: id, note: z.string().max(10_000) }),
  /** Who made each version and its note, for the activity feed (looked up when shown, kept a while). */
  describeVersions: z.object({ workspaceId: id, items: z.array(z.object({ assetId: id, versionId: id })).min(1).max(100) }),
  listReviews: z.object({}),
  /** Approves or rejects a version; a rejection needs a reason (`content`). */
  decideReview: z.object({
    workspaceId: id,
    assetId: id,
    versionId: id.nullable(),
    status: z.enum(['approved', 'rejected']),
    content: z.string().max(10_000),
  }),
  /** Changes a decision of the user's (the service's review is updated). */
  changeDecision: z.object({ workspaceId: id, assetId: id, reviewId: id, status: z.enum(['approved', 'rejected']), content: z.string().max(10_000) }),
  /** Withdraws a decision of the user's: the review is deleted and the request it answered is open again. */
  undoDecision: z.object({ workspaceId: id, assetId: id, reviewId: id }),
  /** The user's past decisions, newest first. */
  listDecided: z.object({}),
  /** The asset's comment thread, oldest first. */
  listComments: z.object({ workspaceId: id, assetId: id }),
  /**
   * Adds to the thread. `mentions`: workspace members' user ids. Attachments travel as base64
   * inside the request, so they are small (ATTACHMENT_MAX_BYTES together).
   */
  addComment: z.object({
    workspaceId: id,
    assetId: id,
    content: z.string().trim().min(1).max(50_000),
    mentions: z.array(id).max(100).default([]),
    attachments: z
      .array(z.object({ name: z.string().min(1).max(255), dataBase64: z.string().max(Math.ceil(ATTACHMENT_MAX_BYTES / 3) * 4) }))
      .max(5)
      .default([]),
  }),
  /** The workspace's members, by name (for mentions). */
  listMembers: z.object({ workspaceId: id }),
  /** The conflicts that wait for the user, each with both sides. */
  listConflicts: z.object({}),
  /** Keep mine (committed on `theirsVersionId`, the version the user saw), theirs, or both. */
  resolveConflict: z.object({ workspaceId: id, copyPath: relPath, keep: z.enum(['mine', 'theirs', 'both']), theirsVersionId: id.optional() }),
  /** Takes or releases the user's lock on a synced file. */
  setLock: z.object({ workspaceId: id, path: relPath, locked: z.boolean() }),
  /** Marks review and change requests read on this computer: one ("Mark as read") or all shown ("Mark all as read"). */
  markReviewsRead: z.object({
    items: z.array(z.object({ kind: z.enum(['review_request', 'change_request']), remoteKey: z.string().min(1).max(1000) })).min(1).max(1000),
  }),
  openAsset: z.object({ workspaceId: id, assetId: id, runConfirmed }),
  pause: z.object({}),
  resume: z.object({}),
  retry: z.object({ workspaceId: id.optional() }),
  /** Carries out the deletions the mass-delete brake held back, once. */
  allowDeletions: z.object({ workspaceId: id }),
  getSettings: z.object({}),
  updateSettings: z.object({
    pollIntervalSeconds: z.number().int().min(5).max(3600).optional(),
    bandwidthLimit: z.number().int().positive().nullable().optional(),
    launchAtLogin: z.boolean().optional(),
    maxDownloads: z.number().int().min(1).max(32).optional(),
    maxUploads: z.number().int().min(1).max(16).optional(),
    prefetchThumbnails: z.boolean().optional(),
    mediaCacheMiB: z.number().int().min(16).max(65_536).optional(),
    root: z.string().min(1).max(4096).optional(),
    workspaces: z.array(z.object({ id, excluded: z.array(relPath).default([]) })).optional(),
  }),
  listRemoteWorkspaces: z.object({}),
  listRemoteFolders: z.object({ workspaceId: id }),
  signIn: z.object({ baseUrl: z.string().url(), accountId: id, key: z.string().min(1).max(500), secret: z.string().min(1).max(500) }),
  signOut: z.object({}),
  /** Pictures for a grid or a list: one answer per item, in order (shared/media.ts). */
  mediaThumbnails: z.object({ workspaceId: id, items: z.array(mediaItem).min(1).max(500), size: z.enum(['grid', 'preview']).default('grid') }),
  /** What the viewer shows of one version; `page` turns a PDF's pages. */
  mediaPreview: z.object({ workspaceId: id, item: mediaItem, page: z.number().int().min(1).max(100_000).default(1) }),
} as const;

export type Channel = keyof typeof Requests;
export type RequestOf<C extends Channel> = z.input<(typeof Requests)[C]>;
export type ParsedRequestOf<C extends Channel> = z.output<(typeof Requests)[C]>;

export type FileSyncState = 'synced' | 'pending-upload' | 'pending-download' | 'conflict' | 'error' | 'locked' | 'local-only' | 'remote-only';

export interface FileEntry {
  name: string;
  path: string;
  isFolder: boolean;
  size: number | null;
  state: FileSyncState;
  assetId: string | null;
  versionNumber: number | null;
  modifiedAt: string | null;
  /** State 'locked': who holds the lock, by name (or "user <id>" when the name cannot be had). */
  lockedBy: string | null;
  /** The user holds the lock on it: others have it read-only. */
  lockedByYou?: boolean;
}

export interface VersionInfo {
  id: string;
  number: number;
  /** Who made it, by name ("user <id>" when the service names nobody). */
  author: string;
  /** Made by the signed-in user: its note is theirs to write. */
  mine: boolean;
  createdAt: string | null;
  size: number;
  checksum: string;
  parentId: string | null;
  current: boolean;
  deleted: boolean;
  description: string | null;
}

/** One version as the activity feed tells it: "Dana Reyes uploaded version 7 of hero.psd: brighter sky". */
export interface VersionSummary {
  versionId: string;
  number: number;
  author: string;
  mine: boolean;
  note: string | null;
}

export interface ReviewItem extends ReviewNotification {
  read: boolean;
  /** Where the asset is synced on this computer; null when it is not. */
  path: string | null;
}

/** A decision of the user's on a version, as the Reviews screen keeps it. */
export interface DecidedReview {
  reviewId: string;
  workspaceId: string;
  assetId: string;
  versionId: string | null;
  versionNumber: number | null;
  assetName: string;
  folder: string | null;
  /** Who asked for it, when it answered a request. */
  requestedBy: string | null;
  status: 'approved' | 'rejected';
  content: string;
  decidedAt: string;
}

export interface CommentView {
  id: string;
  authorId: string;
  author: string;
  content: string;
  createdAt: string | null;
  mentions: Array<{ userId: string; name: string }>;
  attachments: Array<{ id: string | null; name: string }>;
  /** Written by the user. */
  yours: boolean;
}

export interface MemberView {
  userId: string;
  name: string;
  roles: string[];
  you: boolean;
}

/** A conflict that waits for the user: both sides, to look at before choosing. */
export interface ConflictView {
  workspaceId: string;
  /** The file both sides changed: the service's version has its name. */
  path: string;
  /** The user's edit, kept beside it. */
  copyPath: string;
  /** When the copy was made. */
  at: string;
  assetId: string | null;
  /** The copy's own asset, once it is uploaded. */
  copyAssetId: string | null;
  /** The service's version at `path` (null when it is not known here). */
  theirs: { versionId: string; versionNumber: number | null; author: string; createdAt: string | null; size: number } | null;
  /** The copy on this computer. */
  mine: { size: number | null; modifiedAt: string | null };
}

export interface SettingsView {
  signedIn: boolean;
  baseUrl: string | null;
  accountId: string | null;
  root: string | null;
  deviceName: string;
  pollIntervalSeconds: number;
  bandwidthLimit: number | null;
  /** Large files transferred at once, per direction. */
  maxDownloads: number;
  maxUploads: number;
  launchAtLogin: boolean;
  /** Thumbnails drawn as files sync, not only when shown. */
  prefetchThumbnails: boolean;
  /** The size cap of the picture cache, in MiB. */
  mediaCacheMiB: number;
  workspaces: Array<{ id: string; name: string; excluded: string[] }>;
}

/** A program or script about to be opened: what the user is asked before it runs. */
export interface OpenConfirmation {
  name: string;
  /** Who made its version, when the service says. */
  uploadedBy: string | null;
  /** The question to put to the user, naming both. */
  question: string;
}

/**
 * What came of opening a file. Not opened with `confirm`: the page must ask the user and, on a
 * yes, send the same request again with `runConfirmed`. Not opened without it: the user said no.
 */
export type OpenOutcome = { opened: true } | { opened: false; confirm?: OpenConfirmation };

export interface RemoteWorkspace {
  id: string;
  name: string;
  synced: boolean;
}

export interface Responses {
  getStatus: EngineStatus;
  getActivity: ActivityItem[];
  listFiles: FileEntry[];
  listFilesFirst: { entries: FileEntry[]; total: number };
  openFile: OpenOutcome;
  showInFolder: { ok: true };
  listVersions: VersionInfo[];
  openVersion: OpenOutcome;
  saveVersionCopy: { savedTo: string | null };
  restoreVersion: { versionId: string };
  setVersionNote: VersionInfo;
  /** One per item, in order; null where the service could not say. */
  describeVersions: Array<VersionSummary | null>;
  listReviews: { reviewRequests: ReviewItem[]; changeRequests: ReviewItem[] };
  decideReview: { reviewId: string; decision: DecidedReview };
  changeDecision: DecidedReview;
  undoDecision: { ok: true };
  listDecided: DecidedReview[];
  listComments: CommentView[];
  addComment: CommentView;
  listMembers: MemberView[];
  listConflicts: ConflictView[];
  resolveConflict: { keep: 'mine' | 'theirs' | 'both'; path: string; copyPath: string; versionNumber: number | null };
  setLock: { locked: boolean; lockedBy: string | null; byYou: boolean };
  markReviewsRead: { ok: true };
  /** Where the asset is synced (null: not here), and what came of opening it there. */
  openAsset: { path: string | null } & OpenOutcome;
  pause: EngineStatus;
  resume: EngineStatus;
  retry: EngineStatus;
  allowDeletions: EngineStatus;
  getSettings: SettingsView;
  updateSettings: SettingsView;
  listRemoteWorkspaces: RemoteWorkspace[];
  listRemoteFolders: Array<{ id: string; path: string }>;
  signIn: SettingsView;
  signOut: SettingsView;
  mediaThumbnails: ThumbnailRef[];
  mediaPreview: MediaPreview;
}

export { EVENT_NAMES, type EventName, type UiEvents } from './ui-events.js';
export type { MediaCategory, MediaPreview, MediaType, NoPictureReason, ThumbnailRef, ThumbnailSize } from './media.js';

/** An error crossing the bridge: a message for the user, never a stack or a secret. */
export interface BridgeError {
  code: string;
  message: string;
}

/** What the renderer gets, over either transport. */
export interface AssetSyncBridge {
  invoke<C extends Channel>(channel: C, request: RequestOf<C>): Promise<Responses[C]>;
  on<E extends EventName>(event: E, listener: (...args: UiEvents[E]) => void): () => void;
}
