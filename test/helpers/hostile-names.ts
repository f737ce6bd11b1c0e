/**
 * Names built to escape a folder once written to disk or into a zip: traversal segments joined
 * by either separator, absolute paths, drive letters, UNC prefixes, control characters, names
 * that Windows trims to "..". Drawn from a seeded stream so a failure can be replayed.
 */
import type { Rng } from './rng.js';

const PLAIN = ['evil', 'tmp', 'etc', 'passwd', 'notes.txt', 'x', 'café', '日本語', 'a b', 'Report v2.pdf', '🙂', 'CON', 'a:b', '...'];
const TRAVERSAL = ['..', '.', '...', '.. ', ' ..', '. .', '..\u0000'];
const PREFIXES = ['/', '\\', 'C:', 'C:\\', 'c:/', '\\\\server\\share\\', '\\\\?\\C:\\', '//', 'D:..\\'];
const SEPARATORS = ['/', '\\', '\\\\', '/./', '\\.\\'];

/** One control character: C0 (NUL included), DEL or C1. */
export function controlChar(rng: Rng): string {
  const code = rng.pick([() => rng.int(0, 0x1f), () => 0x7f, () => rng.int(0x80, 0x9f)])();
  return String.fromCharCode(code);
}

/** Anything a hostile writer might store: a path of traversal and plain segments, often with a prefix. */
export function hostilePath(rng: Rng): string {
  const segments = Array.from({ length: rng.int(1, 6) }, () => (rng.chance(0.5) ? rng.pick(TRAVERSAL) : rng.pick(PLAIN)));
  if (rng.chance(0.2)) segments.splice(rng.int(0, segments.length), 0, `x${controlChar(rng)}y`);
  let name = segments[0] ?? '..';
  for (const segment of segments.slice(1)) name += rng.pick(SEPARATORS) + segment;
  if (rng.chance(0.4)) name = rng.pick(PREFIXES) + name;
  return name;
}

/** A name the service must refuse: a plain name with one forbidden thing in it, or a bare "." / "..". */
export function refusedName(rng: Rng): string {
  const poison = rng.pick([
    () => '/',
    () => '\\',
    () => controlChar(rng),
    () => '\u202e',
    () => '\ud800',
    // eslint-disable-next-line no-control-regex
    () => hostilePath(rng).replace(/^[^/\\\u0000-\u001f\u007f-\u009f]*$/, '../x'),
  ])();
  const whole = rng.pick(['.', '..']);
  if (rng.chance(0.1)) return whole;
  const plain = rng.pick(PLAIN);
  const at = rng.int(0, plain.length);
  return plain.slice(0, at) + poison + plain.slice(at);
}

/** A name as JSON, with the characters JSON leaves raw but a terminal hides (DEL, C1, direction overrides) escaped. */
export const shown = (name: string): string =>
  JSON.stringify(name).replace(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
