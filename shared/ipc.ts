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
  openFile: z.object({ workspaceId: id, path: relPath, runConfirmed }),
  showInFolder: z.object({ workspaceId: id, path: relPath }),
  listVersions: z.object({ workspaceId: id, path: relPath }),
  openVersion: z.object({ workspaceId: id, path: relPath, versionId: id, runConfirmed }),
  saveVersionCopy: z.object({ workspaceId: id, path: relPath, versionId: id }),
  restoreVersion: z.object({ workspaceId: id, path: relPath, versionId: id }),
  listReviews: z.object({}),
  decideReview: z.object({
    workspaceId: id,
    assetId: id,
    versionId: id.nullable(),
    status: z.enum(['approved', 'rejected']),
    content: z.string().max(10_000),
  }),
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
}

export interface VersionInfo {
  id: string;
  number: number;
  author: string;
  createdAt: string | null;
  size: number;
  checksum: string;
  parentId: string | null;
  current: boolean;
  deleted: boolean;
  description: string | null;
}

export interface ReviewItem extends ReviewNotification {
  read: boolean;
}

export interface SettingsView {
  signedIn: boolean;
  baseUrl: string | null;
  accountId: string | null;
  root: string | null;
  deviceName: string;
  pollIntervalSeconds: number;
  bandwidthLimit: number | null;
  launchAtLogin: boolean;
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
  openFile: OpenOutcome;
  showInFolder: { ok: true };
  listVersions: VersionInfo[];
  openVersion: OpenOutcome;
  saveVersionCopy: { savedTo: string | null };
  restoreVersion: { versionId: string };
  listReviews: { reviewRequests: ReviewItem[]; changeRequests: ReviewItem[] };
  decideReview: { reviewId: string };
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
