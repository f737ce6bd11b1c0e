/**
 * Names and paths: making names from the service safe before they touch disk, the case- and
 * normalisation-insensitive key the planner compares on, and the guards that keep every write
 * inside the sync root (docs/protocol.md "Names").
 */
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { IGNORE_FILE_NAME, MARKER_FILE_NAME, TEMP_FILE_PREFIX, TEMP_FILE_SUFFIX, WORKSPACE_TRASH_DIR } from './own-files.js';

/** Longest file name (one segment) in UTF-8 bytes that ext4, APFS and NTFS all accept. */
export const MAX_NAME_BYTES = 255;
/**
 * Longest relative path (UTF-8 bytes) placed on disk: beyond it no OS can create the file
 * anyway (Linux's PATH_MAX is 4096 for the whole path).
 */
export const MAX_PATH_BYTES = 4096;
/** Extensions longer than this are treated as part of the stem when truncating. */
const MAX_EXTENSION_BYTES = 32;

/**
 * Characters no file name may hold: separators, NUL and other C0/C1 controls, what Windows
 * forbids, lone surrogates (unencodable), and the bidi overrides used to disguise an extension
 * ("invoice\u202Efdp.exe" displays as "invoiceexe.pdf").
 */
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARS = /[\u0000-\u001F\u007F-\u009F/\\<>:"|?*\u202A-\u202E\u2066-\u2069]|\p{Cs}/gu;
/** Windows device names, reserved with any extension ("con.txt") and trailing spaces ("NUL .x"). */
const RESERVED_STEM = /^(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³]|CONIN\$|CONOUT\$)$/i;
const REPLACEMENT = '_';

export const utf8Length = (s: string): number => Buffer.byteLength(s, 'utf8');
// Made at the first long name, not at load: ICU's segmenter costs every command that imports
// this module 10-15 ms to build, and most never cut a name.
let graphemes: Intl.Segmenter | undefined;

/** Splits "name.ext" into stem and ".ext"; dotfiles (".bashrc") and long tails have no extension. */
function splitExtension(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || utf8Length(name.slice(dot)) > MAX_EXTENSION_BYTES) return { stem: name, ext: '' };
  return { stem: name.slice(0, dot), ext: name.slice(dot) };
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes on a grapheme boundary (never half an emoji). */
function truncateBytes(text: string, maxBytes: number): string {
  if (utf8Length(text) <= maxBytes) return text;
  let out = '';
  let used = 0;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(text)) {
    const size = utf8Length(segment);
    if (used + size > maxBytes) break;
    out += segment;
    used += size;
  }
  return out;
}

/** Fits `stem + ext` into MAX_NAME_BYTES by shortening the stem, so the extension survives. */
function fitName(stem: string, ext: string): string {
  const room = MAX_NAME_BYTES - utf8Length(ext);
  return truncateBytes(stem, Math.max(room, 0)) + ext;
}

/**
 * Makes one path segment safe to create on Windows, macOS and Linux. Deterministic and
 * idempotent, so a name maps to the same local name on every device and every run. Different
 * names may map to the same result ("a:b", "a_b"): `assignLocalNames` resolves those clashes.
 */
export function sanitizeName(name: string): string {
  let out = fixEdges(name.normalize('NFC').replace(FORBIDDEN_CHARS, REPLACEMENT));
  const dot = out.indexOf('.');
  const deviceStem = dot === -1 ? out : out.slice(0, dot);
  if (RESERVED_STEM.test(deviceStem.trimEnd())) {
    out = `${deviceStem}${REPLACEMENT}${dot === -1 ? '' : out.slice(dot)}`;
  }
  // Our own files' names are reserved here as device names are on Windows: an item so named on
  // the service would be ignored once on disk, so read as deleted (and deleted on the service).
  if (isOwnFileName(out)) out = `${REPLACEMENT}${out}`;
  const { stem, ext } = splitExtension(out);
  // Truncation can leave a trailing dot or space behind, hence the second pass over the edges.
  out = fixEdges(fitName(stem, ext));
  return out === '' ? REPLACEMENT : out;
}

/**
 * Why a name found on disk cannot be synced as it is, or null when it can. A name the service's
 * other clients would have to change (sanitizeName) is not uploaded: uploading it and then
 * renaming the user's file to the safe name under their feet surprises them (an open editor
 * loses its file), so they are told and choose the new name themselves, as OneDrive and
 * Nextcloud do. A name that differs from its safe form only by Unicode normalisation (NFD, as
 * macOS writes it) syncs: every OS opens it by either spelling.
 */
export function whyNotPortable(name: string): string | null {
  if (isPlainName(name)) return null;
  if (name.includes('\\')) return 'its name contains "\\", which Windows and the service read as a folder separator';
  const safe = sanitizeName(name);
  if (safe === name || safe === name.normalize('NFC')) return null;
  const forbidden = name.match(FORBIDDEN_CHARS)?.[0];
  if (forbidden !== undefined) {
    if (/[\p{Cc}\p{Cs}\u202A-\u202E\u2066-\u2069]/u.test(forbidden)) {
      return `its name contains the invisible character U+${(forbidden.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    }
    return `its name contains "${forbidden}", which Windows does not allow in a name`;
  }
  if (utf8Length(name) > MAX_NAME_BYTES) return `its name is longer than ${MAX_NAME_BYTES} bytes, the most other computers' disks accept`;
  const dot = name.indexOf('.');
  const stem = (dot === -1 ? name : name.slice(0, dot)).trimEnd();
  if (RESERVED_STEM.test(stem)) return `"${stem}" is a device name that Windows reserves`;
  if (isOwnFileName(name)) return 'Asset Sync keeps that name for its own files';
  if (/[. ]$/u.test(name)) return 'its name ends with a dot or a space, which Windows drops';
  if (name.startsWith(' ')) return 'its name begins with a space, which many programs drop';
  return 'its name cannot be kept as it is on Windows and macOS';
}

/**
 * Printable ASCII but what Windows forbids, neither beginning with a space nor ending with a dot
 * or a space: most names on disk. Each character is 1 byte.
 */
const PLAIN_NAME = /^(?:[\w!#$%&'()+,.;=@[\]^`{}~-][\w !#$%&'()+,.;=@[\]^`{}~-]*)?[\w!#$%&'()+,;=@[\]^`{}~-]$/u;

/**
 * A name `sanitizeName` leaves as it is, told without running it: a scan asks for every name on
 * disk, and a first scan of 100,000 files spent a third of its planning in `sanitizeName`. Such
 * a name has nothing to replace or trim, is NFC and fits MAX_NAME_BYTES; only a device stem or
 * our own files' names would change it.
 */
function isPlainName(name: string): boolean {
  if (name.length > MAX_NAME_BYTES || !PLAIN_NAME.test(name)) return false;
  const dot = name.indexOf('.');
  return !RESERVED_STEM.test((dot === -1 ? name : name.slice(0, dot)).trimEnd()) && !isOwnFileName(name);
}

/** Why a name that is not valid UTF-8 is not synced (`undecodableName`). */
export const UNDECODABLE_REASON = 'its name is not valid UTF-8, the encoding the service and other computers read names in';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A name found on disk whose bytes are not valid UTF-8 (Linux names are bytes: a Latin-1 disk,
 * an archive from elsewhere). It cannot be sent, nor opened by the name a JavaScript string
 * would give it, so it is listed as not synced: `shown` spells it with each byte that is no
 * character as `\xHH`, and `suggested` is a name it could take, those bytes read as Latin-1
 * (what most such names were written in) and made safe.
 */
export function undecodableName(bytes: Uint8Array): { shown: string; suggested: string } {
  let shown = '';
  let latin = '';
  for (let at = 0; at < bytes.length; ) {
    const length = utf8SequenceLength(bytes[at] as number);
    // A sequence cut short by the end of the name is refused by the strict decode like any other.
    const text = decodeStrictly(bytes.subarray(at, at + length));
    if (text !== undefined) {
      shown += text;
      latin += text;
      at += length;
    } else {
      const byte = bytes[at] as number;
      // Never below 0x80: every ASCII byte decodes, so two hex digits.
      shown += `\\x${byte.toString(16).toUpperCase()}`;
      latin += String.fromCharCode(byte);
      at += 1;
    }
  }
  return { shown, suggested: sanitizeName(latin) };
}

/**
 * The length of the UTF-8 sequence a byte would begin: its count of leading 1 bits, 1 for ASCII.
 * For a byte that begins none (a continuation byte, 0xF8 and above) the strict decode refuses
 * whatever length this gives.
 */
function utf8SequenceLength(lead: number): number {
  return Math.max(Math.clz32(~lead << 24), 1);
}

/** One UTF-8 sequence as text, undefined if it is not valid (overlong, a surrogate, cut short). */
function decodeStrictly(sequence: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(sequence);
  } catch {
    // Not UTF-8: told by the undefined below.
  }
  return undefined;
}

/** A name Asset Sync keeps for itself inside a workspace folder (own-files.ts), in any letter case. */
function isOwnFileName(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    lower === MARKER_FILE_NAME ||
    lower === IGNORE_FILE_NAME ||
    lower === WORKSPACE_TRASH_DIR ||
    (lower.startsWith(TEMP_FILE_PREFIX) && lower.endsWith(TEMP_FILE_SUFFIX))
  );
}

/**
 * Windows strips trailing dots and spaces (so "a." would silently become "a"); leading spaces are
 * kept by Windows but dropped by many tools. Each such character is replaced one for one, so
 * "." -> "_" and ".." -> "__" fall out of the same rule.
 */
function fixEdges(name: string): string {
  // Scanned by hand: /[. ]+$/ is quadratic on a long run of dots and spaces that does not end
  // the name, and a service may send a name of megabytes.
  let end = name.length;
  while (end > 0 && (name[end - 1] === '.' || name[end - 1] === ' ')) end -= 1;
  let start = 0;
  while (start < end && name[start] === ' ') start += 1;
  return REPLACEMENT.repeat(start) + name.slice(start, end) + REPLACEMENT.repeat(name.length - end);
}

/** The key two paths are compared on: NFC, case-folded. Same key = same file on every OS. */
export function pathKey(relPath: string): string {
  return relPath.normalize('NFC').toLowerCase();
}

/** "name.ext" with " (n)" before the extension, still within MAX_NAME_BYTES. */
export function numberedName(name: string, n: number): string {
  const { stem, ext } = splitExtension(name);
  return fitName(stem, ` (${n})${ext}`);
}

export interface NamedItem {
  /** Stable id (asset or folder id): decides who keeps a contested name. */
  id: string;
  /** Identifies the parent folder; names only clash within one parent. */
  parentKey: string;
  /** The name as the service has it. */
  name: string;
}

/**
 * Gives every item a safe local name unique within its parent under `pathKey`. Deterministic
 * for a given set of items, whatever their order: in a clash, a name that needed no sanitising
 * wins over one that did, then the smallest id wins; the others become "name (2).ext",
 * "name (3).ext", ... skipping numbers already taken by other items.
 */
export function assignLocalNames(items: readonly NamedItem[]): Map<string, string> {
  const prepared = items.map((item) => {
    const safe = sanitizeName(item.name);
    return { ...item, safe, altered: safe !== item.name };
  });
  prepared.sort((a, b) => compareStrings(a.parentKey, b.parentKey) || Number(a.altered) - Number(b.altered) || compareStrings(a.id, b.id));

  const result = new Map<string, string>();
  const takenByParent = new Map<string, Set<string>>();
  const losers: typeof prepared = [];
  for (const item of prepared) {
    let taken = takenByParent.get(item.parentKey);
    if (!taken) takenByParent.set(item.parentKey, (taken = new Set()));
    const key = pathKey(item.safe);
    if (taken.has(key)) {
      losers.push(item);
    } else {
      taken.add(key);
      result.set(item.id, item.safe);
    }
  }
  // Losers are numbered only after every winner has claimed its name, so "a (2).txt" that exists
  // on the service keeps its name instead of being pushed aside by a renumbered "A.txt".
  for (const item of losers) {
    const taken = takenByParent.get(item.parentKey) ?? new Set<string>();
    let n = 2;
    let candidate = numberedName(item.safe, n);
    while (taken.has(pathKey(candidate))) candidate = numberedName(item.safe, ++n);
    taken.add(pathKey(candidate));
    result.set(item.id, candidate);
  }
  return result;
}

/** Code-unit order: the same on every machine, unlike localeCompare. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Thrown whenever a path would lead outside the sync root. */
export class PathEscapeError extends Error {
  readonly code = 'path_escape';
  constructor(
    message: string,
    readonly relPath: string,
  ) {
    super(message);
    this.name = 'PathEscapeError';
  }
}

/**
 * The absolute path of `relPath` inside `root`; throws PathEscapeError for anything that could
 * leave it: absolute or UNC paths, drive letters, `..` segments, NUL. Both separators count as
 * separators, since a name with "\" becomes a path on Windows.
 */
export function resolveInsideRoot(root: string, relPath: string): string {
  if (relPath.includes('\0')) throw new PathEscapeError('path contains NUL', relPath);
  if (path.posix.isAbsolute(relPath) || path.win32.isAbsolute(relPath) || /^[A-Za-z]:/u.test(relPath)) {
    throw new PathEscapeError('path is absolute', relPath);
  }
  // Empty and "." segments need no filtering: path.resolve skips them.
  const segments = relPath.split(/[\\/]/u);
  if (segments.includes('..')) throw new PathEscapeError('path has a ".." segment', relPath);
  const base = path.resolve(root);
  const abs = path.resolve(base, ...segments);
  if (!isInside(base, abs)) throw new PathEscapeError('path resolves outside the root', relPath);
  return abs;
}

export function isInside(root: string, abs: string): boolean {
  const rel = path.relative(root, abs);
  return !path.isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${path.sep}`);
}

/**
 * Before writing `absPath`: checks that its nearest existing ancestor, with symlinks resolved,
 * is still inside the (resolved) root, and that `absPath` itself is not a symlink (the scanner
 * never reports symlinks, so the engine has no business writing through one). `knownRealRoot`:
 * the root already resolved by the caller, for callers that check many paths in a row.
 *
 * The calls are synchronous on purpose: on a local disk an lstat takes 1–2 µs that way and
 * 20 µs of CPU (70 µs of latency) through the thread pool, and the executor makes several of
 * these checks for every file it writes.
 */
export async function assertNoSymlinkEscape(root: string, absPath: string, knownRealRoot?: string): Promise<void> {
  checkNoSymlinkEscape(root, absPath, knownRealRoot ?? realpathSync.native(root));
}

export function checkNoSymlinkEscape(root: string, absPath: string, realRoot: string): void {
  const target = path.resolve(absPath);
  if (!isInside(path.resolve(root), target)) throw new PathEscapeError('path is outside the root', absPath);
  const own = lstatSync(target, { throwIfNoEntry: false });
  if (own?.isSymbolicLink()) throw new PathEscapeError('path is a symbolic link', absPath);
  let ancestor = path.dirname(target);
  for (;;) {
    const real = realOrMissing(ancestor);
    if (real !== undefined) {
      if (!isInside(realRoot, real)) throw new PathEscapeError('a parent folder links outside the root', absPath);
      return;
    }
    const up = path.dirname(ancestor);
    if (up === ancestor) throw new PathEscapeError('no existing parent folder', absPath);
    ancestor = up;
  }
}

/**
 * The folder resolved, undefined when it is missing. A file where a folder is expected fails
 * before this with ENOTDIR (the lstat of the path itself), and so does the write.
 */
function realOrMissing(abs: string): string | undefined {
  try {
    return realpathSync.native(abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** `absPath` relative to `root` as spelled on disk, POSIX separators; throws if outside. */
export function relativeOnDisk(root: string, absPath: string): string {
  const base = path.resolve(root);
  const abs = path.resolve(absPath);
  if (!isInside(base, abs)) throw new PathEscapeError('path is outside the root', absPath);
  return path.relative(base, abs).split(path.sep).join('/');
}

/** `absPath` relative to `root`, POSIX separators, NFC: the form the model's paths take. */
export function toRelative(root: string, absPath: string): string {
  return relativeOnDisk(root, absPath).normalize('NFC');
}
