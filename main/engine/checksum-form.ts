/**
 * The algorithm of a workspace's checksums on this device. The reference never names it: it is
 * learned from the checksums the service lists (main/service-client/ours.ts) and kept in the
 * index, so a start that follows the changes feed without a listing knows it too. Local files
 * are hashed in it, so local and remote checksums compare; SHA-256 until the service says
 * otherwise. A service whose checksums are in no form an algorithm is known by gets SHA-256 here
 * and downloads checked by size, and the user is told.
 */
import type { Problem } from '../../shared/engine.js';
import type { SyncIndex } from '../index/sync-index.js';
import { DEFAULT_ALGORITHM, algorithmName, type ChecksumForm, type HashAlgorithm } from '../local/checksum.js';

export const checksumFormSetting = (workspaceId: string): string => `checksumForm:${workspaceId}`;

/** What the index keeps: the form, or 'unknown' (checksums in a form no algorithm is known by). */
type Kept = ChecksumForm | 'unknown';

/** Keeps the form the service's listing showed (null: a form no algorithm is known by). */
export function keepChecksumForm(index: SyncIndex, workspaceId: string, form: ChecksumForm | null): void {
  const kept: Kept = form ?? 'unknown';
  const before = index.settings.get<Kept>(checksumFormSetting(workspaceId));
  if (JSON.stringify(before) !== JSON.stringify(kept)) index.settings.set(checksumFormSetting(workspaceId), kept);
}

/** The form kept for the workspace: undefined before any listing showed one, null when it is unknown. */
export function keptChecksumForm(index: SyncIndex, workspaceId: string): ChecksumForm | null | undefined {
  const kept = index.settings.get<Kept>(checksumFormSetting(workspaceId));
  return kept === 'unknown' ? null : kept;
}

/** The algorithm local files are hashed in for the workspace. */
export const hashingAlgorithm = (form: ChecksumForm | null | undefined): HashAlgorithm => form?.algorithm ?? DEFAULT_ALGORITHM;

/** Told while the service's checksums cannot be read: what this device checks instead. */
export const unknownChecksums = (workspaceId: string): Problem => ({
  workspaceId,
  path: null,
  kind: 'degraded',
  message: `The service's checksums are in a form Asset Sync does not know: downloads are checked by their size only, and local files are compared with ${algorithmName(DEFAULT_ALGORITHM)}.`,
  hint: 'Nothing to do; if this stays, tell the service team which checksum algorithm the service uses.',
});
