/**
 * Where copies of old versions are written to be opened: a folder of this user's own in the
 * system's temp folder, which every user of the machine shares. A folder there may have been
 * made by someone else, or left open to others, before Asset Sync ever ran: they could then read
 * the copies, or swap them for their own bytes between the download and the opening. So the
 * usual folder, `asset-sync-<uid>`, is used only when it is a real folder (not a link) owned by
 * this user and closed to everyone else; otherwise it is left alone and a fresh private folder is
 * made for this run (mkdtemp, mode 0700). Where there are no user ids (Windows), the temp
 * folder is the user's own already, and a fresh folder per run is made there.
 */
import { lstat, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PrivateTempOptions {
  /** The shared temp folder (default: the system's). */
  parent?: string;
  /** Whose folder it must be (default: this process's user; undefined where there are none). */
  uid?: number | undefined;
}

/** This user's folder for temporary copies: made if missing, checked if there, replaced if not safe. */
export async function privateTempRoot(options: PrivateTempOptions = {}): Promise<{ path: string; refused: string | null }> {
  const parent = options.parent ?? tmpdir();
  const uid = 'uid' in options ? options.uid : process.getuid?.();
  if (uid === undefined) return { path: await mkdtemp(join(parent, 'asset-sync-')), refused: null };
  const usual = join(parent, `asset-sync-${uid}`);
  await mkdir(usual, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const info = await lstat(usual);
  if (info.isDirectory() && info.uid === uid && (info.mode & 0o077) === 0) return { path: usual, refused: null };
  return { path: await mkdtemp(join(parent, `asset-sync-${uid}-`)), refused: usual };
}
