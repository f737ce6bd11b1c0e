/**
 * `asset-sync save-version <file> --version N --to <path>`: a copy of one version, checked
 * against its checksum, written where the user says; an existing file is kept unless --force.
 * `asset-sync save-version <file> --note <text>`: the file's changes saved now as a new version
 * with that note (a sync of its workspace uploads them, then the note is written on the version
 * made).
 */
import { constants } from 'node:fs';
import { copyFile, link, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { connect } from '../bootstrap.js';
import { hashFile } from '../local/hash.js';
import { writeVersionNote } from '../version-notes.js';
import { tempFileName } from '../local/own-files.js';
import { EXIT_OK, EXIT_PROBLEMS, RefusedError, UsageError } from './outcomes.js';
import { locateSyncedFile } from './local-file.js';
import { parsePositiveInt, readConfig, type GlobalOptions } from './options.js';
import { formatBytes, print, printProblems } from './output.js';
import { openFileSession } from './file-session.js';
import { syncOnceShown } from './progress.js';
import { downloadVersion, pickVersion } from './version-file.js';
import { serviceFor, type FileOptions } from './versions.js';

export interface SaveOptions extends FileOptions {
  version?: string;
  to?: string;
  force?: boolean;
  note?: string;
}

export function save(fileArg: string, options: SaveOptions, globals: GlobalOptions): Promise<number> {
  if (options.note !== undefined && (options.version !== undefined || options.to !== undefined)) {
    throw new UsageError('--note saves your changes as a new version; --version and --to save a copy of an old one: give one or the other.');
  }
  if (options.note !== undefined) return saveWithNote(fileArg, options.note, options, globals);
  if (options.version === undefined || options.to === undefined) {
    throw new UsageError('save-version needs --version N and --to PATH (a copy of an old version), or --note TEXT (your changes as a new version with that note).');
  }
  return saveVersion(fileArg, { ...options, version: options.version, to: options.to }, globals);
}

/** `--to` naming a folder means "in there, under the file's own name". */
async function destination(to: string, fileName: string): Promise<string> {
  const target = resolve(to);
  const info = await stat(target).catch(() => null);
  return info?.isDirectory() ? join(target, fileName) : target;
}

const exists = (path: string): Promise<boolean> => stat(path).then(() => true, () => false);

async function saveVersion(fileArg: string, options: SaveOptions & { version: string; to: string }, globals: GlobalOptions): Promise<number> {
  const number = parsePositiveInt('--version', options.version);
  const file = await locateSyncedFile(fileArg, options.root, readConfig());
  const target = await destination(options.to, basename(file.absPath));
  await checkFolder(dirname(target));
  // The synced file itself is the engine's to write: replacing it here would lose any edit not
  // uploaded yet, where a restore keeps history and checks first.
  if ((await realOrSelf(target)) === file.absPath) {
    throw new UsageError(`--to names the synced file itself. To make version ${number} the current one, run \`asset-sync restore ${fileArg} --version ${number}\`.`);
  }
  if (!options.force && (await exists(target))) throw new RefusedError(`${target} already exists; nothing was written. Pick another --to, or add --force to replace it.`);

  const connection = await connect({ ...serviceFor(file, options), logToStderr: globals.verbose });
  const temp = join(dirname(target), tempFileName());
  try {
    const version = pickVersion(await connection.client.listVersions(file.workspace.id, file.base.assetId), number);
    await downloadVersion(connection.client, file.workspace.id, file.base.assetId, version, temp);
    if (options.force) await rename(temp, target);
    else await placeWithoutOverwrite(temp, target);
    print(`Saved version ${number} of ${file.relPath} to ${target} (${formatBytes(version.size)}, sha256 ${version.checksum.slice(0, 12)}…, verified).`);
    return EXIT_OK;
  } finally {
    // Best effort: a failure here must not hide the one that brought us here.
    await rm(temp, { force: true }).catch(() => undefined);
    await connection.close();
  }
}

async function checkFolder(folder: string): Promise<void> {
  const info = await stat(folder).catch(() => null);
  if (!info) throw new UsageError(`The folder ${folder} does not exist: create it, or pick another --to.`);
  if (!info.isDirectory()) throw new UsageError(`${folder} is not a folder: pick another --to.`);
}

const realOrSelf = (path: string): Promise<string> => realpath(path).catch(() => path);

/**
 * A hard link (or, where links are not supported, an exclusive copy) fails if the name is taken,
 * so a file created meanwhile is never replaced.
 */
async function placeWithoutOverwrite(temp: string, target: string): Promise<void> {
  try {
    await link(temp, target).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') throw error;
      return copyFile(temp, target, constants.COPYFILE_EXCL);
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new RefusedError(`${target} already exists; nothing was written. Add --force to replace it.`);
    throw error;
  }
}

/**
 * Uploads the file's changes now (a sync of its workspace) and writes the note on the version
 * that made. A file without changes has no new version to save: the note of the version it holds
 * is written with `asset-sync versions --note`, which the refusal names.
 */
async function saveWithNote(fileArg: string, note: string, options: SaveOptions, globals: GlobalOptions): Promise<number> {
  const file = await locateSyncedFile(fileArg, options.root, readConfig());
  const local = await hashFile(file.absPath);
  if (local.checksum === file.base.checksum) {
    const connection = await connect({ ...serviceFor(file, options), logToStderr: globals.verbose });
    const held = await connection.client.getVersion(file.workspace.id, file.base.assetId, file.base.versionId).finally(() => connection.close());
    const n = held.version_number;
    throw new RefusedError(`${file.relPath} has no changes since version ${n}: there is nothing to save. To change the note of version ${n}: asset-sync versions ${fileArg} --version ${n} --note "…"`);
  }
  const session = await openFileSession(file, options, globals);
  try {
    print(`Syncing ${file.workspace.name} to upload ${file.relPath} (anything else waiting is synced too)…`);
    const report = await syncOnceShown(session.engine);
    const synced = session.index.base.getFile(file.workspace.id, file.relPath);
    if (!synced || synced.versionId === file.base.versionId) {
      print(`${file.relPath} was not uploaded, so no version has the note yet.`);
      printProblems(report);
      return EXIT_PROBLEMS;
    }
    const [version, self] = await Promise.all([session.client.getVersion(file.workspace.id, synced.assetId, synced.versionId), session.client.getUser()]);
    const noted = await writeVersionNote(session.client, file.workspace.id, synced.assetId, version, note, self.id ?? '');
    print(`Saved ${file.relPath} as version ${noted.version_number}${noted.description ? ` with the note “${noted.description}”` : ''}.`);
    return EXIT_OK;
  } finally {
    await session.close();
  }
}
