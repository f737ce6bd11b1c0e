/** The service's records. One SQLite file (WAL); blobs live in a folder beside it. */
export const SCHEMA_VERSION = 1;

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY, idp_user_id TEXT NOT NULL, username TEXT NOT NULL, email TEXT NOT NULL UNIQUE,
  first_name TEXT NOT NULL DEFAULT '', last_name TEXT NOT NULL DEFAULT '', avatar_key TEXT,
  default_avatar INTEGER NOT NULL DEFAULT 1, industry TEXT, occupation TEXT, company TEXT,
  email_verified INTEGER NOT NULL DEFAULT 1, is_active INTEGER NOT NULL DEFAULT 1,
  city TEXT, state TEXT, country TEXT, zip_code TEXT, invited_by_user_id TEXT, created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
  key TEXT PRIMARY KEY, secret_hash TEXT NOT NULL, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL, revoked_at TEXT
);
CREATE TABLE IF NOT EXISTS tiers (
  id TEXT PRIMARY KEY, type TEXT NOT NULL, name TEXT NOT NULL, level INTEGER NOT NULL,
  max_storage REAL NOT NULL, cost_per_license REAL NOT NULL, cost_per_extra_tb REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS account_types (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, max_storage REAL NOT NULL, max_assets INTEGER NOT NULL,
  max_users INTEGER NOT NULL, cost_per_user REAL NOT NULL, add_storage_price REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, tier_id TEXT NOT NULL REFERENCES tiers(id), type_id TEXT REFERENCES account_types(id),
  thumbnail_key TEXT, created_by_user_id TEXT, default_avatar INTEGER NOT NULL DEFAULT 1,
  sequence INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, deleted_at TEXT
);
CREATE TABLE IF NOT EXISTS subscriptions (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE, billing_customer_id TEXT NOT NULL,
  status TEXT NOT NULL, licenses INTEGER NOT NULL, frequency TEXT NOT NULL, contact TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS account_members (
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  roles TEXT NOT NULL DEFAULT '[]', PRIMARY KEY (account_id, user_id)
);
CREATE TABLE IF NOT EXISTS account_settings (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, key TEXT NOT NULL, value TEXT NOT NULL,
  UNIQUE (account_id, key)
);
CREATE TABLE IF NOT EXISTS account_invites (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, email TEXT NOT NULL,
  roles TEXT NOT NULL DEFAULT '[]', invited_by_user_id TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS account_history (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL, user_id TEXT, action TEXT NOT NULL, target_type TEXT,
  target_id TEXT, details TEXT, created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS account_history_by_account ON account_history(account_id, created_at);
CREATE TABLE IF NOT EXISTS workspaces (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, name TEXT NOT NULL,
  thumbnail_key TEXT, default_avatar INTEGER NOT NULL DEFAULT 1, created_by_user_id TEXT,
  sequence INTEGER NOT NULL DEFAULT 0, settings TEXT NOT NULL DEFAULT '{}', created_at TEXT NOT NULL, deleted_at TEXT
);
CREATE TABLE IF NOT EXISTS workspace_members (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  roles TEXT NOT NULL DEFAULT '[]', PRIMARY KEY (workspace_id, user_id)
);
CREATE TABLE IF NOT EXISTS folders (
  id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE, parent_id TEXT,
  name TEXT NOT NULL, name_key TEXT NOT NULL, created_by_user_id TEXT, sequence INTEGER NOT NULL,
  is_active INTEGER NOT NULL DEFAULT 1, purged INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL, deleted_at TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS folders_unique_name ON folders(workspace_id, ifnull(parent_id, ''), name_key) WHERE is_active = 1;
CREATE INDEX IF NOT EXISTS folders_by_sequence ON folders(workspace_id, sequence);
CREATE TABLE IF NOT EXISTS asset_types (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, display_type TEXT NOT NULL, color TEXT NOT NULL, generic INTEGER NOT NULL,
  known_extensions TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS asset_statuses (
  id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE, name TEXT NOT NULL,
  color TEXT NOT NULL, rank TEXT NOT NULL, created_by_user_id TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS assets (
  id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE, folder_id TEXT,
  name TEXT NOT NULL, file_name TEXT NOT NULL, name_key TEXT NOT NULL, asset_type_id TEXT, status_id TEXT,
  is_active INTEGER NOT NULL DEFAULT 1, purged INTEGER NOT NULL DEFAULT 0, created_by_user_id TEXT NOT NULL,
  locked_by_user_id TEXT, current_version_id TEXT, sequence INTEGER NOT NULL,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL, deleted_at TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS assets_unique_name ON assets(workspace_id, ifnull(folder_id, ''), name_key) WHERE is_active = 1;
CREATE INDEX IF NOT EXISTS assets_by_sequence ON assets(workspace_id, sequence);
CREATE INDEX IF NOT EXISTS assets_by_folder ON assets(workspace_id, folder_id);
CREATE TABLE IF NOT EXISTS asset_versions (
  id TEXT PRIMARY KEY, asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE, version_number INTEGER NOT NULL,
  commit_parent_id TEXT, created_by_user_id TEXT NOT NULL, thumbnail_file_id TEXT, name TEXT NOT NULL,
  description TEXT, key TEXT NOT NULL, size INTEGER NOT NULL, checksum TEXT NOT NULL, content_type TEXT,
  sequence INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL,
  UNIQUE (asset_id, version_number), UNIQUE (asset_id, key)
);
CREATE INDEX IF NOT EXISTS asset_versions_by_key ON asset_versions(key);
CREATE TABLE IF NOT EXISTS uploads (
  key TEXT PRIMARY KEY, workspace_id TEXT, account_id TEXT, user_id TEXT NOT NULL, file_name TEXT NOT NULL,
  content_type TEXT NOT NULL, checksum TEXT NOT NULL, size INTEGER, stored INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL, stored_at TEXT
);
CREATE TABLE IF NOT EXISTS asset_history (
  id TEXT PRIMARY KEY, asset_id TEXT NOT NULL, workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, action TEXT NOT NULL,
  details TEXT, sequence INTEGER, created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS asset_history_by_asset ON asset_history(asset_id, created_at);
CREATE TABLE IF NOT EXISTS review_history (
  id TEXT PRIMARY KEY, asset_id TEXT NOT NULL, review_id TEXT, user_id TEXT NOT NULL, status TEXT,
  asset_version_id TEXT, action TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS review_history_by_asset ON review_history(asset_id, created_at);
CREATE TABLE IF NOT EXISTS tags (
  id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE, name TEXT NOT NULL,
  color TEXT, created_by_user_id TEXT NOT NULL, sequence INTEGER NOT NULL, UNIQUE (workspace_id, name)
);
CREATE TABLE IF NOT EXISTS asset_tags (
  asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE, tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  PRIMARY KEY (asset_id, tag_id)
);
CREATE TABLE IF NOT EXISTS libraries (
  id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE, name TEXT NOT NULL,
  description TEXT, thumbnail_file_id TEXT, default_avatar INTEGER NOT NULL DEFAULT 1, created_by_user_id TEXT NOT NULL,
  sequence INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS asset_libraries (
  asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE, library_id TEXT NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
  PRIMARY KEY (asset_id, library_id)
);
CREATE TABLE IF NOT EXISTS tasks (
  id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE, asset_id TEXT,
  title TEXT NOT NULL, description TEXT, status TEXT NOT NULL DEFAULT 'open', assigned_user_id TEXT,
  created_by_user_id TEXT NOT NULL, due_date TEXT, sequence INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS comments (
  id TEXT PRIMARY KEY, asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE, workspace_id TEXT NOT NULL,
  user_id TEXT NOT NULL, content TEXT NOT NULL, mentions TEXT NOT NULL DEFAULT '[]', created_at TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS attachments (
  id TEXT PRIMARY KEY, asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE, created_by_user_id TEXT NOT NULL,
  file_id TEXT NOT NULL, thumbnail_file_id TEXT, review_id TEXT, comment_id TEXT, name TEXT NOT NULL, description TEXT
);
CREATE TABLE IF NOT EXISTS reviews (
  id TEXT PRIMARY KEY, asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE, workspace_id TEXT NOT NULL,
  asset_version_id TEXT, user_id TEXT NOT NULL, assigned_user_id TEXT, status TEXT NOT NULL, content TEXT NOT NULL,
  mentions TEXT NOT NULL DEFAULT '[]', viewer_metadata TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reviews_by_assignee ON reviews(assigned_user_id);
CREATE TABLE IF NOT EXISTS review_requests (
  id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  asset_version_id TEXT NOT NULL, requestor_id TEXT NOT NULL, user_id TEXT NOT NULL, review_id TEXT, message TEXT,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (asset_id, user_id)
);
CREATE INDEX IF NOT EXISTS review_requests_by_user ON review_requests(user_id);
`;
