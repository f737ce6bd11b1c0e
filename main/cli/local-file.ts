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
import { openIndex } from '../index/sync-index.js';
import type { WorkspaceRecord } from '../index/workspaces.js';
import { MARKER_FILE_NAME } from '../local/own-files.js';
import { toRelative } from '../local/paths.js';
import type { BaseFile } from '../sync/model.js';
import { UsageError } from './outcomes.js';

export interface SyncedFile {
  /** The sync root (parent of the workspace folders). */
  root: string;
  workspace: WorkspaceRecord;
  absPath: string;
  /** Path inside the workspace folder, POSIX separators: the index's and the service's path. */
  relPath: string;
  base: BaseFile;
  /** The service the last sync used, as the index remembers it. */
  service: Partial<ServiceSetting>;
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
    const base = index.base.getFile(workspace.id, relPath);
    if (!base) throw new UsageError(`${relPath} is not synced yet (it has no version on the service). Run \`asset-sync sync --once\` first.`);
    const service = index.settings.get<ServiceSetting>(SERVICE_SETTING) ?? {};
    return { root, workspace, absPath, relPath, base, service };
  } finally {
    index.close();
  }
}
