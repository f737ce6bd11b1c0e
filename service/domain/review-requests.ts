import type { Db } from '../db/db.js';
import { now } from '../http/ids.js';

/** Reference part 3: when an asset's current version changes, its review requests follow it and open again. */
export function refreshReviewRequests(db: Db, assetId: string, versionId: string): void {
  db.prepare('UPDATE review_requests SET asset_version_id = ?, review_id = NULL, updated_at = ? WHERE asset_id = ?').run(versionId, now(), assetId);
}
