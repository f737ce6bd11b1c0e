/**
 * From a file on disk to the asset it syncs with: the workspace folder holding it (found by the
 * marker file, or the index's workspaces), the path inside it and the synced base row.
 */
import { existsSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../config.js';
import { indexPathFor } from '../config.js';
import { SERVICE_SETTING, type ServiceSetting } from '../session-settings.js';
import { openIndex, type SyncIndex } from '../index/sync-index.js';
import type { WorkspaceRecord } from '../index/workspaces.js';
import { MARKER_FILE_NAME } from '../local/own-files.js';
import { toRelative } from '../local/paths.js';
import type { BaseFile } from '../model/views.js';
import { UsageError } from './outcomes.js';

/** A file inside a synced workspace folder, synced or not. */
export interface WorkspaceFile {
  /** The sync root (parent of the workspace folders). */
  root: string;
  workspace: WorkspaceRecord;
  absPath: string;
  /** Path inside the workspace folder, POSIX separators: the index's and the service's path. */
  relPath: string;
  /** The service the last sync used, as the index remembers it. */
  service: Partial<ServiceSetting>;
}

export interface SyncedFile extends WorkspaceFile {
  base: BaseFile;
}

/** Nearest folder above `dir` (itself included) holding a sync marker. */
async function markedFolder(dir: string): Promise<string | null> {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, MARKER_FILE_NAME))) return current;
    if (dirname(current) === current) return null;
  }
}

const real = (path: string): Promise<string> => realpath(path).catch(() => resolve(path));

export async function locateSyncedFile(file: string, rootOption: string | undefined, config: Config): Promise<SyncedFile> {
  return locateFile(file, rootOption, config, (found, index) => {
    const base = index.base.getFile(found.workspace.id, found.relPath);
    if (!base) throw new UsageError(`${found.relPath} is not synced yet (it has no version on the service). Run \`asset-sync sync --once\` first.`);
    return { ...found, base };
  });
}

/** The workspace folder holding `file`, and its path there; `then` reads more from the open index. */
export async function locateFile<T = WorkspaceFile>(
  file: string,
  rootOption: string | undefined,
  config: Config,
  then: (found: WorkspaceFile, index: SyncIndex) => T = (found) => found as T,
): Promise<T> {
  const given = resolve(file);
  const info = await stat(given).catch(() => null);
  if (!info) throw new UsageError(`${file}: no such file.`);
  if (!info.isFile()) throw new UsageError(`${file} is not a file.`);
  const absPath = await real(given);
  const marked = await markedFolder(dirname(absPath));
  const root = resolve(rootOption ?? (marked ? dirname(marked) : undefined) ?? config.root ?? '');
  if (!rootOption && !marked && !config.root) throw new UsageError(`${file} is not inside a synced folder. Pass --root DIR (the folder you sync into).`);
  const indexPath = indexPathFor(root);
  if (!existsSync(indexPath)) throw new UsageError(`Nothing has been synced into ${root} yet. Run \`asset-sync sync --once --root ${root}\` first.`);

  const index = openIndex(indexPath);
  try {
    let workspace: WorkspaceRecord | undefined;
    let relPath = '';
    for (const ws of index.workspaces.list()) {
      const dir = await real(ws.localPath);
      try {
        relPath = toRelative(dir, absPath);
      } catch {
        continue;
      }
      workspace = ws;
      break;
    }
    if (!workspace) throw new UsageError(`${file} is not inside a workspace folder of ${root}.`);
    const service = index.settings.get<ServiceSetting>(SERVICE_SETTING) ?? {};
    return then({ root, workspace, absPath, relPath, service }, index);
  } finally {
    index.close();
  }
}
