/**
 * How deep a JSON body may nest [ours]. A body of 1 MiB can nest half a million levels, and the
 * schema checks and serializers that walk a value recurse once per level: deep enough, the
 * stack overflows and the request fails with a 500. No field of the API nests anywhere near
 * this deep, so a deeper body is refused as the client's mistake, before it is parsed.
 */
import { badRequest } from './errors.js';

export const MAX_JSON_DEPTH = 64;

/** True when JSON text nests arrays and objects deeper than MAX_JSON_DEPTH; one pass, no recursion, strings skipped. */
function tooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > MAX_JSON_DEPTH) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

/** Throws a 400 for JSON text nested deeper than MAX_JSON_DEPTH. */
export function checkJsonDepth(text: string, what = 'The JSON body'): void {
  if (tooDeep(text)) throw badRequest(`${what} is nested deeper than ${MAX_JSON_DEPTH} levels.`);
}
