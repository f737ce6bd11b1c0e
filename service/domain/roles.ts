/**
 * Role names [ours] and their order: each role may do what the ones before it may, and more
 * (docs/protocol.md, "Roles and permissions"). Which role each endpoint needs is the table of
 * http/permissions.ts.
 */
import { z } from 'zod';
import type { Db } from '../db/db.js';

/** Least to most. */
export const ACCOUNT_ROLES = ['member', 'admin', 'owner'] as const;
/** Least to most. */
export const WORKSPACE_ROLES = ['viewer', 'commenter', 'editor', 'admin', 'owner'] as const;

export const AccountRole = z.enum(ACCOUNT_ROLES);
export const WorkspaceRole = z.enum(WORKSPACE_ROLES);
export type AccountRole = z.infer<typeof AccountRole>;
export type WorkspaceRole = z.infer<typeof WorkspaceRole>;

/** The rank of the highest of `held` in `order`; -1 when none of them is a role of it. */
const highest = (held: readonly string[], order: readonly string[]): number => Math.max(-1, ...held.map((r) => order.indexOf(r)));

export const accountRank = (held: readonly string[]): number => highest(held, ACCOUNT_ROLES);

/** What a member may do in a workspace: their roles there, and admin for the owners and admins of its account. */
export function workspaceRank(workspaceRoles: readonly string[], accountRoles: readonly string[]): number {
  const fromAccount = accountRank(accountRoles) >= ACCOUNT_ROLES.indexOf('admin') ? WORKSPACE_ROLES.indexOf('admin') : -1;
  return Math.max(highest(workspaceRoles, WORKSPACE_ROLES), fromAccount);
}

export function accountRoles(db: Db, accountId: string, userId: string): string[] {
  const row = db.prepare('SELECT roles FROM account_members WHERE account_id = ? AND user_id = ?').get(accountId, userId) as { roles: string } | undefined;
  return row ? (JSON.parse(row.roles) as string[]) : [];
}

export function workspaceRoles(db: Db, workspaceId: string, userId: string): string[] {
  const row = db.prepare('SELECT roles FROM workspace_members WHERE workspace_id = ? AND user_id = ?').get(workspaceId, userId) as { roles: string } | undefined;
  return row ? (JSON.parse(row.roles) as string[]) : [];
}

/** Whether a member of the workspace holds at least `role` there (their account roles counted). */
export function holdsWorkspaceRole(db: Db, workspaceId: string, userId: string, role: WorkspaceRole): boolean {
  const accountId = (db.prepare('SELECT account_id FROM workspaces WHERE id = ?').get(workspaceId) as { account_id: string } | undefined)?.account_id;
  const account = accountId === undefined ? [] : accountRoles(db, accountId, userId);
  return workspaceRank(workspaceRoles(db, workspaceId, userId), account) >= WORKSPACE_ROLES.indexOf(role);
}

export const isWorkspaceMember = (db: Db, workspaceId: string, userId: string): boolean =>
  db.prepare('SELECT 1 FROM workspace_members WHERE workspace_id = ? AND user_id = ?').get(workspaceId, userId) !== undefined;
