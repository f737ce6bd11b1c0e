/**
 * The whole workspace as a zip [ours]: every active folder as a directory entry, each active
 * asset's current version at `<folder path>/<file name>`, attachments (when asked) under
 * `_attachments/<asset id>/<name>`, every name made a safe entry segment (zip-names.ts). Entries
 * are added one at a time, so at most one blob is open however large the workspace is.
 */
import { once } from 'node:events';
import { ZipArchive } from 'archiver';
import type { ServiceContext } from '../context.js';
import type { AssetRow, FolderRow, VersionRow } from '../store/rows.js';
import { EntryPaths } from './zip-names.js';

interface Entry {
  name: string;
  key?: string;
  date: string;
}

/** The name of the folder that holds attachments, taken before any folder of the workspace. */
const ATTACHMENTS = '_attachments';

/** What goes into the zip, read in one transaction so the listing is one moment of the workspace. */
export function zipEntries(ctx: ServiceContext, workspaceId: string, includeAttachments: boolean): Entry[] {
  const { db } = ctx;
  return db.transaction(() => {
    const entries: Entry[] = [];
    const paths = new EntryPaths();
    const attachmentsDir = includeAttachments ? paths.child('', ATTACHMENTS) : '';
    const folders = db
      .prepare('SELECT id, parent_id, name, updated_at FROM folders WHERE workspace_id = ? AND is_active = 1 ORDER BY name_key, id')
      .all(workspaceId) as Array<Pick<FolderRow, 'id' | 'parent_id' | 'name' | 'updated_at'>>;
    const dirs = folderPaths(folders, paths);
    for (const folder of folders) entries.push({ name: `${dirs.get(folder.id) ?? ''}/`, date: folder.updated_at });
    const assets = db
      .prepare(
        `SELECT a.folder_id, a.file_name, v.key AS v_key, v.created_at AS v_created_at FROM assets a JOIN asset_versions v ON v.id = a.current_version_id
         WHERE a.workspace_id = ? AND a.is_active = 1 ORDER BY a.folder_id, a.name_key, a.id`,
      )
      .all(workspaceId) as Array<Pick<AssetRow, 'folder_id' | 'file_name'> & { v_key: string; v_created_at: VersionRow['created_at'] }>;
    for (const asset of assets) {
      // An asset in a folder that is not an active one of this workspace is listed at the top, as a restore would put it.
      const dir = (asset.folder_id !== null ? dirs.get(asset.folder_id) : undefined) ?? '';
      entries.push({ name: paths.child(dir, asset.file_name), key: asset.v_key, date: asset.v_created_at });
    }
    if (includeAttachments) {
      const attachments = db
        .prepare(
          `SELECT t.asset_id, t.name, u.key, u.stored_at FROM attachments t JOIN assets a ON a.id = t.asset_id
           JOIN uploads u ON u.key = t.file_id AND u.stored = 1
           WHERE a.workspace_id = ? AND a.is_active = 1 ORDER BY t.asset_id, t.rowid`,
        )
        .all(workspaceId) as Array<{ asset_id: string; name: string; key: string; stored_at: string }>;
      const assetDirs = new Map<string, string>();
      for (const a of attachments) {
        const dir = assetDirs.get(a.asset_id) ?? paths.child(attachmentsDir, a.asset_id);
        assetDirs.set(a.asset_id, dir);
        entries.push({ name: paths.child(dir, a.name), key: a.key, date: a.stored_at });
      }
    }
    return entries;
  })();
}

/**
 * The entry path of every folder, parents first. A folder whose parent is not among `folders`
 * (deleted, of another workspace, or part of a cycle written behind the API's back) is placed at
 * the top, so every folder gets exactly one path.
 */
function folderPaths(folders: Array<Pick<FolderRow, 'id' | 'parent_id' | 'name'>>, paths: EntryPaths): Map<string, string> {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const done = new Map<string, string>();
  const pathOf = (folder: Pick<FolderRow, 'id' | 'parent_id' | 'name'>, visiting: Set<string>): string => {
    const known = done.get(folder.id);
    if (known !== undefined) return known;
    visiting.add(folder.id);
    const parent = folder.parent_id !== null ? byId.get(folder.parent_id) : undefined;
    const parentPath = parent && !visiting.has(parent.id) ? pathOf(parent, visiting) : '';
    const path = paths.child(parentPath, folder.name);
    done.set(folder.id, path);
    return path;
  };
  for (const folder of folders) pathOf(folder, new Set());
  return done;
}

/** A zip stream of the entries; `signal` (the client going away) stops it between entries. */
export function zipStream(ctx: ServiceContext, entries: Entry[], signal: AbortSignal): ZipArchive {
  const archive = new ZipArchive({ zlib: { level: 1 } });
  const fill = async () => {
    for (const entry of entries) {
      if (signal.aborted) return;
      const added = once(archive, 'entry', { signal });
      if (entry.key) archive.append(ctx.blobs.read(entry.key), { name: entry.name, date: new Date(entry.date) });
      else archive.append(Buffer.alloc(0), { name: entry.name, type: 'directory', date: new Date(entry.date) });
      await added;
    }
    await archive.finalize();
  };
  fill().catch((error: unknown) => {
    if (!signal.aborted) archive.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  signal.addEventListener('abort', () => archive.abort(), { once: true });
  return archive;
}
