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

/**
 * The first half of every temp name this process makes: the leftover sweep (recovery.ts) runs
 * while this process may already write temp files of its own, and tells them apart by it.
 */
const PROCESS_TOKEN = randomBytes(4).toString('hex');

/** A hidden temp file name for a download or an atomic write, made next to its target. */
export function tempFileName(token: string = PROCESS_TOKEN + randomBytes(4).toString('hex')): string {
  return `${TEMP_FILE_PREFIX}${token}${TEMP_FILE_SUFFIX}`;
}

/** Whether a name is one of our hidden temp files (nothing else is ever deleted as one). */
export function isTempName(name: string): boolean {
  return name.startsWith(TEMP_FILE_PREFIX) && name.endsWith(TEMP_FILE_SUFFIX) && name.length > TEMP_FILE_PREFIX.length + TEMP_FILE_SUFFIX.length;
}

/** Whether this process made the temp file named so (`tempFileName`): it is no leftover. */
export function isOwnTempName(name: string): boolean {
  return name.startsWith(TEMP_FILE_PREFIX + PROCESS_TOKEN);
}
