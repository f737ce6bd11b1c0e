/**
 * Contract: who may call what (docs/protocol.md, "Roles and permissions"). The table is read from
 * the document itself and must equal the service's own; then every row is called by a caller of
 * every role, and the answer must follow the table: allowed is anything but 403 `forbidden`,
 * refused is exactly that. The document, the table and the answers cannot drift apart.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../service/http/permissions.js';
import { addAccountMember, addWorkspaceMember, createApiKey, createUser } from '../../service/domain/tenancy.js';
import { errorCode, signIn, startTestService, type ApiResponse, type Session, type TestService } from '../helpers/service.js';

interface Row {
  method: string;
  path: string;
  case: string;
  who: string;
}

/** The rows of the table under "Roles and permissions" in docs/protocol.md. */
function documentedRows(): Row[] {
  const doc = readFileSync(new URL('../../docs/protocol.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('### Roles and permissions'));
  const rows: Row[] = [];
  for (const line of section.split('\n')) {
    const m = /^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \| (\w*) \| ([a-z ]+) \|$/.exec(line);
    if (m) rows.push({ method: m[1] ?? '', path: m[2] ?? '', case: m[3] ?? '', who: m[4] ?? '' });
    else if (rows.length > 0 && !line.startsWith('|')) break;
  }
  return rows;
}

const key = (r: Row) => `${r.method} ${r.path} ${r.case} → ${r.who}`;

const WORKSPACE_RANK = ['viewer', 'commenter', 'editor', 'admin', 'owner'];
const ACCOUNT_RANK = ['member', 'admin', 'owner'];

interface Caller {
  label: string;
  accountRole: string;
  workspaceRole: string;
  session: Session;
}

/** The table's rule, written again from the document's prose: the oracle the answers are held to. */
function allowed(who: string, caller: Caller): boolean {
  const [scope, role = ''] = who.split(' ');
  if (scope === 'anyone' || scope === 'user') return true;
  if (scope === 'account') return ACCOUNT_RANK.indexOf(caller.accountRole) >= ACCOUNT_RANK.indexOf(role);
  // The owners and admins of the account are admins of its workspaces.
  const own = WORKSPACE_RANK.indexOf(caller.workspaceRole);
  const fromAccount = caller.accountRole === 'member' ? -1 : WORKSPACE_RANK.indexOf('admin');
  return Math.max(own, fromAccount) >= WORKSPACE_RANK.indexOf(role);
}

/** Rows whose allowed call would end the caller's workspace, account or user, or their membership: called last, or on something made for them. */
const LAST = (r: Row) => r.case === 'self' || (r.method === 'DELETE' && ['/users', '/accounts', '/workspaces'].includes(r.path));

describe('permissions', () => {
  let t: TestService;
  const callers: Caller[] = [];
  beforeAll(async () => {
    t = await startTestService({ demo: { assets: 1 } });
    const { db } = t.service;
    const who = [
      ...WORKSPACE_RANK.map((role) => ({ accountRole: 'member', workspaceRole: role })),
      { accountRole: 'admin', workspaceRole: 'viewer' },
      { accountRole: 'owner', workspaceRole: 'viewer' },
    ];
    for (const { accountRole, workspaceRole } of who) {
      const email = `${accountRole}.${workspaceRole}.${randomUUID().slice(0, 6)}@example.com`;
      const userId = createUser(db, { email, firstName: accountRole, lastName: workspaceRole });
      const { key: apiKey, secret: apiSecret } = createApiKey(db, userId);
      addAccountMember(db, t.demo.accountId, userId, [accountRole]);
      addWorkspaceMember(db, t.demo.workspaceId, userId, [workspaceRole]);
      const session = await signIn(t.service.url, { userId, accountId: t.demo.accountId, workspaceId: t.demo.workspaceId, apiKey, apiSecret });
      callers.push({ label: `account ${accountRole}, workspace ${workspaceRole}`, accountRole, workspaceRole, session });
    }
  });
  afterAll(() => t?.stop());

  it('documents exactly the table the service enforces', () => {
    const documented = documentedRows().map(key).sort();
    expect(documented.length).toBeGreaterThan(80);
    expect(documented).toEqual(PERMISSIONS.map((p) => key({ ...p, case: p.case ?? '' })).sort());
  });

  it('asks for a review only a member who may review: a viewer is refused (400), a commenter is asked', async () => {
    const assetId = t.demo.assetIds[0] ?? '';
    const byRole = (role: string) => callers.find((c) => c.accountRole === 'member' && c.workspaceRole === role)?.session.userId ?? '';
    const viewer = await t.api('POST', `/workspaces/assets/${assetId}/reviewRequests/${byRole('viewer')}`, { body: {} });
    expect({ status: viewer.status, code: errorCode(viewer) }).toEqual({ status: 400, code: 'invalid_request' });
    expect((await t.api('POST', `/workspaces/assets/${assetId}/reviewRequests/${byRole('commenter')}`, { body: {} })).status).toBe(201);
  });

  /** The row's request by this caller: ids nobody has (an allowed call then fails later, with 400 or 404), or the caller's own id for `self`. */
  async function call(row: Row, caller: Caller, workspaceId = t.demo.workspaceId): Promise<ApiResponse> {
    const path = row.path.replace(/\{([a-z_]+)\}/g, (_, name: string) =>
      row.case === 'self' && (name === 'user_id' || name === 'member_id') ? caller.session.userId : randomUUID());
    const body = row.method === 'GET' ? undefined
      : row.path === '/workspaces/assets' && row.method === 'DELETE' ? { asset_ids: [randomUUID()], ...(row.case === 'permanent' ? { permanent: true } : {}) }
        : {};
    return caller.session.api(row.method, path, { ...(body ? { body } : {}), headers: { 'x-workspace-id': workspaceId } });
  }

  function judge(row: Row, caller: Caller, res: ApiResponse): string | undefined {
    const refused = res.status === 403 && errorCode(res) === 'forbidden';
    const expected = allowed(row.who, caller);
    if (res.status >= 500) return `${key(row)} by ${caller.label}: ${res.status}`;
    if (expected && refused) return `${key(row)} by ${caller.label}: refused (${res.text.slice(0, 120)})`;
    if (!expected && !refused) return `${key(row)} by ${caller.label}: answered ${res.status}, not 403 forbidden`;
    return undefined;
  }

  it('answers every route for every role as the table says: 403 forbidden when the role is short, anything else when it is not', async () => {
    const rows = documentedRows();
    const failures: string[] = [];
    for (const row of rows.filter((r) => !LAST(r))) {
      for (const caller of callers) {
        const problem = judge(row, caller, await call(row, caller));
        if (problem) failures.push(problem);
      }
    }
    // Deleting a workspace: each caller on a workspace of their own, made for the call.
    const deleteWorkspace = rows.find((r) => r.method === 'DELETE' && r.path === '/workspaces');
    for (const caller of deleteWorkspace ? callers : []) {
      const workspace = await t.api<{ id: string }>('POST', '/workspaces', { body: { name: `to delete ${randomUUID().slice(0, 8)}` } });
      expect((await t.api('POST', `/workspaces/members/${caller.session.userId}`, { body: { roles: [caller.workspaceRole] }, headers: { 'x-workspace-id': workspace.json.id } })).status).toBe(201);
      const problem = deleteWorkspace && judge(deleteWorkspace, caller, await call(deleteWorkspace, caller, workspace.json.id));
      if (problem) failures.push(problem);
    }
    // Leaving: the workspace first, then the account, then the user goes.
    for (const path of ['/workspaces/members/{user_id}', '/accounts/members/{member_id}']) {
      const row = rows.find((r) => r.case === 'self' && r.path === path);
      expect(row, path).toBeDefined();
      for (const caller of row ? callers : []) {
        const problem = row && judge(row, caller, await call(row, caller));
        if (problem) failures.push(problem);
      }
    }
    const deleteUser = rows.find((r) => r.method === 'DELETE' && r.path === '/users');
    for (const caller of deleteUser ? callers : []) {
      const problem = deleteUser && judge(deleteUser, caller, await call(deleteUser, caller));
      if (problem) failures.push(problem);
    }
    expect(failures).toEqual([]);
  });

  it('lets only an account owner delete the account', async () => {
    const row = documentedRows().find((r) => r.method === 'DELETE' && r.path === '/accounts');
    expect(row?.who).toBe('account owner');
    for (const accountRole of ACCOUNT_RANK) {
      const tenant = t.service.createTenant(`Deleted as ${accountRole}`);
      const userId = createUser(t.service.db, { email: `${accountRole}.${randomUUID().slice(0, 6)}@example.com` });
      const { key: apiKey, secret: apiSecret } = createApiKey(t.service.db, userId);
      addAccountMember(t.service.db, tenant.accountId, userId, [accountRole]);
      addWorkspaceMember(t.service.db, tenant.workspaceId, userId, ['viewer']);
      const session = await signIn(t.service.url, { userId, accountId: tenant.accountId, workspaceId: tenant.workspaceId, apiKey, apiSecret });
      const caller = { label: `account ${accountRole}`, accountRole, workspaceRole: 'viewer', session };
      expect(row && judge(row, caller, await call(row, caller, tenant.workspaceId))).toBeUndefined();
    }
  });
});
