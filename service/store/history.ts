import type { Db } from '../db/db.js';
import { newId, now } from '../http/ids.js';

export type AssetAction =
  | 'created' | 'version_created' | 'renamed' | 'moved' | 'updated' | 'locked' | 'unlocked'
  | 'deleted' | 'purged' | 'restored' | 'version_deleted' | 'version_restored' | 'version_updated';

export function recordAssetHistory(
  db: Db,
  entry: { assetId: string; workspaceId: string; userId: string; action: AssetAction; sequence?: number; details?: Record<string, unknown> },
): void {
  db.prepare(
    'INSERT INTO asset_history (id, asset_id, workspace_id, user_id, action, details, sequence, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(newId(), entry.assetId, entry.workspaceId, entry.userId, entry.action, entry.details ? JSON.stringify(entry.details) : null, entry.sequence ?? null, now());
}

export type ReviewAction = 'reviewed' | 'review_updated' | 'review_deleted' | 'requested' | 'request_deleted';

export function recordReviewHistory(
  db: Db,
  entry: { assetId: string; userId: string; action: ReviewAction; reviewId?: string | null; status?: string | null; versionId?: string | null },
): void {
  db.prepare(
    'INSERT INTO review_history (id, asset_id, review_id, user_id, status, asset_version_id, action, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(newId(), entry.assetId, entry.reviewId ?? null, entry.userId, entry.status ?? null, entry.versionId ?? null, entry.action, now());
}

export function recordAccountHistory(
  db: Db,
  entry: { accountId: string; userId: string | null; action: string; targetType?: string; targetId?: string; details?: Record<string, unknown> },
): void {
  db.prepare(
    'INSERT INTO account_history (id, account_id, user_id, action, target_type, target_id, details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(newId(), entry.accountId, entry.userId, entry.action, entry.targetType ?? null, entry.targetId ?? null, entry.details ? JSON.stringify(entry.details) : null, now());
}
