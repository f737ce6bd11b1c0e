/**
 * docs/openapi.json: generated from shared/api, served by the service, and held against the
 * service by Stoplight Prism. A tour calls every operation of the document through Prism as a
 * validating proxy, with the requests a client would send: any request or answer outside the
 * document is a violation, and the test fails on the first.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument, openApiText, OPERATIONS } from '../../shared/api/openapi.js';
import { PERMISSIONS } from '../../service/http/permissions.js';
import { startPrismProxy, type RunningPrism } from '../helpers/prism.js';
import { signIn, startTestService, type ApiResponse, type Session, type TestService } from '../helpers/service.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const COMMITTED = new URL('../../docs/openapi.json', import.meta.url);

describe('docs/openapi.json', () => {
  it('is what `npm run openapi` writes from shared/api', () => {
    expect(readFileSync(COMMITTED, 'utf8'), 'run `npm run openapi` and commit docs/openapi.json').toBe(openApiText());
  });

  it('has one operation per route of the service, each marked with its origin', () => {
    const routes = new Set(PERMISSIONS.map((p) => `${p.method} ${p.path}`));
    const operations = OPERATIONS.map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(new Set(operations).size).toBe(operations.length);
    expect([...routes].sort()).toEqual([...operations].sort());
    const doc = openApiDocument() as { paths: Record<string, Record<string, { 'x-origin'?: string; tags?: string[] }>> };
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        expect(['reference', 'ours', 'extension'], `${method} ${path}`).toContain(operation['x-origin']);
        expect(operation.tags).toEqual([operation['x-origin']]);
      }
    }
  });
});

describe('the service through Prism', () => {
  let t: TestService;
  let prism: RunningPrism;
  let user: Session;
  let colleague: Session;
  /** The operations the tour called, as `METHOD /template`. */
  const called = new Set<string>();

  beforeAll(async () => {
    t = await startTestService({ demo: { assets: 3 } });
    prism = await startPrismProxy(t.service.url);
    user = await signIn(prism.url, { accountId: t.demo.accountId, workspaceId: t.demo.workspaceId, ...t.demo.user });
    colleague = await signIn(prism.url, { accountId: t.demo.accountId, workspaceId: t.demo.workspaceId, ...t.demo.colleague });
    called.add('POST /auth/token');
  }, 60_000);
  afterAll(async () => {
    await prism?.close();
    await t?.stop();
  });

  /** The template of a concrete path: `/workspaces/assets/abc/versions` → `/workspaces/assets/{asset_id}/versions`. */
  const templateOf = (method: string, path: string): string => {
    const bare = path.split('?')[0] ?? path;
    // A literal segment wins over a parameter: `/workspaces/folders/hierarchy` is not a folder id.
    const params = (path: string): number => path.split('{').length;
    const match = OPERATIONS.filter((o) => o.method === method.toLowerCase() && new RegExp(`^${o.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(bare)).sort(
      (a, b) => params(a.path) - params(b.path),
    )[0];
    return `${method} ${match?.path ?? bare}`;
  };

  /** One call through Prism: the answer must be `status`, and Prism must have seen nothing outside the document. */
  async function call(who: Session, method: string, path: string, status: number, options: Parameters<Session['api']>[2] = {}): Promise<ApiResponse> {
    const res = await who.api(method, path, options);
    called.add(templateOf(method, path));
    expect(res.status, `${method} ${path}: ${res.text.slice(0, 500)}`).toBe(status);
    return res;
  }
  /**
   * A redirect, asked of the service itself: Prism's proxy follows redirects, so it would check
   * the blob instead of the 302. The document gives a 302 a Location and no body.
   */
  async function redirected(who: Session, path: string, headers: Record<string, string | null> = {}): Promise<void> {
    const direct = await signIn(t.service.url, { accountId: who.accountId, workspaceId: who.workspaceId, ...credentialsOf(who) });
    const res = await direct.api('GET', path, { headers });
    called.add(templateOf('GET', path));
    expect(res.status, `GET ${path}: ${res.text.slice(0, 300)}`).toBe(302);
    expect(res.headers.get('location')?.startsWith(t.service.blobUrl)).toBe(true);
  }
  const credentialsOf = (who: Session) => (who.userId === t.demo.user.userId ? t.demo.user : t.demo.colleague);
  const form = (body: unknown, file?: string): FormData => {
    const data = new FormData();
    data.append('body', JSON.stringify(body));
    if (file !== undefined) data.append('file', new Blob([file], { type: 'image/png' }), 'picture.png');
    return data;
  };
  /** An upload of `text` as the client makes it: the ticket through Prism, the bytes to the blob origin. */
  async function upload(text: string): Promise<{ key: string; checksum: string }> {
    const checksum = sha256(text);
    const ticket = (await call(user, 'POST', `/workspaces/upload?file_name=note.txt&content_type=text/plain&checksum=${checksum}&size=${text.length}`, 200)).json as {
      key: string;
      signed_url: string;
    };
    expect((await fetch(ticket.signed_url, { method: 'PUT', body: text })).status).toBe(200);
    return { key: ticket.key, checksum };
  }

  it('answers every operation of the document as the document says', async () => {
    const userOnly = { 'x-account-id': null, 'x-workspace-id': null };
    const accountOnly = { 'x-workspace-id': null };

    await call(user, 'GET', '/openapi.json', 200, { headers: { authorization: null, 'x-account-id': null, 'x-workspace-id': null } });
    // Users.
    await call(user, 'GET', '/users', 200, { headers: userOnly });
    await call(user, 'PATCH', '/users', 200, { headers: userOnly, body: form({ company: 'Northwind', city: 'Lisbon' }, 'avatar') });
    await call(user, 'GET', '/users/permissions', 200, { headers: userOnly });
    await call(user, 'GET', '/users/accounts', 200, { headers: userOnly });

    // Accounts.
    await call(user, 'GET', '/accounts', 200, { headers: accountOnly });
    await call(user, 'PUT', '/accounts', 200, { headers: accountOnly, body: form({ name: 'Northwind Studios' }, 'thumbnail') });
    await redirected(user, '/accounts/download', accountOnly);
    await call(user, 'GET', '/accounts/members', 200, { headers: accountOnly });
    await call(user, 'PUT', `/accounts/members/${colleague.userId}`, 200, { headers: accountOnly, body: { roles: ['member'] } });
    await call(user, 'GET', '/accounts/workspaces', 200, { headers: accountOnly });
    const settings = (await call(user, 'GET', '/accounts/settings', 200, { headers: accountOnly })).json as Array<{ id: string }>;
    await call(user, 'PUT', `/accounts/settings/${settings[0]?.id}`, 200, { headers: accountOnly, body: { value: true } });
    const invite = (await call(user, 'POST', '/accounts/invites', 201, { headers: accountOnly, body: { email: 'new.person@example.com' } })).json as { id: string };
    await call(user, 'GET', '/accounts/invites', 200, { headers: accountOnly });
    await call(user, 'DELETE', `/accounts/invites/${invite.id}`, 200, { headers: accountOnly });
    await call(user, 'GET', '/accounts/history', 200, { headers: accountOnly });

    // Workspaces.
    await call(user, 'GET', '/workspaces', 200);
    await call(user, 'PUT', '/workspaces', 200, { body: form({ name: 'Brand work' }, 'thumbnail') });
    await call(user, 'GET', '/workspaces/members', 200);
    await call(user, 'POST', `/workspaces/members/${colleague.userId}`, 200, { body: { roles: ['editor'] } });
    await call(user, 'GET', '/workspaces/settings', 200);
    await call(user, 'PUT', '/workspaces/settings', 200, { body: { theme: 'dark' } });
    await call(user, 'GET', '/workspaces/folders/hierarchy', 200);
    await call(user, 'GET', '/workspaces/changes?since=0', 200);
    await call(user, 'POST', '/workspaces/download/assets?include_attachments=false', 200);
    const tag = (await call(user, 'POST', '/workspaces/tags', 201, { body: { name: 'Tour stop', color: '#336699' } })).json as { id: string };
    await call(user, 'GET', '/workspaces/tags', 200);
    const library = (await call(user, 'POST', '/workspaces/libraries', 201, { body: { name: 'Logos' } })).json as { id: string };
    await call(user, 'PUT', `/workspaces/libraries/${library.id}`, 200, { body: { name: 'Brand logos' } });
    await call(user, 'GET', '/workspaces/libraries', 200);

    // Folders.
    const folder = (await call(user, 'POST', '/workspaces/folders', 201, { body: { name: 'Tour', parent_id: null } })).json as { id: string };
    await call(user, 'PUT', `/workspaces/folders/${folder.id}`, 200, { body: { name: 'Tour stops' } });
    await call(user, 'GET', `/workspaces/folders/${folder.id}`, 200);

    // Assets and versions.
    const first = await upload('first words');
    const asset = (await call(user, 'POST', '/workspaces/assets', 201, { body: { key: first.key, file_name: 'tour.txt', folder_id: folder.id, checksum: first.checksum, size: 11 } }))
      .json as { id: string; current_version_id: string };
    const A = `/workspaces/assets/${asset.id}`;
    await call(user, 'GET', A, 200);
    await call(user, 'PUT', A, 200, { body: { name: 'Tour notes' } });
    await call(user, 'POST', '/workspaces/assets', 200, { body: { id: asset.id, locked: true } });
    await call(user, 'PUT', A, 200, { body: { locked: false } });
    const second = await upload('second words!');
    const version = (await call(user, 'POST', `${A}/versions`, 201, {
      body: { key: second.key, checksum: second.checksum, size: 13, commit_parent_id: asset.current_version_id },
    })).json as { id: string };
    await call(user, 'GET', `${A}/versions`, 200);
    await call(user, 'GET', `${A}/versions/${version.id}`, 200);
    await call(user, 'PATCH', `${A}/versions/${version.id}`, 200, { body: { description: 'Second thoughts' } });
    await call(user, 'GET', `${A}/download?redirect=false`, 200);
    await redirected(user, `${A}/download`);
    await call(user, 'GET', `${A}/versions/${version.id}/download?redirect=false`, 200);
    await redirected(user, `${A}/versions/${version.id}/download`);
    await call(user, 'DELETE', `${A}/versions/${asset.current_version_id}`, 200);
    await call(user, 'PATCH', `${A}/versions/${asset.current_version_id}/restore`, 200);

    // Tags, tasks, comments, reviews and review requests of the asset.
    await call(user, 'POST', `${A}/tags`, 200, { body: { tag_ids: [tag.id] } });
    await call(user, 'GET', `${A}/tags`, 200);
    await call(user, 'GET', `${A}/tags/${tag.id}`, 200);
    await call(user, 'DELETE', `${A}/tags/${tag.id}`, 200);
    await call(user, 'POST', `${A}/tags/${tag.id}`, 200);
    const task = (await call(user, 'POST', '/workspaces/tasks', 201, { body: { title: 'Check the tour', asset_id: asset.id } })).json as { id: string };
    await call(user, 'GET', `/workspaces/tasks/${task.id}`, 200);
    await call(user, 'PUT', `/workspaces/tasks/${task.id}`, 200, { body: { status: 'done' } });
    await call(user, 'GET', `${A}/tasks`, 200);
    const attachment = await upload('a picture, in words');
    const comment = (await call(user, 'POST', `${A}/comments`, 201, {
      body: { content: 'Looks right', mentions: [colleague.userId], attachments: [{ key: attachment.key, name: 'picture.txt' }] },
    })).json as { id: string };
    await call(user, 'GET', `${A}/comments`, 200);
    await call(user, 'GET', `${A}/comments/${comment.id}`, 200);
    await call(user, 'PUT', `${A}/comments/${comment.id}`, 200, { body: { content: 'Looks right to me' } });
    await call(user, 'POST', `${A}/reviewRequests/${colleague.userId}`, 201, { body: { message: 'Please look' } });
    await call(user, 'PUT', `${A}/reviewRequests/${colleague.userId}`, 200, { body: { message: 'Please look again' } });
    await call(user, 'GET', `${A}/reviewRequests`, 200);
    await call(colleague, 'GET', '/reviewRequests', 200, { headers: accountOnly });
    const review = (await call(colleague, 'POST', `${A}/reviews`, 201, { body: { status: 'approved', content: 'Good', assigned_user_id: user.userId } })).json as {
      id: string;
    };
    await call(colleague, 'GET', `${A}/reviews`, 200);
    await call(colleague, 'GET', `${A}/reviews/${review.id}`, 200);
    await call(colleague, 'PUT', `${A}/reviews/${review.id}`, 200, { body: { status: 'rejected', content: 'Not yet' } });
    await call(user, 'GET', '/changeRequests', 200, { headers: accountOnly });
    await call(user, 'GET', `${A}/history`, 200);
    await call(user, 'GET', `${A}/history/review`, 200);
    await call(colleague, 'DELETE', `${A}/reviews/${review.id}`, 200);
    await call(user, 'DELETE', `${A}/reviewRequests/${colleague.userId}`, 200);
    await call(user, 'DELETE', `${A}/comments/${comment.id}`, 200);
    await call(user, 'DELETE', `/workspaces/tasks/${task.id}`, 200);

    // Deletions, restores, and what only an owner does.
    await call(user, 'DELETE', '/workspaces/assets', 200, { body: { asset_ids: [asset.id], permanent: false } });
    await call(user, 'PATCH', `${A}/restore`, 200);
    await call(user, 'DELETE', `/workspaces/folders/${folder.id}?recursive=true`, 200);
    await call(user, 'DELETE', `/workspaces/tags/${tag.id}`, 200);
    await call(user, 'DELETE', `/workspaces/libraries/${library.id}`, 200);
    const other = (await call(user, 'POST', '/workspaces', 201, { headers: accountOnly, body: { name: 'Scratch' } })).json as { id: string };
    await call(user, 'DELETE', `/workspaces/members/${colleague.userId}`, 200);
    await call(user, 'DELETE', '/workspaces', 200, { headers: { 'x-workspace-id': other.id } });
    await call(user, 'DELETE', `/accounts/members/${colleague.userId}`, 200, { headers: accountOnly });
    const closing = t.service.createTenant('Closing');
    const owner = await signIn(prism.url, { accountId: closing.accountId, workspaceId: closing.workspaceId, ...closing.user });
    await call(owner, 'DELETE', '/accounts', 200, { headers: accountOnly });
    await call(user, 'DELETE', '/users', 204, { headers: userOnly });

    const missing = OPERATIONS.map((o) => `${o.method.toUpperCase()} ${o.path}`).filter((key) => !called.has(key));
    expect(missing, 'operations the tour did not call').toEqual([]);
    expect(prism.violations).toEqual([]);
    expect(prism.refusals).toEqual([]);
  });
});
