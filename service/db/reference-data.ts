import type { Db } from './db.js';

/** Plan tiers. `level` orders them: API access needs Pro (2) or above (reference part 1). */
export const TIERS = [
  { id: 'tier_free', type: 'personal', name: 'Free', level: 0, max_storage: 2, cost_per_license: 0, cost_per_extra_tb: 0 },
  { id: 'tier_team', type: 'team', name: 'Team', level: 1, max_storage: 1024, cost_per_license: 12, cost_per_extra_tb: 20 },
  { id: 'tier_pro', type: 'business', name: 'Pro', level: 2, max_storage: 10240, cost_per_license: 25, cost_per_extra_tb: 15 },
  { id: 'tier_enterprise', type: 'business', name: 'Enterprise', level: 3, max_storage: 102400, cost_per_license: 45, cost_per_extra_tb: 10 },
] as const;
export const API_MIN_TIER_LEVEL = 2;

const ASSET_TYPES = [
  ['type_image', 'Image', 'image', '#3b82f6', ['jpg', 'jpeg', 'png', 'gif', 'webp', 'tif', 'tiff', 'svg', 'heic']],
  ['type_design', 'Design', 'design', '#a855f7', ['psd', 'ai', 'sketch', 'fig', 'xd', 'indd', 'afdesign']],
  ['type_video', 'Video', 'video', '#ef4444', ['mp4', 'mov', 'avi', 'mkv', 'webm']],
  ['type_audio', 'Audio', 'audio', '#f59e0b', ['mp3', 'wav', 'aac', 'flac', 'ogg']],
  ['type_document', 'Document', 'document', '#10b981', ['pdf', 'doc', 'docx', 'txt', 'md', 'pptx', 'xlsx', 'csv']],
  ['type_3d', '3D', 'model', '#14b8a6', ['obj', 'fbx', 'glb', 'gltf', 'blend', 'usdz']],
  ['type_other', 'Other', 'file', '#6b7280', []],
] as const;

export function seedReferenceData(db: Db): void {
  const tier = db.prepare(
    `INSERT OR IGNORE INTO tiers (id, type, name, level, max_storage, cost_per_license, cost_per_extra_tb)
     VALUES (@id, @type, @name, @level, @max_storage, @cost_per_license, @cost_per_extra_tb)`,
  );
  for (const t of TIERS) tier.run(t);
  db.prepare(
    `INSERT OR IGNORE INTO account_types (id, name, max_storage, max_assets, max_users, cost_per_user, add_storage_price)
     VALUES ('type_team', 'Team', 10240, 1000000, 500, 25, 15)`,
  ).run();
  const type = db.prepare(
    'INSERT OR IGNORE INTO asset_types (id, name, display_type, color, generic, known_extensions) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const [id, name, display, color, exts] of ASSET_TYPES) {
    type.run(id, name, display, color, exts.length === 0 ? 1 : 0, JSON.stringify(exts));
  }
}

/** The asset type a file name suggests. */
export function assetTypeFor(fileName: string): string {
  const ext = fileName.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase() : '';
  const match = ASSET_TYPES.find(([, , , , exts]) => (exts as readonly string[]).includes(ext));
  return match ? match[0] : 'type_other';
}
