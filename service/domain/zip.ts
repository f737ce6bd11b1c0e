/**
 * The whole workspace as a zip [ours]: every active folder as a directory entry, each active
 * asset's current version at `<folder path>/<file name>`, attachments (when asked) under
 * `_attachments/<asset id>/<name>`. Entries are added one at a time, so at most one blob is
 * open however large the workspace is.
 */
import { once } from 'node:events';
import { ZipArchive } from 'archiver';
import type { ServiceContext } from '../context.js';
import type { AssetRow, FolderRow, VersionRow } from '../store/rows.js';
import { folderPath } from '../store/serialize.js';

interface Entry {
  name: string;
  key?: string;
  date: string;
}

/** Attachment names are a client's text: keep them to one safe path segment. */
export function safeSegment(name: string): string {
  const cleaned = name.replace(/[/\\\0]/g, '_').replace(/^\.+$/, '_').trim();
  return cleaned.length > 0 ? cleaned : '_';
}

/** `a.txt`, `a (2).txt`, `a (3).txt`…: the same name twice in one folder would overwrite on extraction. */
function uniqueName(taken: Set<string>, name: string): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) {
    const dot = name.lastIndexOf('.');
    candidate = dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
  }
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** What goes into the zip, read in one transaction so the listing is one moment of the workspace. */
export function zipEntries(ctx: ServiceContext, workspaceId: string, includeAttachments: boolean): Entry[] {
  const { db } = ctx;
  return db.transaction(() => {
    const entries: Entry[] = [];
    const folders = db.prepare('SELECT * FROM folders WHERE workspace_id = ? AND is_active = 1 ORDER BY name_key').all(workspaceId) as FolderRow[];
    for (const folder of folders) entries.push({ name: `${folderPath(db, folder.id)}/`, date: folder.updated_at });
    const assets = db
      .prepare(
        `SELECT a.*, v.key AS v_key, v.created_at AS v_created_at FROM assets a JOIN asset_versions v ON v.id = a.current_version_id
         WHERE a.workspace_id = ? AND a.is_active = 1 ORDER BY a.folder_id, a.name_key`,
      )
      .all(workspaceId) as Array<AssetRow & { v_key: string; v_created_at: VersionRow['created_at'] }>;
    for (const asset of assets) {
      const dir = folderPath(db, asset.folder_id);
      entries.push({ name: dir ? `${dir}/${asset.file_name}` : asset.file_name, key: asset.v_key, date: asset.v_created_at });
    }
    if (includeAttachments) {
      const attachments = db
        .prepare(
          `SELECT t.asset_id, t.name, t.file_id FROM attachments t JOIN assets a ON a.id = t.asset_id
           WHERE a.workspace_id = ? AND a.is_active = 1 ORDER BY t.asset_id, t.rowid`,
        )
        .all(workspaceId) as Array<{ asset_id: string; name: string; file_id: string }>;
      const taken = new Map<string, Set<string>>();
      for (const a of attachments) {
        const names = taken.get(a.asset_id) ?? new Set<string>();
        taken.set(a.asset_id, names);
        const upload = db.prepare('SELECT stored_at FROM uploads WHERE key = ? AND stored = 1').get(a.file_id) as { stored_at: string } | undefined;
        if (upload) entries.push({ name: `_attachments/${a.asset_id}/${uniqueName(names, safeSegment(a.name))}`, key: a.file_id, date: upload.stored_at });
      }
    }
    return entries;
  })();
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
