/**
 * Names of the files Asset Sync itself keeps inside a workspace folder. They are never synced
 * (ignore.ts makes sure of it, whatever the user's rules say).
 */
import { randomBytes } from 'node:crypto';

/** The sync root marker (marker.ts). */
export const MARKER_FILE_NAME = '.assetsync';
/** The user's gitignore-style rules for this workspace folder (ignore.ts). */
export const IGNORE_FILE_NAME = '.assetsyncignore';
export const TEMP_FILE_PREFIX = '.assetsync-';
/** Where deleted files go when the system trash cannot take them (never unlinked). */
export const WORKSPACE_TRASH_DIR = '.assetsync-trash';
export const TEMP_FILE_SUFFIX = '.part';

/** A hidden temp file name for a download or an atomic write, made next to its target. */
export function tempFileName(token: string = randomBytes(8).toString('hex')): string {
  return `${TEMP_FILE_PREFIX}${token}${TEMP_FILE_SUFFIX}`;
}
