/**
 * `asset-sync versions <file>`: the version history of the asset a local file syncs with; with
 * `--note`, the note of one of the user's own versions (`--version N`, else the one on disk).
 */
import type { AssetVersion } from '../service-client/index.js';
import { connect } from '../bootstrap.js';
import { writeVersionNote } from '../version-notes.js';
import { EXIT_OK, RefusedError, UsageError } from './outcomes.js';
import { locateSyncedFile, type SyncedFile, type WorkspaceFile } from './local-file.js';
import { parsePositiveInt, readConfig, resolveService, type GlobalOptions, type ServiceOptions } from './options.js';
import { pickVersion } from './version-file.js';
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

export interface VersionsOptions extends FileOptions {
  json?: boolean;
  note?: string;
  version?: string;
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
export function serviceFor(file: WorkspaceFile, options: ServiceOptions): { baseUrl: string; accountId: string } {
  const config = readConfig();
  return resolveService(options, { ...config, baseUrl: file.service.baseUrl ?? config.baseUrl, accountId: file.workspace.accountId });
}

export async function versions(fileArg: string, options: VersionsOptions, globals: GlobalOptions): Promise<number> {
  if (options.version !== undefined) throw new UsageError('--version names the version whose note --note writes; to list the versions, leave both out.');
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

/** Writes the note of version `--version` (default: the one the file holds), which must be the user's. */
export async function noteVersion(fileArg: string, note: string, options: VersionsOptions, globals: GlobalOptions): Promise<number> {
  const number = options.version === undefined ? null : parsePositiveInt('--version', options.version);
  const file = await locateSyncedFile(fileArg, options.root, readConfig());
  const connection = await connect({ ...serviceFor(file, options), logToStderr: globals.verbose });
  try {
    const { client } = connection;
    const [list, self] = await Promise.all([client.listVersions(file.workspace.id, file.base.assetId), client.getUser()]);
    const version = number === null ? list.find((v) => v.id === file.base.versionId) : pickVersion(list, number);
    if (!version) throw new RefusedError(`The version ${file.relPath} holds is gone from the service. Name one with --version (see \`asset-sync versions ${fileArg}\`).`);
    if (!self.id) throw new RefusedError('The service did not say who you are, so no note was written. Try again.');
    const updated = await writeVersionNote(client, file.workspace.id, file.base.assetId, version, note, self.id);
    const what = `Version ${updated.version_number} of ${file.relPath}`;
    print(updated.description ? `${what} now has the note “${updated.description}”.` : `${what} has no note now.`);
    return EXIT_OK;
  } finally {
    await connection.close();
  }
}
