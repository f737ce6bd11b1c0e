/**
 * `asset-sync restore <file> --version N`: makes an old version current again by committing its
 * bytes as a new version on top of the current one. History is never rewritten or deleted; the
 * local file is then brought up to date by a sync of its workspace.
 */
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Session } from '../bootstrap.js';
import { hashingFor } from '../local/checksum.js';
import { hashFile } from '../local/hash.js';
import { commitFileAsVersion } from '../sync/commit-version.js';
import { tempFileName } from '../local/own-files.js';
import { EXIT_OK, EXIT_PROBLEMS, RefusedError } from './outcomes.js';
import { openFileSession } from './file-session.js';
import { locateSyncedFile, type SyncedFile } from './local-file.js';
import { parsePositiveInt, readConfig, type GlobalOptions } from './options.js';
import { print, printProblems } from './output.js';
import { syncOnceShown } from './progress.js';
import { downloadVersion, pickVersion } from './version-file.js';
import type { FileOptions } from './versions.js';

export interface RestoreOptions extends FileOptions {
  version: string;
  note?: string;
}

export async function restore(fileArg: string, options: RestoreOptions, globals: GlobalOptions): Promise<number> {
  const number = parsePositiveInt('--version', options.version);
  const file = await locateSyncedFile(fileArg, options.root, readConfig());
  const session = await openFileSession(file, options, globals);
  try {
    const restored = await commitOldVersion(session, file, number, options.note);
    if (!restored) return EXIT_OK;
    print(`Version ${number} of ${file.relPath} is current again, as version ${restored.number} (sha256 ${restored.checksum.slice(0, 12)}…).`);
    return await updateLocalFile(session, file, restored.checksum);
  } finally {
    await session.close();
  }
}

/** Uploads version `number`'s bytes as a new version whose parent is the current one. */
async function commitOldVersion(session: Session, file: SyncedFile, number: number, note = ''): Promise<{ number: number; checksum: string } | null> {
  const { client } = session;
  const ws = file.workspace.id;
  const assetId = file.base.assetId;
  const [asset, versions] = await Promise.all([client.getAsset(ws, assetId), client.listVersions(ws, assetId)]);
  const target = pickVersion(versions, number);
  if (target.id === asset.current_version_id) {
    print(`Version ${number} is already the current version of ${file.relPath}; nothing to do.`);
    return null;
  }
  // A restore on top of unsynced edits would turn them into a conflict copy: let the user choose.
  const local = await hashFile(file.absPath, { algorithm: hashingFor(file.base.checksum) });
  if (local.checksum !== file.base.checksum) {
    throw new RefusedError(`${file.relPath} has changes that are not synced yet. Run \`asset-sync sync --once\` first (they become a version of their own), then restore.`);
  }

  // The bytes pass through a hidden temp file beside the file, inside the sync folder.
  const temp = join(dirname(file.absPath), tempFileName());
  try {
    await downloadVersion(client, ws, assetId, target, temp);
    const created = await commitFileAsVersion(client, ws, assetId, {
      absPath: temp,
      fileName: asset.file_name ?? basename(file.relPath),
      checksum: target.checksum,
      size: target.size,
      contentType: target.content_type ?? undefined,
      parentVersionId: asset.current_version_id,
      description: note.trim() || `Restored from version ${number}`,
    });
    return { number: created.version_number, checksum: created.checksum };
  } finally {
    await rm(temp, { force: true });
  }
}

/**
 * Syncs the workspace so the new version reaches the disk, then checks the file holds it. The
 * sync carries out whatever else was waiting too, so each transfer is shown as `sync` shows it.
 */
async function updateLocalFile(session: Session, file: SyncedFile, checksum: string): Promise<number> {
  print(`Syncing ${file.workspace.name} to bring it down (anything else waiting is synced too)…`);
  const report = await syncOnceShown(session.engine);
  const now = await hashFile(file.absPath, { algorithm: hashingFor(checksum) }).catch(() => null);
  if (now?.checksum === checksum) {
    print(`Updated ${file.absPath}.`);
    return EXIT_OK;
  }
  print(`The local file was not updated yet; \`asset-sync sync --once\` will bring it.`);
  printProblems(report);
  return EXIT_PROBLEMS;
}
