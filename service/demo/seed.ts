/**
 * Demo data: a Pro account, a designer with an API key, a colleague, one workspace with nested
 * folders and generated assets of several kinds with several versions, tags, comments, open review
 * requests and change requests. Everything goes through the same domain functions as the API.
 * Pictures, PDFs, PSDs, audio and video are real files whose versions look different
 * (media.ts); formats nobody here can draw (InDesign, Sketch, glTF...) hold made-up bytes.
 */
import { createHash } from 'node:crypto';
import type { ServiceContext } from '../context.js';
import { createAsset, createVersion } from '../domain/assets.js';
import { storeBlob } from '../domain/blobs.js';
import { createFolder } from '../domain/folders.js';
import { addAccountMember, addWorkspaceMember, createAccount, createApiKey, createUser, createWorkspace } from '../domain/tenancy.js';
import { newId, now } from '../http/ids.js';
import { nextSequence } from '../store/sequence.js';
import { demoMedia } from './media.js';

export interface DemoOptions {
  /** How many assets (default 24). */
  assets?: number;
  /** Tier of the account (default Pro). */
  tierId?: string;
  accountName?: string;
}

export interface Credentials {
  userId: string;
  apiKey: string;
  apiSecret: string;
  email: string;
}

export interface DemoInfo {
  accountId: string;
  workspaceId: string;
  user: Credentials;
  colleague: Credentials;
  assetIds: string[];
  folderIds: Record<string, string>;
}

export interface Tenant {
  accountId: string;
  workspaceId: string;
  user: Credentials;
}

/** An account with one user, one key and one empty workspace: what isolation tests need. */
export function createTenant(ctx: ServiceContext, input: { name: string; tierId?: string; email?: string }): Tenant {
  return ctx.db.transaction(() => {
    const email = input.email ?? `${input.name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}.${newId().slice(0, 6)}@example.com`;
    const userId = createUser(ctx.db, { email, firstName: input.name, lastName: 'User' });
    const { key, secret } = createApiKey(ctx.db, userId);
    const accountId = createAccount(ctx.db, { name: input.name, tierId: input.tierId ?? 'tier_pro', creatorId: userId });
    const workspaceId = createWorkspace(ctx.db, { accountId, name: `${input.name} workspace`, creatorId: userId });
    return { accountId, workspaceId, user: { userId, apiKey: key, apiSecret: secret, email } };
  })();
}

const FOLDERS = ['Brand', 'Brand/Logos', 'Brand/Colors', 'Campaigns', 'Campaigns/Spring', 'Campaigns/Spring/Social', 'Campaigns/Spring/Print', 'Photography', 'Docs'];
const FILES: Array<[folder: string, name: string]> = [
  ['Brand/Logos', 'logo-primary.svg'], ['Brand/Logos', 'logo-mono.svg'], ['Brand/Logos', 'logo-mark.png'],
  ['Brand/Colors', 'palette.ase'], ['Brand/Colors', 'swatches.pdf'], ['Brand', 'brand-guidelines.pdf'],
  ['Campaigns/Spring/Social', 'hero.psd'], ['Campaigns/Spring/Social', 'story-01.png'], ['Campaigns/Spring/Social', 'story-02.webp'],
  ['Campaigns/Spring/Social', 'teaser.webm'], ['Campaigns/Spring/Print', 'poster-a2.indd'], ['Campaigns/Spring/Print', 'flyer.ai'],
  ['Campaigns/Spring', 'brief.md'], ['Campaigns/Spring', 'copy-deck.docx'], ['Photography', 'studio-001.jpg'],
  ['Photography', 'studio-002.jpg'], ['Photography', 'studio-003.jpg'], ['Photography', 'location-scout.heic'],
  ['Docs', 'asset-naming.md'], ['Docs', 'budget.xlsx'], ['Docs', 'voiceover.wav'], ['', 'README.txt'],
  ['Campaigns', 'product-render.glb'], ['Brand', 'typography.sketch'],
];

/** Deterministic bytes for a demo file: a real file where media.ts makes one, text for text formats, pseudo-random otherwise. */
async function demoContent(name: string, version: number): Promise<Buffer> {
  const media = demoMedia(name, version);
  if (media) return media;
  const ext = name.slice(name.lastIndexOf('.') + 1);
  if (['md', 'txt'].includes(ext)) {
    return Buffer.from(`# ${name}\n\nVersion ${version} of the demo document.\n${'Lorem ipsum dolor sit amet. '.repeat(20 * version)}\n`);
  }
  const size = 4096 + ((createHash('sha256').update(name).digest().readUInt32BE(0) % 60) * 1024) + version * 512;
  const out = Buffer.alloc(size);
  let block = createHash('sha256').update(`${name}#${version}`).digest();
  for (let offset = 0; offset < size; offset += block.length) {
    block.copy(out, offset);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

export async function seedDemo(ctx: ServiceContext, options: DemoOptions = {}): Promise<DemoInfo> {
  const { db } = ctx;
  const tenant = createTenant(ctx, { name: options.accountName ?? 'Northwind Studio', tierId: options.tierId ?? 'tier_pro', email: `dana.${newId().slice(0, 6)}@northwind.example` });
  const colleagueEmail = `rafael.${newId().slice(0, 6)}@northwind.example`;
  const colleagueId = createUser(db, { email: colleagueEmail, firstName: 'Rafael', lastName: 'Reviewer' });
  const colleagueKey = createApiKey(db, colleagueId);
  addAccountMember(db, tenant.accountId, colleagueId, ['member']);
  addWorkspaceMember(db, tenant.workspaceId, colleagueId, ['editor']);
  db.prepare("UPDATE users SET first_name = 'Dana', last_name = 'Designer', occupation = 'Designer' WHERE id = ?").run(tenant.user.userId);
  db.prepare("UPDATE workspaces SET name = 'Spring Campaign' WHERE id = ?").run(tenant.workspaceId);

  const me = { userId: tenant.user.userId, workspaceId: tenant.workspaceId };
  const colleague = { userId: colleagueId, workspaceId: tenant.workspaceId };
  const folderIds: Record<string, string> = {};
  for (const path of FOLDERS) {
    const slash = path.lastIndexOf('/');
    const parent = slash < 0 ? null : folderIds[path.slice(0, slash)];
    folderIds[path] = createFolder(db, me, { name: path.slice(slash + 1), parent_id: parent ?? null }).id;
  }

  const count = options.assets ?? FILES.length;
  const assetIds: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const [folder, baseName] = FILES[i % FILES.length] ?? ['', 'file.bin'];
    const round = Math.floor(i / FILES.length);
    const name = round === 0 ? baseName : baseName.replace(/(\.[^.]+)?$/, ` ${round + 1}$1`);
    const versions = 1 + (i % 4);
    let assetId = '';
    let parent: string | null = null;
    for (let v = 1; v <= versions; v += 1) {
      const author = v % 2 === 1 ? me : colleague;
      const blob = await storeBlob(ctx, await demoContent(name, v), { fileName: name, contentType: 'application/octet-stream', userId: author.userId, workspaceId: tenant.workspaceId, accountId: tenant.accountId });
      if (v === 1) {
        const asset = createAsset(db, author, { key: blob.key, file_name: name, folder_id: folder ? folderIds[folder] ?? null : null, checksum: blob.checksum });
        assetId = asset.id;
        parent = asset.current_version_id;
      } else {
        parent = createVersion(db, author, assetId, { key: blob.key, checksum: blob.checksum, commit_parent_id: parent, description: `Revision ${v}` }).version.id;
      }
    }
    assetIds.push(assetId);
  }

  seedCollaboration(ctx, { ...tenant, colleagueId, assetIds });
  return {
    accountId: tenant.accountId,
    workspaceId: tenant.workspaceId,
    user: tenant.user,
    colleague: { userId: colleagueId, apiKey: colleagueKey.key, apiSecret: colleagueKey.secret, email: colleagueEmail },
    assetIds,
    folderIds,
  };
}

/** Tags, comments, open review requests for the user, and change requests assigned to them. */
function seedCollaboration(ctx: ServiceContext, t: Tenant & { colleagueId: string; assetIds: string[] }): void {
  const { db } = ctx;
  const at = now();
  db.transaction(() => {
    const tagIds = ['final', 'draft', 'hero', 'needs-review'].map((name, i) => {
      const id = newId();
      db.prepare('INSERT INTO tags (id, workspace_id, name, color, created_by_user_id, sequence) VALUES (?, ?, ?, ?, ?, ?)').run(
        id, t.workspaceId, name, ['#10b981', '#f59e0b', '#ef4444', '#3b82f6'][i], t.user.userId, nextSequence(db, t.workspaceId));
      return id;
    });
    t.assetIds.forEach((assetId, i) => {
      const tag = tagIds[i % tagIds.length];
      if (tag) db.prepare('INSERT OR IGNORE INTO asset_tags (asset_id, tag_id) VALUES (?, ?)').run(assetId, tag);
    });
    const current = (assetId: string) => (db.prepare('SELECT current_version_id AS id FROM assets WHERE id = ?').get(assetId) as { id: string }).id;
    for (const assetId of t.assetIds.slice(0, 4)) {
      db.prepare('INSERT INTO comments (id, asset_id, workspace_id, user_id, content, mentions, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
        newId(), assetId, t.workspaceId, t.colleagueId, 'Looks great, small tweak on the margins?', JSON.stringify([t.user.userId]), at, at);
    }
    for (const assetId of t.assetIds.slice(4, 7)) {
      db.prepare(
        `INSERT INTO review_requests (id, workspace_id, asset_id, asset_version_id, requestor_id, user_id, review_id, message, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
      ).run(newId(), t.workspaceId, assetId, current(assetId), t.colleagueId, t.user.userId, 'Could you review this before Friday?', at, at);
    }
    for (const assetId of t.assetIds.slice(7, 9)) {
      db.prepare(
        `INSERT INTO reviews (id, asset_id, workspace_id, asset_version_id, user_id, assigned_user_id, status, content, mentions, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'rejected', ?, '[]', ?, ?)`,
      ).run(newId(), assetId, t.workspaceId, current(assetId), t.colleagueId, t.user.userId, 'Please increase the contrast of the headline.', at, at);
    }
  })();
}
