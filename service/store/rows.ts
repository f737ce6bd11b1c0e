/** Row shapes as stored in SQLite (snake_case, integers for booleans). */
export interface UserRow {
  id: string; idp_user_id: string; username: string; email: string; first_name: string; last_name: string;
  avatar_key: string | null; default_avatar: number; industry: string | null; occupation: string | null;
  company: string | null; email_verified: number; is_active: number; city: string | null; state: string | null;
  country: string | null; zip_code: string | null; invited_by_user_id: string | null; created_at: string;
}
export interface FolderRow {
  id: string; workspace_id: string; parent_id: string | null; name: string; name_key: string;
  created_by_user_id: string | null; sequence: number; is_active: number; purged: number;
  created_at: string; updated_at: string; deleted_at: string | null;
}
export interface AssetRow {
  id: string; workspace_id: string; folder_id: string | null; name: string; file_name: string; name_key: string;
  asset_type_id: string | null; status_id: string | null; is_active: number; purged: number; created_by_user_id: string;
  locked_by_user_id: string | null; current_version_id: string | null; sequence: number;
  created_at: string; updated_at: string; deleted_at: string | null;
}
export interface VersionRow {
  id: string; asset_id: string; version_number: number; commit_parent_id: string | null; created_by_user_id: string;
  thumbnail_file_id: string | null; name: string; description: string | null; key: string; size: number;
  checksum: string; content_type: string | null; sequence: number; deleted: number; created_at: string;
}
/** An asset joined with its current version: what listings need. */
export interface AssetWithVersionRow extends AssetRow {
  v_version_number: number; v_checksum: string; v_size: number;
}
export interface WorkspaceRow {
  id: string; account_id: string; name: string; thumbnail_key: string | null; default_avatar: number;
  created_by_user_id: string | null; sequence: number; settings: string; created_at: string; deleted_at: string | null;
}
export interface AccountRow {
  id: string; name: string; tier_id: string; type_id: string | null; thumbnail_key: string | null;
  created_by_user_id: string | null; default_avatar: number; sequence: number; created_at: string; deleted_at: string | null;
}
export interface TagRow { id: string; workspace_id: string; name: string; color: string | null; created_by_user_id: string; sequence: number }
export interface LibraryRow {
  id: string; workspace_id: string; name: string; description: string | null; thumbnail_file_id: string | null;
  default_avatar: number; created_by_user_id: string; sequence: number;
}
