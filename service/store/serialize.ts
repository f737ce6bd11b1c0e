/** Rows to the API's resource shapes (shared/api). One mapper per resource, used by every route. */
import type { Asset, AssetEntry, AssetVersion, Folder, User, Workspace } from '../../shared/api/index.js';
import type { Db } from '../db/db.js';
import type { AssetRow, AssetWithVersionRow, FolderRow, LibraryRow, TagRow, UserRow, VersionRow, WorkspaceRow } from './rows.js';
import { present } from './present.js';

export function userJson(row: UserRow): User {
  return present({
    id: row.id,
    idpUserID: row.idp_user_id,
    username: row.username,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    avatar_file_id: row.avatar_key,
    defaultAvatar: row.default_avatar,
    industry: row.industry,
    occupation: row.occupation,
    company: row.company,
    emailVerified: row.email_verified === 1,
    isActive: row.is_active === 1,
    city: row.city,
    state: row.state,
    country: row.country,
    zipCode: row.zip_code,
  });
}

export function loadUser(db: Db, id: string | null | undefined): User | undefined {
  if (!id) return undefined;
  const row = db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
  return row ? userJson(row) : undefined;
}

export function folderJson(row: FolderRow): Folder {
  return present(
    {
      id: row.id,
      workspace_id: row.workspace_id,
      parent_id: row.parent_id,
      name: row.name,
      created_by_user_id: row.created_by_user_id,
      sequence: row.sequence,
      isActive: row.is_active === 1,
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
    ['parent_id'],
  );
}

export function assetEntryJson(row: AssetWithVersionRow): AssetEntry {
  return present(
    {
    id: row.id,
    folder_id: row.folder_id,
    name: row.name,
    file_name: row.file_name,
    current_version_id: row.current_version_id ?? '',
    version_number: row.v_version_number,
    checksum: row.v_checksum,
    size: row.v_size,
    sequence: row.sequence,
    locked_by_user_id: row.locked_by_user_id,
    isActive: row.is_active === 1,
    updated_at: row.updated_at,
    },
    ['folder_id'],
  );
}

/** SELECT list for assets joined with their current version (aliased v_*). */
export const ASSET_WITH_VERSION = `a.*, v.version_number AS v_version_number, v.checksum AS v_checksum, v.size AS v_size
  FROM assets a JOIN asset_versions v ON v.id = a.current_version_id`;

/** The reference lists `thumbnail_file_id` and `description` as required: empty when there is none. */
export function versionJson(row: VersionRow, user?: User): AssetVersion {
  return present({
    id: row.id,
    asset_id: row.asset_id,
    commit_parent_id: row.commit_parent_id,
    created_by_user_id: row.created_by_user_id,
    thumbnail_file_id: row.thumbnail_file_id ?? '',
    name: row.name,
    description: row.description ?? '',
    key: row.key,
    size: row.size,
    version_number: row.version_number,
    sequence: row.sequence,
    checksum: row.checksum,
    content_type: row.content_type,
    deleted: row.deleted === 1,
    created_at: row.created_at,
    user,
  });
}

/** The folder path of a folder id ("Brand/Logos"; "" at the top). */
export function folderPath(db: Db, folderId: string | null): string {
  const parts: string[] = [];
  const get = db.prepare('SELECT name, parent_id FROM folders WHERE id = ?');
  let id = folderId;
  for (let depth = 0; id && depth < 1000; depth += 1) {
    const row = get.get(id) as { name: string; parent_id: string | null } | undefined;
    if (!row) break;
    parts.unshift(row.name);
    id = row.parent_id;
  }
  return parts.join('/');
}

interface Usage {
  assets: number;
  bytes: number;
}

/** Per database, each workspace's usage and the sequence it was counted at. */
const usageBySequence = new WeakMap<Db, Map<string, { sequence: number; usage: Usage }>>();

/**
 * The active assets of a workspace and the bytes of their current versions. Counting them joins
 * every asset (most of a second at a million), and every change that adds, removes or revives an
 * asset or changes its current version takes a new workspace sequence (store/sequence.ts): a
 * count is kept while the sequence it was made at is the workspace's.
 */
function usageOf(db: Db, row: WorkspaceRow): Usage {
  let byWorkspace = usageBySequence.get(db);
  if (!byWorkspace) usageBySequence.set(db, (byWorkspace = new Map()));
  const kept = byWorkspace.get(row.id);
  if (kept?.sequence === row.sequence) return kept.usage;
  const usage = db
    .prepare(
      `SELECT count(*) AS assets, ifnull(sum(v.size), 0) AS bytes FROM assets a JOIN asset_versions v ON v.id = a.current_version_id
       WHERE a.workspace_id = ? AND a.is_active = 1`,
    )
    .get(row.id) as Usage;
  byWorkspace.set(row.id, { sequence: row.sequence, usage });
  return usage;
}

export function workspaceJson(db: Db, row: WorkspaceRow, userId?: string): Workspace {
  const member = userId
    ? (db.prepare('SELECT roles FROM workspace_members WHERE workspace_id = ? AND user_id = ?').get(row.id, userId) as { roles: string } | undefined)
    : undefined;
  const usage = usageOf(db, row);
  return present({
    id: row.id,
    account_id: row.account_id,
    name: row.name,
    thumbnail_file_id: row.thumbnail_key,
    defaultAvatar: row.default_avatar,
    created_by_user_id: row.created_by_user_id,
    // Declared a string in the reference (part 2); clients accept both.
    sequence: String(row.sequence) as unknown as number,
    ...(member && userId ? { roles: { workspace_id: row.id, user_id: userId, roles: JSON.parse(member.roles) as string[] } } : {}),
    usage: { assets: usage.assets, bytes: usage.bytes },
  });
}

interface AssetTypeRow { id: string; name: string; display_type: string; color: string; generic: number; known_extensions: string }

/**
 * Asset types by id, per database. The table is reference data, written only when the database is
 * opened (db/reference-data.ts), so its rows need not be read again for every asset.
 */
const assetTypes = new WeakMap<Db, Map<string, AssetTypeRow | undefined>>();

function assetType(db: Db, id: string): AssetTypeRow | undefined {
  let byId = assetTypes.get(db);
  if (!byId) assetTypes.set(db, (byId = new Map()));
  if (!byId.has(id)) byId.set(id, db.prepare('SELECT * FROM asset_types WHERE id = ?').get(id) as AssetTypeRow | undefined);
  return byId.get(id);
}

/** loadUser for one answer: a user named twice in it (creator and collaborator) is read once. */
function userLoader(db: Db): (id: string) => User | undefined {
  const rows = new Map<string, UserRow | undefined>();
  return (id) => {
    if (!rows.has(id)) rows.set(id, db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined);
    const row = rows.get(id);
    return row ? userJson(row) : undefined;
  };
}

/**
 * Who made the asset's versions. One creator of every version (the usual case) is read off the rows
 * already loaded; several are left to the query, whose order the answer has always had.
 */
function collaboratorIds(db: Db, assetId: string, versions: VersionRow[]): string[] {
  const first = versions[0]?.created_by_user_id;
  if (first === undefined) return [];
  if (versions.every((v) => v.created_by_user_id === first)) return [first];
  return (db.prepare('SELECT DISTINCT created_by_user_id AS id FROM asset_versions WHERE asset_id = ?').all(assetId) as Array<{ id: string }>).map((u) => u.id);
}

export function assetJson(db: Db, row: AssetRow, opts: { withVersions?: boolean; userId?: string } = {}): Asset {
  const versionRows = db.prepare('SELECT * FROM asset_versions WHERE asset_id = ? ORDER BY version_number DESC').all(row.id) as VersionRow[];
  const current = versionRows.find((v) => v.id === row.current_version_id);
  const user = userLoader(db);
  const tags = db.prepare('SELECT t.* FROM tags t JOIN asset_tags at ON at.tag_id = t.id WHERE at.asset_id = ? ORDER BY t.name').all(row.id);
  const libraries = db
    .prepare('SELECT l.* FROM libraries l JOIN asset_libraries al ON al.library_id = l.id WHERE al.asset_id = ? ORDER BY l.name')
    .all(row.id) as LibraryRow[];
  const type = row.asset_type_id ? assetType(db, row.asset_type_id) : undefined;
  const status = row.status_id ? (db.prepare('SELECT * FROM asset_statuses WHERE id = ?').get(row.status_id) as Record<string, unknown> | undefined) : undefined;
  return present({
    id: row.id,
    workspace_id: row.workspace_id,
    name: row.name,
    file_name: row.file_name,
    file_location: folderPath(db, row.folder_id),
    folder_id: row.folder_id,
    asset_type_id: row.asset_type_id,
    status_id: row.status_id,
    isActive: row.is_active === 1,
    created_by_user_id: row.created_by_user_id,
    locked_by_user_id: row.locked_by_user_id,
    current_version_id: row.current_version_id,
    sequence: row.sequence,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
    favorited: false,
    ...(current ? { currentVersion: versionJson(current, user(current.created_by_user_id)) } : {}),
    ...(opts.withVersions ? { versions: versionRows.map((v) => versionJson(v)) } : {}),
    tags: tags.map((t) => present(t as TagRow)),
    libraries: libraries.map((l) => {
      const { default_avatar: defaultAvatar, ...rest } = l;
      return present({ ...rest, defaultAvatar });
    }),
    collaborators: collaboratorIds(db, row.id, versionRows)
      .map(user)
      .filter((u): u is User => u !== undefined),
    assetType: type
      ? { id: type.id, name: type.name, displayType: type.display_type, color: type.color, generic: type.generic === 1, knownExtensions: JSON.parse(type.known_extensions) as string[] }
      : undefined,
    assetStatus: status ? present(status) : undefined,
  }, ['folder_id']);
}
