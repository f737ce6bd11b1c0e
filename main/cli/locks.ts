/**
 * `asset-sync lock <file>` and `asset-sync unlock <file>`: the service's lock on the asset a file
 * syncs with. While you hold it, everyone else's copy is read-only and their edits wait; a lock
 * someone else holds is refused with their name.
 */
import { connect } from '../bootstrap.js';
import { LockHeldError, LockNotAllowedError, setAssetLock } from '../engine/asset-lock.js';
import { EXIT_OK, RefusedError } from './outcomes.js';
import { locateSyncedFile } from './local-file.js';
import { readConfig, type GlobalOptions } from './options.js';
import { print } from './output.js';
import { serviceFor, type FileOptions } from './versions.js';

export async function setLock(fileArg: string, locked: boolean, options: FileOptions, globals: GlobalOptions): Promise<number> {
  const file = await locateSyncedFile(fileArg, options.root, readConfig());
  const connection = await connect({ ...serviceFor(file, options), logToStderr: globals.verbose });
  try {
    await setAssetLock(connection.client, file.workspace.id, file.base.assetId, locked);
  } catch (error) {
    if (error instanceof LockHeldError || error instanceof LockNotAllowedError) throw new RefusedError(error.message);
    throw error;
  } finally {
    await connection.close();
  }
  print(
    locked
      ? `Locked ${file.relPath}: it is read-only for everyone else until you run \`asset-sync unlock\` on it.`
      : `Unlocked ${file.relPath}: others can edit it again.`,
  );
  return EXIT_OK;
}
