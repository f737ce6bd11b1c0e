/**
 * What a name may hold [ours]: the file name and display name of an asset, a folder's name, a
 * version's name and an attachment's name. Each is one path segment wherever a client writes it
 * (a sync root, an extracted zip), so nothing in it may act as a path or hide what it is.
 * Everything else is kept as given: names a Windows client cannot hold (`a:b`, `CON`, a trailing
 * dot) are the client's to make safe, as on a real service.
 */
import { z } from 'zod';

export const NAME_MAX_LENGTH = 255;

/**
 * The characters no name may hold, as a regular-expression class: separators (`/`, `\`), C0
 * controls (NUL included), DEL, C1 controls, and the direction overrides that make `gpj.exe`
 * read as `exe.jpg`.
 */
export const FORBIDDEN_IN_NAMES = String.raw`/\\\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069`;
/** Lone surrogates too: no UTF-8 can store them (SQLite would keep U+FFFD, another name than the one answered). */
const FORBIDDEN = new RegExp(`[${FORBIDDEN_IN_NAMES}]|\\p{Cs}`, 'u');

function describe(char: string): string {
  if (char === '/') return '"/"';
  if (char === '\\') return 'a backslash';
  const code = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  if (/\p{Cs}/u.test(char)) return `a lone surrogate (${code})`;
  if (/[\u202a-\u202e\u2066-\u2069]/u.test(char)) return `a direction override (${code})`;
  return `a control character (${code})`;
}

/** Why `name` cannot be a name, or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > NAME_MAX_LENGTH) return `a name must be 1 to ${NAME_MAX_LENGTH} characters`;
  if (name === '.' || name === '..') return `a name must not be "${name}"`;
  const bad = FORBIDDEN.exec(name);
  return bad ? `a name must not contain ${describe(bad[0])}` : undefined;
}

/**
 * A name field of a request, in NFC (names are compared in NFC). A refused name is a 400 whose
 * message names the field (`parse` in context.ts writes the path of the issue).
 */
export const ItemName = z
  .string()
  .superRefine((name, ctx) => {
    const problem = nameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((name) => name.normalize('NFC'));
