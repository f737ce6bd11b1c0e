/**
 * `asset-sync save-version <file> --version N --to <path>`: a copy of one version, checked
 * against its checksum, written where the user says; an existing file is kept unless --force.
 */
import { constants } from 'node:fs';
import { copyFile, link, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { connect } from '../bootstrap.js';
import { tempFileName } from '../local/own-files.js';
import { EXIT_OK, RefusedError, UsageError } from './errors.js';
import { locateSyncedFile } from './local-file.js';
import { addRootOption, addServiceOptions, parsePositiveInt, readConfig, type GlobalOptions, type Run } from './options.js';
import { formatBytes, print } from './output.js';
import { downloadVersion, pickVersion } from './version-file.js';
import { serviceFor, type FileOptions } from './versions.js';

interface SaveOptions extends FileOptions {
  version: string;
  to: string;
  force?: boolean;
}

export function registerSaveVersion(program: Command, run: Run): void {
  addRootOption(addServiceOptions(program.command('save-version <file>')))
    .description('save a copy of one version of a synced file')
    .requiredOption('--version <n>', 'the version number (see `asset-sync versions FILE`)')
    .requiredOption('--to <path>', 'where to write it (a folder: the file keeps its name)')
    .option('--force', 'replace the file at --to if there is one')
    .action((file: string, options: SaveOptions, command: Command) => run(() => saveVersion(file, options, command.optsWithGlobals<GlobalOptions>())));
}

/** `--to` naming a folder means "in there, under the file's own name". */
async function destination(to: string, fileName: string): Promise<string> {
  const target = resolve(to);
  const info = await stat(target).catch(() => null);
  return info?.isDirectory() ? join(target, fileName) : target;
}

const exists = (path: string): Promise<boolean> => stat(path).then(() => true, () => false);

async function saveVersion(fileArg: string, options: SaveOptions, globals: GlobalOptions): Promise<number> {
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
