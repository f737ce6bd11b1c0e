/** Role names [ours] and the checks that management endpoints share. */
import { z } from 'zod';
import type { Db } from '../db/open.js';
import { forbidden } from '../http/errors.js';

export const AccountRole = z.enum(['owner', 'admin', 'member']);
export const WorkspaceRole = z.enum(['owner', 'admin', 'editor', 'commenter', 'viewer']);
export type AccountRole = z.infer<typeof AccountRole>;

export function accountRoles(db: Db, accountId: string, userId: string): string[] {
  const row = db.prepare('SELECT roles FROM account_members WHERE account_id = ? AND user_id = ?').get(accountId, userId) as { roles: string } | undefined;
  return row ? (JSON.parse(row.roles) as string[]) : [];
}

export function workspaceRoles(db: Db, workspaceId: string, userId: string): string[] {
  const row = db.prepare('SELECT roles FROM workspace_members WHERE workspace_id = ? AND user_id = ?').get(workspaceId, userId) as { roles: string } | undefined;
  return row ? (JSON.parse(row.roles) as string[]) : [];
}

const hasAny = (held: string[], wanted: readonly string[]) => held.some((r) => wanted.includes(r));

/** 403 unless the caller holds one of `wanted` on the account. */
export function requireAccountRole(db: Db, accountId: string, userId: string, wanted: readonly AccountRole[]): void {
  if (!hasAny(accountRoles(db, accountId, userId), wanted)) throw forbidden(`This needs the ${wanted.join(' or ')} role on the account.`);
}

/** Workspace management: an owner or admin of the workspace, or of its account. */
export function requireWorkspaceManager(db: Db, caller: { accountId: string; workspaceId: string; userId: string }): void {
  const manager = ['owner', 'admin'] as const;
  if (hasAny(workspaceRoles(db, caller.workspaceId, caller.userId), manager)) return;
  if (hasAny(accountRoles(db, caller.accountId, caller.userId), manager)) return;
  throw forbidden('This needs the owner or admin role on the workspace or its account.');
}

export const isWorkspaceMember = (db: Db, workspaceId: string, userId: string): boolean =>
  db.prepare('SELECT 1 FROM workspace_members WHERE workspace_id = ? AND user_id = ?').get(workspaceId, userId) !== undefined;
