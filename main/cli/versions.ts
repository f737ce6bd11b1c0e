/** `asset-sync versions <file>`: the version history of the asset a local file syncs with. */
import type { Command } from 'commander';
import type { AssetVersion } from '../service-client/index.js';
import { connect } from '../bootstrap.js';
import { EXIT_OK } from './errors.js';
import { locateSyncedFile, type SyncedFile } from './local-file.js';
import { addRootOption, addServiceOptions, readConfig, resolveService, type GlobalOptions, type Run, type ServiceOptions } from './options.js';
import { formatBytes, formatDate, formatTable, personName, print, printJson } from './output.js';

export interface FileOptions extends ServiceOptions {
  root?: string;
}

export interface VersionRow {
  number: number;
  id: string;
  author: string;
  createdAt: string | null;
  size: number;
  checksum: string;
  parent: number | null;
  current: boolean;
  /** The version the local file holds, as of the last sync. */
  local: boolean;
  deleted: boolean;
  description: string | null;
}

export function registerVersions(program: Command, run: Run): void {
  addRootOption(addServiceOptions(program.command('versions <file>')))
    .description('list the versions of a synced file')
    .option('--json', 'print JSON')
    .action((file: string, options: FileOptions & { json?: boolean }, command: Command) =>
      run(() => versions(file, options, command.optsWithGlobals<GlobalOptions>())),
    );
}

export function versionRows(list: readonly AssetVersion[], currentId: string, localId: string): VersionRow[] {
  const numbers = new Map(list.map((v) => [v.id, v.version_number]));
  return [...list]
    .sort((a, b) => b.version_number - a.version_number)
    .map((v) => ({
      number: v.version_number,
      id: v.id,
      author: personName(v.user, v.created_by_user_id ?? 'someone'),
      createdAt: v.created_at ?? null,
      size: v.size,
      checksum: v.checksum,
      parent: v.commit_parent_id ? (numbers.get(v.commit_parent_id) ?? null) : null,
      current: v.id === currentId,
      local: v.id === localId,
      deleted: v.deleted ?? false,
      description: v.description ?? null,
    }));
}

export function versionLines(file: SyncedFile, rows: readonly VersionRow[]): string[] {
  const table = formatTable([
    ['', 'version', 'author', 'date', 'size', 'sha256', 'parent', ''],
    ...rows.map((r) => [
      r.current ? '*' : ' ',
      String(r.number),
      r.author,
      formatDate(r.createdAt),
      formatBytes(r.size),
      r.checksum.slice(0, 12),
      r.parent === null ? '-' : String(r.parent),
      [r.local ? 'on disk' : '', r.deleted ? 'deleted' : '', r.description ?? ''].filter(Boolean).join(', '),
    ]),
  ]);
  return [`${file.relPath} in ${file.workspace.name}`, ...table, '', '* current version'];
}

/** The service for a file command: options, then what the sync of this folder used, then config. */
export function serviceFor(file: SyncedFile, options: ServiceOptions): { baseUrl: string; accountId: string } {
  const config = readConfig();
  return resolveService(options, { ...config, baseUrl: file.service.baseUrl ?? config.baseUrl, accountId: file.workspace.accountId });
}

async function versions(fileArg: string, options: FileOptions & { json?: boolean }, globals: GlobalOptions): Promise<number> {
  const file = await locateSyncedFile(fileArg, options.root, readConfig());
  const connection = await connect({ ...serviceFor(file, options), logToStderr: globals.verbose });
  try {
    const [asset, list] = await Promise.all([
      connection.client.getAsset(file.workspace.id, file.base.assetId),
      connection.client.listVersions(file.workspace.id, file.base.assetId),
    ]);
    const rows = versionRows(list, asset.current_version_id, file.base.versionId);
    if (options.json) printJson({ path: file.relPath, workspaceId: file.workspace.id, assetId: file.base.assetId, versions: rows });
    else versionLines(file, rows).forEach((line) => print(line));
    return EXIT_OK;
  } finally {
    await connection.close();
  }
}
