import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Change, Folder } from '../../shared/api/index.js';
import { parse, workspaceCaller, type ServiceContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { ASSET_WITH_VERSION, assetEntryJson, folderJson } from '../store/serialize.js';
import type { AssetWithVersionRow, FolderRow } from '../store/rows.js';

const ChangesQuery = z.object({
  since: z.coerce.number().int().nonnegative(),
  limit: z.coerce.number().int().min(1).max(10_000).default(1000),
});

/**
 * The listing in pages (docs/protocol.md): at most `limit` assets per page, by id after the page
 * token `after` (the last id of the page before). Without `limit`, one document as before.
 */
const HierarchyQuery = z.object({
  include_deleted: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(10_000).optional(),
  after: z.string().min(1).optional(),
});

/** The listing and changes feed a sync client lives on (docs/protocol.md, [ours] and [ext]). */
export function syncRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { db } = ctx;
  const folderEntry = ctx.options.listingShape === 'minimal' ? documentedFolderJson : folderJson;

  app.get('/workspaces/folders/hierarchy', async (request) => {
    const { workspaceId } = workspaceCaller(request);
    const query = parse(HierarchyQuery, request.query, 'query');
    const active = query.include_deleted === 'true' ? '' : 'AND is_active = 1';
    const assetsActive = active.replace('is_active', 'a.is_active');
    // One read transaction: the cursor and the rows describe the same moment.
    return db.transaction(() => {
      const sequence = (db.prepare('SELECT sequence FROM workspaces WHERE id = ?').get(workspaceId) as { sequence: number }).sequence;
      const listFolders = (): FolderRow[] =>
        db.prepare(`SELECT * FROM folders WHERE workspace_id = ? AND purged = 0 ${active} ORDER BY name_key`).all(workspaceId) as FolderRow[];
      if (query.limit === undefined) {
        const assets = db
          .prepare(`SELECT ${ASSET_WITH_VERSION} WHERE a.workspace_id = ? AND a.purged = 0 ${assetsActive} ORDER BY a.name_key`)
          .all(workspaceId) as AssetWithVersionRow[];
        return { workspace_id: workspaceId, sequence, folders: shallowFirst(listFolders()).map(folderEntry), assets: assets.map(assetEntryJson) };
      }
      // Pages go by asset id, which never changes: an asset is on one page at most, however the
      // workspace changes between pages, and what changes meanwhile comes through the feed.
      const folders = query.after === undefined ? shallowFirst(listFolders()).map(folderEntry) : [];
      const rows = db
        .prepare(`SELECT ${ASSET_WITH_VERSION} WHERE a.workspace_id = ? AND a.purged = 0 ${assetsActive} AND a.id > ? ORDER BY a.id LIMIT ?`)
        .all(workspaceId, query.after ?? '', query.limit + 1) as AssetWithVersionRow[];
      const page = rows.slice(0, query.limit);
      const next = rows.length > query.limit ? (page.at(-1)?.id ?? null) : null;
      return { workspace_id: workspaceId, sequence, folders, assets: page.map(assetEntryJson), next };
    })();
  });

  app.get('/workspaces/changes', async (request) => {
    const { workspaceId } = workspaceCaller(request);
    const { since, limit } = parse(ChangesQuery, request.query, 'query');
    return db.transaction(() => {
      const current = (db.prepare('SELECT sequence FROM workspaces WHERE id = ?').get(workspaceId) as { sequence: number }).sequence;
      if (since > current) throw new ApiError(410, 'cursor_expired', 'The cursor is not from this workspace history; list the workspace in full.');
      const folders = db
        .prepare('SELECT * FROM folders WHERE workspace_id = ? AND sequence > ? ORDER BY sequence LIMIT ?')
        .all(workspaceId, since, limit + 1) as FolderRow[];
      const assets = db
        .prepare(
          `SELECT a.*, v.version_number AS v_version_number, v.checksum AS v_checksum, v.size AS v_size
           FROM assets a LEFT JOIN asset_versions v ON v.id = a.current_version_id
           WHERE a.workspace_id = ? AND a.sequence > ? ORDER BY a.sequence LIMIT ?`,
        )
        .all(workspaceId, since, limit + 1) as AssetWithVersionRow[];
      const changes: Array<Change & { sequence: number }> = [
        ...folders.map((f): Change & { sequence: number } => ({ type: 'folder', sequence: f.sequence, id: f.id, deleted: !f.is_active, purged: f.purged === 1, ...(f.purged ? {} : { folder: folderEntry(f) }) })),
        ...assets.map((a): Change & { sequence: number } => ({ type: 'asset', sequence: a.sequence, id: a.id, deleted: !a.is_active, purged: a.purged === 1, ...(a.purged ? {} : { asset: assetEntryJson(a) }) })),
      ].sort((x, y) => x.sequence - y.sequence);
      const page = changes.slice(0, limit);
      const hasMore = changes.length > limit;
      return { sequence: hasMore ? (page.at(-1)?.sequence ?? since) : current, has_more: hasMore, changes: page };
    })();
  });
}

/** A folder entry with only the fields docs/protocol.md shows (`--listing-shape minimal`). */
function documentedFolderJson(row: FolderRow): Folder {
  return { id: row.id, parent_id: row.parent_id, name: row.name, sequence: row.sequence, isActive: row.is_active === 1 };
}

/** Parents before children, so a client can create folders in listing order. */
function shallowFirst(folders: FolderRow[]): FolderRow[] {
  const ids = new Set(folders.map((f) => f.id));
  const byParent = new Map<string | null, FolderRow[]>();
  for (const f of folders) {
    const key = f.parent_id && ids.has(f.parent_id) ? f.parent_id : null;
    const siblings = byParent.get(key);
    if (siblings) siblings.push(f);
    else byParent.set(key, [f]);
  }
  const out: FolderRow[] = [];
  let level = byParent.get(null) ?? [];
  while (level.length > 0) {
    out.push(...level);
    level = level.flatMap((f) => byParent.get(f.id) ?? []);
  }
  return out;
}
