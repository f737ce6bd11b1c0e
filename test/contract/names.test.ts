/**
 * Contract: names (docs/protocol.md "Conventions" and "Whole workspace as zip"). Every route that
 * takes a name refuses one that could act as a path (400 naming the field, nothing changed), and
 * the workspace zip names only entries that stay inside the folder they are extracted to, on
 * POSIX and on Windows, whatever names the database holds: names stored before these rules, or
 * written straight into SQLite, as here. The names are drawn afresh on every run
 * (NAMES_SEED=n replays a run).
 */
import { posix, win32 } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, Folder, Hierarchy } from '../../shared/api/index.js';
import { hostilePath, refusedName, shown } from '../helpers/hostile-names.js';
import type { Rng } from '../helpers/rng.js';
import { runRng } from '../helpers/run-seed.js';
import { errorCode, startTestService, type ApiResponse, type TestService } from '../helpers/service.js';
import { createAsset, sha256, upload, type Uploaded } from '../helpers/uploads.js';
import { unsafeEntryName, unzip } from '../helpers/zip.js';

let t: TestService;
let rng: Rng;
beforeAll(async () => {
  t = await startTestService({ demo: { assets: 6 } });
  rng = runRng('NAMES_SEED', 'names');
});
afterAll(async () => t?.stop());

describe('names at the API', () => {
  let asset: Asset;
  let deleted: Asset;
  let folder: Folder;
  let key: Uploaded;
  let attachment: Uploaded;
  beforeAll(async () => {
    asset = await createAsset(t.api, { fileName: 'target.txt' });
    deleted = await createAsset(t.api, { fileName: 'deleted.txt' });
    expect((await t.api('DELETE', '/workspaces/assets', { body: { asset_ids: [deleted.id] } })).status).toBe(200);
    folder = Folder.parse((await t.api('POST', '/workspaces/folders', { body: { name: 'Target folder' } })).json);
    key = await upload(t.api, 'bytes for refused names');
    attachment = await upload(t.api, 'an attachment');
  });

  /** Each route that takes a name, with the field its answer must name. */
  const entryPoints = (): Array<{ route: string; field: string; call: (name: string) => Promise<ApiResponse> }> => [
    {
      route: 'POST /workspaces/upload', field: 'file_name',
      call: (name) => t.api('POST', `/workspaces/upload?${new URLSearchParams({ file_name: name, checksum: sha256('x'), size: '1' }).toString()}`),
    },
    { route: 'POST /workspaces/assets (create)', field: 'file_name', call: (name) => t.api('POST', '/workspaces/assets', { body: { key: key.key, checksum: key.checksum, file_name: name } }) },
    { route: 'POST /workspaces/assets (create, display name)', field: 'name', call: (name) => t.api('POST', '/workspaces/assets', { body: { key: key.key, checksum: key.checksum, file_name: 'fine.txt', name } }) },
    { route: 'POST /workspaces/assets (update)', field: 'file_name', call: (name) => t.api('POST', '/workspaces/assets', { body: { id: asset.id, file_name: name } }) },
    { route: 'PUT /workspaces/assets/{id}', field: 'file_name', call: (name) => t.api('PUT', `/workspaces/assets/${asset.id}`, { body: { file_name: name } }) },
    { route: 'PUT /workspaces/assets/{id} (display name)', field: 'name', call: (name) => t.api('PUT', `/workspaces/assets/${asset.id}`, { body: { name } }) },
    { route: 'PATCH /workspaces/assets/{id}/restore', field: 'file_name', call: (name) => t.api('PATCH', `/workspaces/assets/${deleted.id}/restore`, { body: { file_name: name } }) },
    { route: 'POST /workspaces/folders', field: 'name', call: (name) => t.api('POST', '/workspaces/folders', { body: { name } }) },
    { route: 'PUT /workspaces/folders/{id}', field: 'name', call: (name) => t.api('PUT', `/workspaces/folders/${folder.id}`, { body: { name, parent_id: null } }) },
    {
      route: 'POST /workspaces/assets/{id}/versions', field: 'name',
      call: (name) => t.api('POST', `/workspaces/assets/${asset.id}/versions`, { body: { key: key.key, checksum: key.checksum, name } }),
    },
    {
      route: 'PATCH /workspaces/assets/{id}/versions/{vid}', field: 'name',
      call: (name) => t.api('PATCH', `/workspaces/assets/${asset.id}/versions/${asset.current_version_id}`, { body: { name } }),
    },
    {
      route: 'POST /workspaces/assets/{id}/comments', field: 'attachments.0.name',
      call: (name) => t.api('POST', `/workspaces/assets/${asset.id}/comments`, { body: { content: 'see attached', attachments: [{ key: attachment.key, name }] } }),
    },
    {
      route: 'POST /workspaces/assets/{id}/reviews', field: 'attachments.0.name',
      call: (name) => t.api('POST', `/workspaces/assets/${asset.id}/reviews`, { body: { status: 'approved', content: 'ok', attachments: [{ key: attachment.key, name }] } }),
    },
  ];

  const snapshot = async () => (await t.api('GET', '/workspaces/folders/hierarchy?include_deleted=true')).text;

  it('refuses a name holding "/", "\\", a control character, a direction override or a lone surrogate, or "." or "..", with 400 naming the field', async () => {
    const before = await snapshot();
    const comments = (await t.api<unknown[]>('GET', `/workspaces/assets/${asset.id}/comments`)).json.length;
    const failures: string[] = [];
    for (let round = 0; round < 12; round += 1) {
      for (const entry of entryPoints()) {
        const name = refusedName(rng);
        // A URL carries UTF-8: a lone surrogate cannot be sent in a query at all.
        if (entry.field === 'file_name' && entry.route.includes('upload') && /\p{Cs}/u.test(name)) continue;
        const res = await entry.call(name);
        const message = JSON.stringify(res.json);
        if (res.status !== 400 || errorCode(res) !== 'invalid_request' || !message.includes(`\\"${entry.field}\\"`)) {
          failures.push(`${entry.route} with ${shown(name)}: ${res.status} ${res.text.slice(0, 160)}`);
        }
      }
    }
    expect(failures, `NAMES_SEED=${rng.seed}`).toEqual([]);
    expect(await snapshot()).toBe(before);
    expect((await t.api<unknown[]>('GET', `/workspaces/assets/${asset.id}/comments`)).json).toHaveLength(comments);
  });

  it('keeps accepting names that are odd but hold no path: colons, dots, spaces, device names, any script', async () => {
    for (const name of ['a:b.txt', '...', 'CON', 'café ☕.txt', '日本語', ' spaced ', '#%?&=.txt', '.hidden', 'trailing.']) {
      const created = await t.api('POST', '/workspaces/folders', { body: { name, parent_id: folder.id } });
      expect({ name, status: created.status }).toEqual({ name, status: 201 });
      const renamed = await t.api('PUT', `/workspaces/assets/${asset.id}`, { body: { file_name: name } });
      expect({ name, status: renamed.status }).toEqual({ name, status: 200 });
      expect(Asset.parse(renamed.json).file_name).toBe(name);
    }
  });

  it('restores an asset whose stored name is refused today only under a new name, keeping it deleted meanwhile', async () => {
    // SQLite stores a lone surrogate as U+FFFD, an allowed name: draw another.
    let stored = refusedName(rng);
    while (/\p{Cs}/u.test(stored)) stored = refusedName(rng);
    t.service.db.prepare('UPDATE assets SET file_name = ?, name = ? WHERE id = ?').run(stored, stored, deleted.id);
    const refused = await t.api('PATCH', `/workspaces/assets/${deleted.id}/restore`);
    expect({ status: refused.status, code: errorCode(refused) }, `stored name ${shown(stored)}`).toEqual({ status: 400, code: 'invalid_request' });
    expect(refused.text).toContain('file_name');
    expect(Asset.parse((await t.api('GET', `/workspaces/assets/${deleted.id}`)).json).isActive).toBe(false);
    const restored = await t.api('PATCH', `/workspaces/assets/${deleted.id}/restore`, { body: { file_name: 'restored.txt' } });
    expect(restored.status).toBe(200);
    expect(Asset.parse(restored.json)).toMatchObject({ file_name: 'restored.txt', isActive: true });
  });
});

describe('the workspace zip', () => {
  it('names only entries that stay inside the extraction folder, keeps every file, whatever names the database holds', async () => {
    const { db } = t.service;
    // A tree of folders and files made through the API, then renamed behind the API's back.
    const folderIds: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      const parent = folderIds.length > 0 && rng.chance(0.6) ? rng.pick(folderIds) : null;
      folderIds.push(Folder.parse((await t.api('POST', '/workspaces/folders', { body: { name: `f${i}`, parent_id: parent } })).json).id);
    }
    const assets: Asset[] = [];
    for (let i = 0; i < 16; i += 1) {
      const folderId = rng.chance(0.7) ? rng.pick(folderIds) : null;
      assets.push(await createAsset(t.api, { fileName: `a${i}.txt`, folderId, bytes: `asset ${i}` }));
    }
    const attachments: Uploaded[] = [];
    for (let i = 0; i < 6; i += 1) {
      const file = await upload(t.api, `attachment ${i}`);
      attachments.push(file);
      const on = rng.pick(assets);
      expect((await t.api('POST', `/workspaces/assets/${on.id}/comments`, { body: { content: 'x', attachments: [{ key: file.key, name: `n${i}.txt` }] } })).status).toBe(201);
    }
    const stored: string[] = [];
    const hostile = () => {
      const name = hostilePath(rng);
      stored.push(name);
      return name;
    };
    for (const id of folderIds) db.prepare('UPDATE folders SET name = ? WHERE id = ?').run(hostile(), id);
    for (const asset of assets) db.prepare('UPDATE assets SET file_name = ?, name = ? WHERE id = ?').run(hostile(), asset.file_name, asset.id);
    for (const file of attachments) db.prepare('UPDATE attachments SET name = ? WHERE file_id = ?').run(hostile(), file.key);
    // Two names that differ only in their separator, and one only in case: they must not overwrite each other.
    const [first, second, third] = assets;
    db.prepare('UPDATE assets SET file_name = ?, folder_id = NULL WHERE id = ?').run('..\\..\\clash.txt', first?.id);
    db.prepare('UPDATE assets SET file_name = ?, folder_id = NULL WHERE id = ?').run('../../clash.txt', second?.id);
    db.prepare('UPDATE assets SET file_name = ?, folder_id = NULL WHERE id = ?').run('..\\..\\CLASH.txt', third?.id);

    const res = await fetch(`${t.service.url}/workspaces/download/assets?include_attachments=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.user.token}`, 'x-account-id': t.user.accountId, 'x-workspace-id': t.user.workspaceId },
    });
    expect(res.status).toBe(200);
    const entries = await unzip(Buffer.from(await res.arrayBuffer()));

    const problems: string[] = [];
    const seen = new Set<string>();
    for (const { name } of entries) {
      const why = unsafeEntryName(name);
      if (why) problems.push(`${shown(name)}: ${why}`);
      // What an extractor that joins and resolves would write to.
      if (!posix.resolve('/extract', name).startsWith('/extract/')) problems.push(`${shown(name)}: leaves /extract`);
      if (!win32.resolve('C:\\extract', name).startsWith('C:\\extract\\')) problems.push(`${shown(name)}: leaves C:\\extract`);
      const folded = name.normalize('NFC').toLowerCase();
      if (seen.has(folded)) problems.push(`${shown(name)}: named twice`);
      seen.add(folded);
    }
    expect(problems, `NAMES_SEED=${rng.seed}; stored names: ${stored.map(shown).join(', ')}`).toEqual([]);

    // Nothing was lost to a clash: every active asset and every attachment is there, once.
    const listing = Hierarchy.parse((await t.api('GET', '/workspaces/folders/hierarchy')).json);
    const expected = [...listing.assets.map((a) => a.checksum), ...attachments.map((a) => a.checksum)].sort();
    const got = entries.flatMap((e) => (e.bytes === undefined ? [] : [sha256(e.bytes)])).sort();
    expect(got).toEqual(expected);
  });
});
