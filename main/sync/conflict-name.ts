/**
 * Names of conflicted copies: "report (conflicted copy Studio-Mac 2024-03-05 140709).pdf".
 * Users want to see which device and when (maestral#861); the name is a pure function of its
 * inputs so that a re-planned conflict gets the same name instead of piling up copies.
 */
import { MAX_NAME_BYTES, pathKey, sanitizeName } from '../local/paths.js';
import { joinPath, nameOf, parentOf } from './rel-path.js';

const encoder = new TextEncoder();

/**
 * The path of the conflicted copy of `relPath`, in the same folder, unique under `pathKey`
 * among the paths `isTaken` reports (" 2", " 3", ... are added inside the parentheses).
 * The time is written in UTC, so the name does not depend on the machine's time zone.
 */
export function conflictCopyPath(
  relPath: string,
  deviceName: string,
  now: Date,
  isTaken: (candidateKey: string) => boolean,
): string {
  const { stem, ext } = splitLastExtension(nameOf(relPath));
  const label = `conflicted copy ${deviceLabel(deviceName)} ${utcStamp(now)}`;
  for (let n = 1; ; n++) {
    const tail = `${n === 1 ? ` (${label})` : ` (${label} ${n})`}${ext}`;
    const candidate = joinPath(parentOf(relPath), fitStem(stem, tail) + tail);
    if (!isTaken(pathKey(candidate))) return candidate;
  }
}

/** "a.tar.gz" -> "a.tar" + ".gz"; "README", ".bashrc" and "a." have no extension. */
function splitLastExtension(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return { stem: name, ext: '' };
  return { stem: name.slice(0, dot), ext: name.slice(dot) };
}

/** A device name can hold anything ("Bob's PC/2"): make it a safe part of a file name. */
function deviceLabel(deviceName: string): string {
  const trimmed = deviceName.trim();
  return trimmed === '' ? 'unknown device' : sanitizeName(trimmed);
}

/** "2024-03-05 140709". */
function utcStamp(now: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  const date = `${now.getUTCFullYear()}-${two(now.getUTCMonth() + 1)}-${two(now.getUTCDate())}`;
  return `${date} ${two(now.getUTCHours())}${two(now.getUTCMinutes())}${two(now.getUTCSeconds())}`;
}

/** Shortens `stem` (whole code points) so that `stem + tail` fits in one file name. */
function fitStem(stem: string, tail: string): string {
  const room = MAX_NAME_BYTES - encoder.encode(tail).length;
  const points = Array.from(stem);
  while (points.length > 1 && encoder.encode(points.join('')).length > room) points.pop();
  return points.join('');
}
