import type { CommentView, ConflictView, DecidedReview, FileEntry, MediaPreview, MemberView, ReviewItem, SettingsView, ThumbnailRef, VersionInfo } from '../../shared/ipc.js';
import type { EngineStatus, TransferProgress, WorkspaceStatus } from '../../shared/engine.js';

export const WS = 'ws-spring';

export function workspace(overrides: Partial<WorkspaceStatus> = {}): WorkspaceStatus {
  return {
    workspaceId: WS,
    name: 'Spring Campaign',
    folder: '/home/dana/Assets/Spring Campaign',
    state: 'up-to-date',
    pending: { downloads: 0, uploads: 0, deletes: 0, moves: 0, conflicts: 0 },
    files: 24,
    lastSyncAt: '2025-03-14T10:00:00.000Z',
    problems: [],
    ...overrides,
  };
}

export function status(overrides: Partial<EngineStatus> = {}): EngineStatus {
  return { state: 'up-to-date', workspaces: [workspace()], transfers: [], paused: false, ...overrides };
}

export function transfer(overrides: Partial<TransferProgress> = {}): TransferProgress {
  return {
    id: 't1',
    workspaceId: WS,
    path: 'Campaigns/Spring/Social/hero.psd',
    direction: 'download',
    bytesDone: 512 * 1024,
    bytesTotal: 2 * 1024 * 1024,
    speed: 256 * 1024,
    etaSeconds: 6,
    state: 'active',
    ...overrides,
  };
}

export function file(overrides: Partial<FileEntry> = {}): FileEntry {
  return {
    name: 'hero.psd',
    path: 'Campaigns/Spring/Social/hero.psd',
    isFolder: false,
    size: 48_000,
    state: 'synced',
    assetId: 'asset-hero',
    versionNumber: 3,
    modifiedAt: '2025-03-14T09:00:00.000Z',
    lockedBy: null,
    ...overrides,
  };
}

export function folder(name: string, path = name): FileEntry {
  return { name, path, isFolder: true, size: null, state: 'synced', assetId: null, versionNumber: null, modifiedAt: null, lockedBy: null };
}

export function version(number: number, overrides: Partial<VersionInfo> = {}): VersionInfo {
  return {
    id: `v${number}`,
    number,
    author: number % 2 === 1 ? 'Dana Designer' : 'Rafael Reviewer',
    // Dana is the signed-in user.
    mine: number % 2 === 1,
    createdAt: `2025-03-1${number}T12:00:00.000Z`,
    size: 40_000 + number * 512,
    checksum: `${String(number).repeat(12)}abcdef${'0'.repeat(46)}`,
    parentId: number > 1 ? `v${number - 1}` : null,
    current: false,
    deleted: false,
    description: number > 1 ? `Revision ${number}` : null,
    ...overrides,
  };
}

export function review(overrides: Partial<ReviewItem> = {}): ReviewItem {
  return {
    kind: 'review_request',
    remoteKey: 'rr-1',
    workspaceId: WS,
    assetId: 'asset-hero',
    versionId: 'v3',
    versionNumber: 3,
    folder: 'Campaigns/Spring/Social',
    assetName: 'hero.psd',
    from: 'Rafael Reviewer',
    message: 'Could you review this before Friday?',
    at: '2025-03-14T08:00:00.000Z',
    read: true,
    path: 'Campaigns/Spring/Social/hero.psd',
    ...overrides,
  };
}

export function decided(overrides: Partial<DecidedReview> = {}): DecidedReview {
  return {
    reviewId: 'review-1',
    workspaceId: WS,
    assetId: 'asset-hero',
    versionId: 'v3',
    versionNumber: 3,
    assetName: 'hero.psd',
    folder: 'Campaigns/Spring/Social',
    requestedBy: 'Rafael Reviewer',
    status: 'rejected',
    content: 'The sky is too dark.',
    decidedAt: '2025-03-14T11:00:00.000Z',
    ...overrides,
  };
}

export function comment(overrides: Partial<CommentView> = {}): CommentView {
  return {
    id: 'c1',
    authorId: 'u-rafael',
    author: 'Rafael Reviewer',
    content: 'The horizon is tilted.',
    createdAt: '2025-03-14T09:30:00.000Z',
    mentions: [{ userId: 'u-dana', name: 'Dana Designer' }],
    attachments: [{ id: 'at1', name: 'horizon-markup.png' }],
    yours: false,
    ...overrides,
  };
}

export const MEMBERS: MemberView[] = [
  { userId: 'u-dana', name: 'Dana Designer', roles: ['owner'], you: true },
  { userId: 'u-rafael', name: 'Rafael Reviewer', roles: ['editor'], you: false },
  { userId: 'u-mina', name: 'Mina Motion', roles: ['commenter'], you: false },
];

export function conflict(overrides: Partial<ConflictView> = {}): ConflictView {
  return {
    workspaceId: WS,
    path: 'Brand/palette.png',
    copyPath: 'Brand/palette (conflicted copy dana-laptop 2025-03-14 101500).png',
    at: '2025-03-14T10:15:00.000Z',
    assetId: 'asset-palette',
    copyAssetId: 'asset-palette-copy',
    theirs: { versionId: 'pv4', versionNumber: 4, author: 'Rafael Reviewer', createdAt: '2025-03-14T10:10:00.000Z', size: 52_000 },
    mine: { size: 51_200, modifiedAt: '2025-03-14T10:12:00.000Z' },
    ...overrides,
  };
}

export function settings(overrides: Partial<SettingsView> = {}): SettingsView {
  return {
    signedIn: true,
    baseUrl: 'http://127.0.0.1:4010',
    accountId: 'acct-1',
    root: '/home/dana/Assets',
    deviceName: 'dana-laptop',
    pollIntervalSeconds: 30,
    bandwidthLimit: null,
    maxDownloads: 4,
    maxUploads: 4,
    launchAtLogin: false,
    prefetchThumbnails: true,
    mediaCacheMiB: 256,
    workspaces: [{ id: WS, name: 'Spring Campaign', excluded: [] }],
    ...overrides,
  };
}

/** A thumbnail as main answers it: a picture for images, an icon for the rest. */
export function thumbnailRef(overrides: Partial<ThumbnailRef> = {}): ThumbnailRef {
  return {
    assetId: 'asset-hero',
    versionId: 'v3',
    type: { category: 'image', format: 'png', mime: 'image/png', fromBytes: true },
    show: 'image',
    url: '/media/thumb.webp',
    reason: null,
    expiresAt: null,
    ...overrides,
  };
}

export function preview(overrides: Partial<MediaPreview> = {}): MediaPreview {
  return {
    assetId: 'asset-hero',
    versionId: 'v3',
    versionNumber: 3,
    name: 'hero.png',
    size: 48_000,
    checksum: 'c'.repeat(64),
    type: { category: 'image', format: 'png', mime: 'image/png', fromBytes: true },
    view: 'image',
    url: '/media/hero-v3.png',
    thumbnailUrl: '/media/hero-v3.webp',
    width: 1600,
    height: 1000,
    page: null,
    pages: null,
    durationSeconds: null,
    reason: null,
    expiresAt: null,
    ...overrides,
  };
}
