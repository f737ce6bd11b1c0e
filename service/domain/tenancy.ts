/** Users, keys, accounts and workspaces: created by the demo seed, tests and the workspace routes. */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/db.js';
import { hashSecret } from '../http/auth.js';
import { newId, now } from '../http/ids.js';

export function createUser(db: Db, input: { email: string; firstName?: string; lastName?: string; username?: string; company?: string }): string {
  const id = newId();
  db.prepare(
    `INSERT INTO users (id, idp_user_id, username, email, first_name, last_name, company, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, `idp|${id}`, input.username ?? input.email.split('@')[0], input.email, input.firstName ?? '', input.lastName ?? '', input.company ?? null, now());
  return id;
}

/** A key and secret pair; only the secret's hash is kept, as a real service would. */
export function createApiKey(db: Db, userId: string): { key: string; secret: string } {
  const key = `ak_${randomBytes(12).toString('hex')}`;
  const secret = `sk_${randomBytes(24).toString('hex')}`;
  db.prepare('INSERT INTO api_keys (key, secret_hash, user_id, created_at) VALUES (?, ?, ?, ?)').run(key, hashSecret(secret), userId, now());
  return { key, secret };
}

export function createAccount(db: Db, input: { name: string; tierId: string; creatorId: string }): string {
  const id = newId();
  db.prepare(
    `INSERT INTO accounts (id, name, tier_id, type_id, created_by_user_id, created_at) VALUES (?, ?, ?, 'type_team', ?, ?)`,
  ).run(id, input.name, input.tierId, input.creatorId, now());
  db.prepare(
    `INSERT INTO subscriptions (account_id, billing_customer_id, status, licenses, frequency, contact) VALUES (?, ?, 'active', 10, 'yearly', ?)`,
  ).run(id, `cus_${randomBytes(6).toString('hex')}`, 'billing@example.com');
  addAccountMember(db, id, input.creatorId, ['owner']);
  return id;
}

export function addAccountMember(db: Db, accountId: string, userId: string, roles: string[]): void {
  db.prepare('INSERT OR REPLACE INTO account_members (account_id, user_id, roles) VALUES (?, ?, ?)').run(accountId, userId, JSON.stringify(roles));
}

export function createWorkspace(db: Db, input: { accountId: string; name: string; creatorId: string; defaultAvatar?: number }): string {
  const id = newId();
  db.prepare(
    `INSERT INTO workspaces (id, account_id, name, default_avatar, created_by_user_id, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(id, input.accountId, input.name, input.defaultAvatar ?? 1, input.creatorId, now());
  addWorkspaceMember(db, id, input.creatorId, ['owner']);
  const status = db.prepare('INSERT INTO asset_statuses (id, workspace_id, name, color, rank, created_by_user_id) VALUES (?, ?, ?, ?, ?, ?)');
  for (const [rank, name, color] of [['1', 'In progress', '#f59e0b'], ['2', 'In review', '#3b82f6'], ['3', 'Approved', '#10b981']] as const) {
    status.run(newId(), id, name, color, rank, input.creatorId);
  }
  return id;
}

export function addWorkspaceMember(db: Db, workspaceId: string, userId: string, roles: string[]): void {
  db.prepare('INSERT OR REPLACE INTO workspace_members (workspace_id, user_id, roles) VALUES (?, ?, ?)').run(workspaceId, userId, JSON.stringify(roles));
}
