/**
 * Who may call what [ours]: the reference names no roles per endpoint, so the service decides it
 * here, in one table, checked for every request before its handler runs (app.ts). The table also
 * says what each route authenticates (no token, a token, an account, a workspace). It is written
 * out in docs/protocol.md ("Roles and permissions"), and test/contract/permissions.test.ts holds
 * the document, this table and the answers to each other; a route missing from the table, or a
 * row without a route, stops the service from starting.
 */
import type { FastifyRequest } from 'fastify';
import { ACCOUNT_ROLES, WORKSPACE_ROLES, accountRank, workspaceRank, type AccountRole, type WorkspaceRole } from '../domain/roles.js';
import type { AuthContext, AuthLevel } from './auth.js';
import { forbidden } from './errors.js';

export type Who = 'anyone' | 'user' | `account ${AccountRole}` | `workspace ${WorkspaceRole}`;

/** A narrower reading of a route, with a rule of its own. */
export type Case = 'permanent' | 'self';

export interface Permission {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As the reference writes it: `/workspaces/assets/{asset_id}`. */
  path: string;
  case?: Case;
  who: Who;
}

const row = (method: Permission['method'], path: string, who: Who, narrower?: Case): Permission =>
  narrower ? { method, path, who, case: narrower } : { method, path, who };
const A = '/workspaces/assets/{asset_id}';

export const PERMISSIONS: readonly Permission[] = [
  row('POST', '/auth/token', 'anyone'),

  row('GET', '/users', 'user'), row('PATCH', '/users', 'user'), row('DELETE', '/users', 'user'),
  row('GET', '/users/permissions', 'user'), row('GET', '/users/accounts', 'user'),

  row('GET', '/accounts', 'account member'), row('PUT', '/accounts', 'account admin'), row('DELETE', '/accounts', 'account owner'),
  row('GET', '/accounts/download', 'account member'),
  row('GET', '/accounts/members', 'account member'), row('PUT', '/accounts/members/{member_id}', 'account admin'),
  row('DELETE', '/accounts/members/{member_id}', 'account admin'), row('DELETE', '/accounts/members/{member_id}', 'account member', 'self'),
  row('GET', '/accounts/workspaces', 'account member'),
  row('GET', '/accounts/settings', 'account member'), row('PUT', '/accounts/settings/{setting_id}', 'account admin'),
  row('GET', '/accounts/history', 'account member'),
  row('GET', '/accounts/invites', 'account member'), row('POST', '/accounts/invites', 'account admin'),
  row('DELETE', '/accounts/invites/{invite_id}', 'account admin'),
  row('GET', '/changeRequests', 'account member'), row('GET', '/reviewRequests', 'account member'),
  row('POST', '/workspaces', 'account admin'), row('GET', '/workspaces', 'account member'),

  row('PUT', '/workspaces', 'workspace admin'), row('DELETE', '/workspaces', 'workspace admin'),
  row('GET', '/workspaces/members', 'workspace viewer'), row('POST', '/workspaces/members/{user_id}', 'workspace admin'),
  row('DELETE', '/workspaces/members/{user_id}', 'workspace admin'), row('DELETE', '/workspaces/members/{user_id}', 'workspace viewer', 'self'),
  row('GET', '/workspaces/settings', 'workspace viewer'), row('PUT', '/workspaces/settings', 'workspace admin'),
  // A comment's attachment is an upload: whoever may comment may upload.
  row('POST', '/workspaces/upload', 'workspace viewer'), row('POST', '/workspaces/download/assets', 'workspace viewer'),
  row('GET', '/workspaces/folders/hierarchy', 'workspace viewer'), row('GET', '/workspaces/changes', 'workspace viewer'),
  row('POST', '/workspaces/folders', 'workspace editor'), row('GET', '/workspaces/folders/{folder_id}', 'workspace viewer'),
  row('PUT', '/workspaces/folders/{folder_id}', 'workspace editor'), row('DELETE', '/workspaces/folders/{folder_id}', 'workspace editor'),
  row('GET', '/workspaces/libraries', 'workspace viewer'), row('POST', '/workspaces/libraries', 'workspace editor'),
  row('PUT', '/workspaces/libraries/{library_id}', 'workspace editor'), row('DELETE', '/workspaces/libraries/{library_id}', 'workspace editor'),
  row('GET', '/workspaces/tags', 'workspace viewer'), row('POST', '/workspaces/tags', 'workspace editor'),
  row('DELETE', '/workspaces/tags/{tag_id}', 'workspace editor'),
  row('POST', '/workspaces/tasks', 'workspace editor'), row('GET', '/workspaces/tasks/{task_id}', 'workspace viewer'),
  row('PUT', '/workspaces/tasks/{task_id}', 'workspace editor'), row('DELETE', '/workspaces/tasks/{task_id}', 'workspace editor'),

  row('POST', '/workspaces/assets', 'workspace editor'),
  row('DELETE', '/workspaces/assets', 'workspace editor'), row('DELETE', '/workspaces/assets', 'workspace admin', 'permanent'),
  row('GET', A, 'workspace viewer'), row('PUT', A, 'workspace editor'),
  row('PATCH', `${A}/restore`, 'workspace editor'), row('GET', `${A}/download`, 'workspace viewer'),
  row('GET', `${A}/versions`, 'workspace viewer'), row('POST', `${A}/versions`, 'workspace editor'),
  row('GET', `${A}/versions/{version_id}`, 'workspace viewer'), row('PATCH', `${A}/versions/{version_id}`, 'workspace editor'),
  row('DELETE', `${A}/versions/{version_id}`, 'workspace editor'), row('PATCH', `${A}/versions/{version_id}/restore`, 'workspace editor'),
  row('GET', `${A}/versions/{version_id}/download`, 'workspace viewer'),
  row('GET', `${A}/tags`, 'workspace viewer'), row('POST', `${A}/tags`, 'workspace editor'),
  row('GET', `${A}/tags/{tag_id}`, 'workspace viewer'), row('POST', `${A}/tags/{tag_id}`, 'workspace editor'),
  row('DELETE', `${A}/tags/{tag_id}`, 'workspace editor'),
  row('GET', `${A}/tasks`, 'workspace viewer'),
  row('POST', `${A}/comments`, 'workspace viewer'), row('GET', `${A}/comments`, 'workspace viewer'),
  row('GET', `${A}/comments/{comment_id}`, 'workspace viewer'), row('PUT', `${A}/comments/{comment_id}`, 'workspace viewer'),
  row('DELETE', `${A}/comments/{comment_id}`, 'workspace viewer'),
  row('POST', `${A}/reviews`, 'workspace commenter'), row('GET', `${A}/reviews`, 'workspace viewer'),
  row('GET', `${A}/reviews/{review_id}`, 'workspace viewer'), row('PUT', `${A}/reviews/{review_id}`, 'workspace commenter'),
  row('DELETE', `${A}/reviews/{review_id}`, 'workspace commenter'),
  row('POST', `${A}/reviewRequests/{user_id}`, 'workspace commenter'), row('GET', `${A}/reviewRequests`, 'workspace viewer'),
  row('PUT', `${A}/reviewRequests/{user_id}`, 'workspace commenter'), row('DELETE', `${A}/reviewRequests/{user_id}`, 'workspace commenter'),
  row('GET', `${A}/history`, 'workspace viewer'), row('GET', `${A}/history/review`, 'workspace viewer'),
];

/** `DELETE /workspaces/assets` deletes for good when its body says so, or, without a word in the body, its query. */
export function deletesPermanently(body: unknown, query: unknown): boolean {
  const inBody = (body as { permanent?: unknown } | null | undefined)?.permanent;
  return inBody === undefined ? (query as { permanent?: unknown } | undefined)?.permanent === 'true' : inBody === true;
}

const CASES: Record<Case, (request: FastifyRequest, auth: AuthContext) => boolean> = {
  permanent: (request) => deletesPermanently(request.body, request.query),
  self: (request, auth) => {
    const params = request.params as { user_id?: string; member_id?: string };
    return (params.user_id ?? params.member_id) === auth.userId;
  },
};

/** `/workspaces/assets/:asset_id` (Fastify) → `/workspaces/assets/{asset_id}` (the reference). */
const referencePath = (routeUrl: string): string => routeUrl.replace(/:(\w+)/g, '{$1}');
/** HEAD is answered by the GET route. */
const routeKey = (method: string, routeUrl: string): string => `${method === 'HEAD' ? 'GET' : method} ${referencePath(routeUrl)}`;

const byRoute = new Map<string, Permission[]>();
for (const p of PERMISSIONS) byRoute.set(`${p.method} ${p.path}`, [...(byRoute.get(`${p.method} ${p.path}`) ?? []), p]);

/** What a route authenticates: nothing, a token, a token and an account, or a workspace too. Unknown routes (404s) authenticate as workspace routes, as before. */
export function authLevel(method: string, routeUrl: string | undefined): AuthLevel {
  const rows = routeUrl === undefined ? undefined : byRoute.get(routeKey(method, routeUrl));
  const who = rows?.[0]?.who;
  if (who === undefined) return 'workspace';
  if (who === 'anyone') return 'none';
  if (who === 'user') return 'user';
  return who.startsWith('account') ? 'account' : 'workspace';
}

/** Throws 403 `forbidden` unless the caller's roles meet the route's row (the row of its case, when one applies). */
export function authorize(request: FastifyRequest, auth: AuthContext | undefined): void {
  const url = request.routeOptions.url;
  const rows = url === undefined ? undefined : byRoute.get(routeKey(request.method, url));
  if (!rows || !auth) return;
  const rule = rows.find((r) => r.case !== undefined && CASES[r.case](request, auth)) ?? rows.find((r) => r.case === undefined);
  const [scope, role] = (rule?.who ?? 'anyone').split(' ') as [string, (AccountRole & WorkspaceRole) | undefined];
  if (role === undefined) return;
  if (scope === 'account') {
    if (accountRank(auth.accountRoles ?? []) >= ACCOUNT_ROLES.indexOf(role)) return;
    throw forbidden(`This needs the ${role} role on the account.`);
  }
  if (workspaceRank(auth.workspaceRoles ?? [], auth.accountRoles ?? []) >= WORKSPACE_ROLES.indexOf(role)) return;
  throw forbidden(`This needs the ${role} role on the workspace (or owner or admin of its account).`);
}

/** The table and the routes, both ways: a route no row covers, or a row no route answers, is a mistake found at start. */
export function checkRoutesCovered(routes: ReadonlyArray<{ method: string; url: string }>): void {
  const served = new Set(routes.filter((r) => r.method !== 'HEAD').map((r) => routeKey(r.method, r.url)));
  const uncovered = [...served].filter((k) => !byRoute.has(k));
  const unserved = [...byRoute.keys()].filter((k) => !served.has(k));
  if (uncovered.length > 0 || unserved.length > 0) {
    throw new Error(`The permission table and the routes differ: without a row: ${uncovered.join(', ') || 'none'}; without a route: ${unserved.join(', ') || 'none'}`);
  }
}
