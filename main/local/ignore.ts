/**
 * Which local paths never sync: OS and editor litter, our own files, and the rules of the
 * workspace folder's `.assetsyncignore` (gitignore syntax, via the `ignore` package).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { asciiLiteralTest, mayMatch, ruleLiterals } from './rule-literals.js';
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
  /** The same for `name` in the folder `parentRel` ('' for the workspace folder): a scan asks so, one folder at a time. */
  ignoresChild(parentRel: string, name: string, isDir: boolean): boolean;
  /** The user's rules as given (undefined: none): what a record of a cycle must match to stand for this matcher. */
  readonly rulesText: string | undefined;
}

/**
 * Rules are matched case-insensitively and on NFC, like every other name comparison here.
 *
 * A scan asks about every path, and the `ignore` package runs every rule on each (and keeps
 * every answer: tens of MiB for 100,000 files). Most paths hold none of the text the rules need
 * (rule-literals.ts), so the answer is worked out once per folder: whether the folder is ignored,
 * and whether its path already holds such text. A path in a folder that is not ignored, whose
 * folder and name hold none, is kept without running a rule; every other path goes to the package.
 */
export function createIgnoreMatcher(rulesText?: string): IgnoreMatcher {
  const own: Ignore = ignore({ ignorecase: true }).add([...OWN_FILE_RULES]);
  const rules: Ignore = ignore({ ignorecase: true }).add([...DEFAULT_IGNORE_RULES]);
  const userRules = rulesText === undefined ? [] : rulesText.normalize('NFC').split(/\r?\n/u);
  if (rulesText !== undefined) rules.add(rulesText.normalize('NFC'));
  const literals = ruleLiterals([...OWN_FILE_RULES, ...DEFAULT_IGNORE_RULES, ...userRules]);
  // Runs with a slash may span a folder and a name: looked for in the whole path.
  const spanning = literals.filter((l) => l.includes('/'));
  const plain = literals.filter((l) => !l.includes('/'));
  const inPlainAscii = asciiLiteralTest(plain);
  const inFull = (candidate: string): boolean => own.ignores(candidate) || rules.ignores(candidate);
  const folders = new Map<string, FolderVerdict>([['', { ignored: false, path: '', lower: '', mayMatch: false }]]);

  /** Keyed by the folder's path as asked: the children of one folder share its string, whose hash is kept. */
  const folderOf = (dir: string): FolderVerdict => {
    const known = folders.get(dir);
    if (known !== undefined) return known;
    const nfc = nfcOf(dir);
    let verdict: FolderVerdict;
    if (nfc !== dir) {
      verdict = folderOf(nfc);
    } else {
      const slash = dir.lastIndexOf('/');
      const parent = folderOf(slash < 0 ? '' : dir.slice(0, slash));
      const lower = `${parent.lower}${dir.slice(slash + 1).toLowerCase()}/`;
      const may = parent.mayMatch || mayMatch(lower, literals);
      verdict = { ignored: parent.ignored || (may && inFull(`${dir}/`)), path: dir, lower, mayMatch: may };
    }
    folders.set(dir, verdict);
    return verdict;
  };

  const ignoresChild = (parentRel: string, name: string, isDir: boolean): boolean => {
    const folder = folderOf(parentRel);
    if (folder.ignored) return true;
    // Most names: printable ASCII (so NFC), holding no rule's text, in a folder that holds none.
    if (!folder.mayMatch && spanning.length === 0 && ASCII.test(name) && !inPlainAscii.test(name)) return false;
    const nfcName = nfcOf(name);
    const lowerName = nfcName.toLowerCase();
    const may = folder.mayMatch || mayMatch(lowerName, plain) || (spanning.length > 0 && mayMatch(folder.lower + lowerName, spanning));
    if (!may) return false;
    const rel = folder.path === '' ? nfcName : `${folder.path}/${nfcName}`;
    return inFull(isDir ? `${rel}/` : rel);
  };

  return {
    ignores(relPath: string, isDir: boolean): boolean {
      let normalized = nfcOf(relPath);
      if (normalized.startsWith('/') || normalized.endsWith('/')) normalized = normalized.replace(/^\/+|\/+$/gu, '');
      if (normalized === '' || normalized === '.') return false;
      const slash = normalized.lastIndexOf('/');
      return ignoresChild(slash < 0 ? '' : normalized.slice(0, slash), normalized.slice(slash + 1), isDir);
    },
    ignoresChild,
    rulesText,
  };
}

interface FolderVerdict {
  /** The folder, or one above it, is ignored: so is everything below. */
  ignored: boolean;
  /** Its path, NFC. */
  path: string;
  /** Its path, lower case, with a trailing slash. */
  lower: string;
  /** Its path holds text some rule needs: every path below it is matched in full. */
  mayMatch: boolean;
}

/** Only ASCII: already NFC, normalizing would copy it for nothing. */
const ASCII = /^[ -~]*$/u;
const nfcOf = (text: string): string => (ASCII.test(text) ? text : text.normalize('NFC'));

/** The matcher for a workspace folder: defaults plus its `.assetsyncignore`, if any. */
export async function loadIgnoreMatcher(workspaceDir: string): Promise<IgnoreMatcher> {
  return createIgnoreMatcher(await readIgnoreRules(workspaceDir));
}

/** The text of the workspace folder's `.assetsyncignore`; undefined when there is none. */
function readIgnoreRules(workspaceDir: string): Promise<string | undefined> {
  return readFile(path.join(workspaceDir, IGNORE_FILE_NAME), 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
}
