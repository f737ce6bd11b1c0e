/**
 * Which local paths never sync: OS and editor litter, our own files, and the rules of the
 * workspace folder's `.assetsyncignore` (gitignore syntax, via the `ignore` package).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { IGNORE_FILE_NAME, MARKER_FILE_NAME, TEMP_FILE_PREFIX, TEMP_FILE_SUFFIX, WORKSPACE_TRASH_DIR } from './own-files.js';

/** Files the user can unignore with a "!" rule if they really want them synced. */
export const DEFAULT_IGNORE_RULES: readonly string[] = [
  // macOS: Finder metadata, AppleDouble files on non-Apple volumes, volume-level folders.
  '.DS_Store',
  '._*',
  '.Spotlight-V100/',
  '.Trashes/',
  '.fseventsd/',
  '.TemporaryItems/',
  // Windows: thumbnail caches, folder settings, volume-level folders.
  'Thumbs.db',
  'ehthumbs.db',
  'desktop.ini',
  '$RECYCLE.BIN/',
  'System Volume Information/',
  // Office owner files, LibreOffice lock files, editors' temp and swap files.
  '~$*',
  '.~lock.*#',
  '*.tmp',
  '*.swp',
];

/** Our own files: always ignored, a user rule cannot bring them back. */
const OWN_FILE_RULES: readonly string[] = [MARKER_FILE_NAME, IGNORE_FILE_NAME, `${TEMP_FILE_PREFIX}*${TEMP_FILE_SUFFIX}`, `/${WORKSPACE_TRASH_DIR}/`];

export interface IgnoreMatcher {
  /** `relPath`: relative to the workspace folder, POSIX separators. */
  ignores(relPath: string, isDir: boolean): boolean;
}

/** Rules are matched case-insensitively and on NFC, like every other name comparison here. */
export function createIgnoreMatcher(rulesText?: string): IgnoreMatcher {
  const own: Ignore = ignore({ ignorecase: true }).add([...OWN_FILE_RULES]);
  const rules: Ignore = ignore({ ignorecase: true }).add([...DEFAULT_IGNORE_RULES]);
  if (rulesText !== undefined) rules.add(rulesText.normalize('NFC'));
  return {
    ignores(relPath: string, isDir: boolean): boolean {
      const normalized = relPath.normalize('NFC').replace(/^\/+|\/+$/gu, '');
      if (normalized === '' || normalized === '.') return false;
      const candidate = isDir ? `${normalized}/` : normalized;
      return own.ignores(candidate) || rules.ignores(candidate);
    },
  };
}

/** The matcher for a workspace folder: defaults plus its `.assetsyncignore`, if any. */
export async function loadIgnoreMatcher(workspaceDir: string): Promise<IgnoreMatcher> {
  const rulesText = await readFile(path.join(workspaceDir, IGNORE_FILE_NAME), 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  return createIgnoreMatcher(rulesText);
}
