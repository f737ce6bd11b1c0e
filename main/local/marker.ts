/**
 * The sync root marker: a small JSON file at the top of each workspace folder. Its absence means
 * the folder is not the one we synced (an unmounted drive, a moved or recreated folder), so the
 * engine must not turn "everything is gone locally" into remote deletions (Syncthing's .stfolder).
 */
import { randomUUID } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { MARKER_FILE_NAME, tempFileName } from './own-files.js';

const MarkerSchema = z.object({
  version: z.literal(1),
  workspaceId: z.string().min(1),
  /** Random per folder: tells this folder from a copy made for another sync setup. */
  folderId: z.string().min(1),
});
export type MarkerInfo = z.infer<typeof MarkerSchema>;

export class MarkerError extends Error {
  readonly code = 'marker_invalid';
  constructor(
    message: string,
    readonly markerPath: string,
  ) {
    super(message);
    this.name = 'MarkerError';
  }
}

export function newMarker(workspaceId: string): MarkerInfo {
  return { version: 1, workspaceId, folderId: randomUUID() };
}

/** Writes the marker atomically (temp file, fsync, rename): a crash leaves the old one or the new one. */
export async function writeMarker(dir: string, info: MarkerInfo): Promise<void> {
  const target = path.join(dir, MARKER_FILE_NAME);
  const temp = path.join(dir, tempFileName());
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(`${JSON.stringify(MarkerSchema.parse(info), null, 2)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** The marker of `dir`, or null when it (or `dir` itself) does not exist; throws MarkerError if unreadable. */
export async function readMarker(dir: string): Promise<MarkerInfo | null> {
  const file = path.join(dir, MARKER_FILE_NAME);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new MarkerError('marker is not JSON', file);
  }
  const parsed = MarkerSchema.safeParse(json);
  if (!parsed.success) throw new MarkerError(`marker has an unexpected shape: ${parsed.error.message}`, file);
  return parsed.data;
}

/**
 * What the engine needs before any remote deletion: 'ok' only when the folder carries the marker
 * it wrote. 'missing', 'invalid' and 'mismatch' (another workspace's or another setup's folder)
 * all mean: do not delete anything remotely.
 */
export type MarkerStatus = 'ok' | 'missing' | 'invalid' | 'mismatch';

export async function checkMarker(dir: string, expected: Pick<MarkerInfo, 'workspaceId' | 'folderId'>): Promise<MarkerStatus> {
  let marker: MarkerInfo | null;
  try {
    marker = await readMarker(dir);
  } catch (err) {
    if (err instanceof MarkerError) return 'invalid';
    throw err;
  }
  if (marker === null) return 'missing';
  return marker.workspaceId === expected.workspaceId && marker.folderId === expected.folderId ? 'ok' : 'mismatch';
}
