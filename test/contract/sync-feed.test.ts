/**
 * Contract: the sync listing and the changes feed (docs/protocol.md "Sync listing" [ours] and
 * "Changes since a point" [ext]) — the two calls a sync client lives on.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangesPage, Hierarchy, HierarchyPage, type AssetEntry, type Change, type Folder } from '../helpers/served.js';
import { startTestService, type Api, type TestService } from '../helpers/service.js';
import { createAsset, postAsset, postVersion, sha256, statusAndCode } from '../helpers/uploads.js';

const listing = async (api: Api) => Hierarchy.parse((await api('GET', '/workspaces/folders/hierarchy')).json);

/** Every change after `since`, following has_more; returns the changes and the final cursor. */
async function allChanges(api: Api, since: number, limit?: number): Promise<{ changes: Change[]; cursor: number; pages: number }> {
  const changes: Change[] = [];
  let cursor = since;
  for (let pages = 1; ; pages += 1) {
    const res = await api('GET', `/workspaces/changes?since=${cursor}${limit ? `&limit=${limit}` : ''}`);
    if (res.status !== 200) throw new Error(`GET /workspaces/changes answered ${res.status}: ${res.text}`);
    const page = ChangesPage.parse(res.json);
    if (limit) expect(page.changes.length).toBeLessThanOrEqual(limit);
    changes.push(...page.changes);
    cursor = page.has_more ? (page.changes.at(-1)?.sequence ?? page.sequence) : page.sequence;
    if (!page.has_more) return { changes, cursor, pages };
  }
}

/** What a client does with the feed: upsert live rows, drop tombstones. */
function apply(base: { folders: Folder[]; assets: AssetEntry[] }, changes: Change[]) {
  const folders = new Map(base.folders.map((f) => [f.id, f]));
  const assets = new Map(base.assets.map((a) => [a.id, a]));
  for (const change of changes) {
    if (change.type === 'folder') {
      if (change.deleted || !change.folder) folders.delete(change.id);
      else folders.set(change.id, change.folder);
    } else if (change.deleted || !change.asset) {
      assets.delete(change.id);
    } else {
      assets.set(change.id, change.asset);
    }
  }
  return { folders, assets };
}

const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));

describe('sync listing', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ demo: { assets: 24 } });
  });
  afterAll(() => t?.stop());

  it('lists every folder parents-first, siblings by name, and every asset with its current version\'s identity', async () => {
    const h = await listing(t.api);
    expect(h.workspace_id).toBe(t.demo.workspaceId);
    expect(h.folders.map((f) => f.id).sort()).toEqual(Object.values(t.demo.folderIds).sort());
    const seen = new Set<string>();
    const depth = new Map<string, number>();
    for (const folder of h.folders) {
      if (folder.parent_id !== null) expect(seen.has(folder.parent_id)).toBe(true);
      seen.add(folder.id);
      depth.set(folder.id, folder.parent_id === null ? 0 : (depth.get(folder.parent_id) ?? 0) + 1);
    }
    const depths = h.folders.map((f) => depth.get(f.id) ?? 0);
    expect(depths).toEqual([...depths].sort((a, b) => a - b));
    for (const parent of [null, ...h.folders.map((f) => f.id)]) {
      const names = h.folders.filter((f) => f.parent_id === parent).map((f) => f.name.toLowerCase());
      expect(names).toEqual([...names].sort());
    }

    expect(h.assets.map((a) => a.id).sort()).toEqual([...t.demo.assetIds].sort());
    for (const asset of h.assets) {
      expect(asset.sequence).toBeGreaterThan(0);
      expect(asset.sequence).toBeLessThanOrEqual(h.sequence);
      if (asset.folder_id !== null) expect(seen.has(asset.folder_id)).toBe(true);
    }
  });

  it('comes in pages when asked with a limit: each page at most that many assets, folders on the first, together the whole listing', async () => {
    const whole = await listing(t.api);
    const plain = await t.api<Record<string, unknown>>('GET', '/workspaces/folders/hierarchy');
    expect(plain.json).not.toHaveProperty('next');
    for (const limit of [1, 5, 7, 24, 100]) {
      const folders: Folder[] = [];
      const assets: AssetEntry[] = [];
      let after: string | null = null;
      let pages = 0;
      let sequence: number | string | undefined;
      do {
        const res = await t.api<Record<string, unknown>>('GET', `/workspaces/folders/hierarchy?limit=${limit}${after === null ? '' : `&after=${encodeURIComponent(after)}`}`);
        expect(res.status).toBe(200);
        const page = HierarchyPage.parse(res.json);
        pages += 1;
        sequence ??= page.sequence;
        if (pages > 1) expect(page.folders).toEqual([]);
        expect(page.assets.length).toBeLessThanOrEqual(limit);
        folders.push(...page.folders);
        assets.push(...page.assets);
        after = page.next;
        expect(pages).toBeLessThanOrEqual(whole.assets.length + 1);
      } while (after !== null);
      expect({ limit, pages }).toEqual({ limit, pages: Math.max(1, Math.ceil(whole.assets.length / limit)) });
      expect(sequence).toBe(whole.sequence);
      expect(folders).toEqual(whole.folders);
      expect(byId(assets)).toEqual(byId(whole.assets));
      expect(assets).toHaveLength(whole.assets.length);
    }
  });

  it('refuses a page limit or a page token it cannot use, and says why', async () => {
    for (const query of ['limit=0', 'limit=abc', 'limit=100001', `limit=5&after=`]) {
      const res = await t.api('GET', `/workspaces/folders/hierarchy?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
    }
  });

  it('gives for each asset the checksum and size of the bytes its current version downloads', async () => {
    const h = await listing(t.api);
    for (const entry of h.assets.slice(0, 4)) {
      const res = await t.api('GET', `/workspaces/assets/${entry.id}/download`);
      const bytes = new Uint8Array(await (await fetch(res.headers.get('location') ?? '')).arrayBuffer());
      expect({ id: entry.id, checksum: sha256(bytes), size: bytes.length }).toEqual({ id: entry.id, checksum: entry.checksum, size: entry.size });
    }
  });

  it('reflects what the folder detail call says about one folder', async () => {
    const h = await listing(t.api);
    const social = t.demo.folderIds['Campaigns/Spring/Social'] ?? '';
    const detail = await t.api<{ assets: AssetEntry[]; folders: Folder[] }>('GET', `/workspaces/folders/${social}`);
    expect(detail.status).toBe(200);
    expect(detail.json.assets.map((a) => a.id).sort()).toEqual(h.assets.filter((a) => a.folder_id === social).map((a) => a.id).sort());
  });
});

describe('changes feed', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ demo: { assets: 6 } });
  });
  afterAll(() => t?.stop());

  it('from 0 gives every folder and asset of the workspace; its cursor is the listing\'s', async () => {
    const h = await listing(t.api);
    const { changes, cursor } = await allChanges(t.api, 0);
    expect(cursor).toBe(h.sequence);
    expect(changes.filter((c) => c.type === 'folder').map((c) => c.id).sort()).toEqual(h.folders.map((f) => f.id).sort());
    expect(changes.filter((c) => c.type === 'asset').map((c) => c.id).sort()).toEqual(h.assets.map((a) => a.id).sort());
  });

  it('after the listing\'s sequence gives exactly the later changes, in sequence order, each row once in its latest state', async () => {
    const before = await listing(t.api);
    expect((await allChanges(t.api, before.sequence)).changes).toEqual([]);

    const folder = (await t.api<Folder>('POST', '/workspaces/folders', { body: { name: 'Feed' } })).json;
    const asset = await createAsset(t.api, { fileName: 'feed.txt', folderId: folder.id, bytes: 'v1' });
    const v2 = await postVersion(t.api, asset.id, { parentId: asset.current_version_id, bytes: 'v2' });
    await t.api('PUT', `/workspaces/assets/${asset.id}`, { body: { file_name: 'feed-renamed.txt' } });
    const gone = before.assets[0]?.id ?? '';
    await t.api('DELETE', '/workspaces/assets', { body: { asset_ids: [gone] } });

    const { changes, cursor } = await allChanges(t.api, before.sequence);
    expect(changes.map((c) => [c.type, c.id])).toEqual([['folder', folder.id], ['asset', asset.id], ['asset', gone]]);
    const sequences = changes.map((c) => c.sequence ?? 0);
    expect(sequences.every((s, i) => s > before.sequence && (i === 0 || s > (sequences[i - 1] ?? 0)))).toBe(true);
    expect(changes[1]).toMatchObject({ deleted: false, asset: { file_name: 'feed-renamed.txt', current_version_id: v2.json.id, checksum: sha256('v2'), folder_id: folder.id } });
    expect(changes[2]).toMatchObject({ deleted: true, asset: { isActive: false } });
    expect(cursor).toBe((await listing(t.api)).sequence);
  });

  it('pages with limit and has_more, and the pages add up to the unpaged answer', async () => {
    for (let i = 0; i < 5; i += 1) await createAsset(t.api, { fileName: `page-${i}.txt` });
    const whole = await allChanges(t.api, 0);
    const paged = await allChanges(t.api, 0, 2);
    expect(paged.pages).toBeGreaterThanOrEqual(Math.ceil(whole.changes.length / 2));
    expect(paged.changes).toEqual(whole.changes);
    expect(paged.cursor).toBe(whole.cursor);

    const first = ChangesPage.parse((await t.api('GET', '/workspaces/changes?since=0&limit=3')).json);
    expect(first).toMatchObject({ has_more: true, sequence: first.changes[2]?.sequence });
  });

  it('answers 410 cursor_expired for a since above the current sequence, 400 for a malformed one', async () => {
    const h = await listing(t.api);
    expect(statusAndCode(await t.api('GET', `/workspaces/changes?since=${h.sequence + 1}`))).toEqual({ status: 410, code: 'cursor_expired' });
    for (const query of ['', '?since=-1', '?since=abc', '?since=1.5', '?since=0&limit=0', '?since=0&limit=x']) {
      expect({ query, ...statusAndCode(await t.api('GET', `/workspaces/changes${query}`)) }).toEqual({ query, status: 400, code: 'invalid_request' });
    }
  });

  it('never shows another workspace\'s changes', async () => {
    const other = await t.tenant('Feed Neighbours');
    const before = (await listing(t.api)).sequence;
    await createAsset(other.api, { fileName: 'theirs.txt' });
    expect((await allChanges(t.api, before)).changes).toEqual([]);
    expect((await allChanges(other.api, 0)).changes).toHaveLength(1);
  });

  it('brings a listing up to date: listing + feed since its sequence = a fresh listing (random edits)', async () => {
    type Op =
      | { kind: 'folder'; name: number; parent: number }
      | { kind: 'asset'; name: number; folder: number }
      | { kind: 'version' | 'delete' | 'restore' | 'purge'; asset: number }
      | { kind: 'rename'; asset: number; name: number }
      | { kind: 'move'; asset: number; folder: number }
      | { kind: 'deleteFolder'; folder: number };
    const n = fc.nat({ max: 50 });
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('folder' as const), name: n, parent: n }),
      fc.record({ kind: fc.constant('asset' as const), name: n, folder: n }),
      fc.record({ kind: fc.constantFrom('version' as const, 'delete' as const, 'restore' as const, 'purge' as const), asset: n }),
      fc.record({ kind: fc.constant('rename' as const), asset: n, name: n }),
      fc.record({ kind: fc.constant('move' as const), asset: n, folder: n }),
      fc.record({ kind: fc.constant('deleteFolder' as const), folder: n }),
    );
    const pick = <T>(rows: T[], i: number): T | undefined => (rows.length ? rows[i % rows.length] : undefined);

    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        const live = await listing(t.api);
        for (const o of ops) {
          // Targets are picked among everything listed now, deleted ones included; refusals (409, 404) are part of the game.
          const before = Hierarchy.parse((await t.api('GET', '/workspaces/folders/hierarchy?include_deleted=true')).json);
          const folder = (i: number) => (i % 4 === 0 ? null : (pick(before.folders, i)?.id ?? null));
          const asset = (i: number) => pick(before.assets, i)?.id ?? '00000000-0000-4000-8000-000000000000';
          switch (o.kind) {
            case 'folder': await t.api('POST', '/workspaces/folders', { body: { name: `f${o.name}`, parent_id: folder(o.parent) } }); break;
            case 'asset': await postAsset(t.api, { fileName: `a${o.name}.txt`, folderId: folder(o.folder) }); break;
            case 'version': await postVersion(t.api, asset(o.asset), {}); break;
            case 'delete': await t.api('DELETE', '/workspaces/assets', { body: { asset_ids: [asset(o.asset)] } }); break;
            case 'purge': await t.api('DELETE', '/workspaces/assets', { body: { asset_ids: [asset(o.asset)], permanent: true } }); break;
            case 'restore': await t.api('PATCH', `/workspaces/assets/${asset(o.asset)}/restore`); break;
            case 'rename': await t.api('PUT', `/workspaces/assets/${asset(o.asset)}`, { body: { file_name: `r${o.name}.txt` } }); break;
            case 'move': await t.api('PUT', `/workspaces/assets/${asset(o.asset)}`, { body: { folder_id: folder(o.folder) } }); break;
            case 'deleteFolder': await t.api('DELETE', `/workspaces/folders/${folder(o.folder) ?? 'none'}?recursive=true`); break;
          }
        }
        const { changes, cursor } = await allChanges(t.api, live.sequence, 3);
        const after = await listing(t.api);
        expect(cursor).toBe(after.sequence);
        const rebuilt = apply(live, changes);
        expect(rebuilt.folders).toEqual(byId(after.folders));
        expect(rebuilt.assets).toEqual(byId(after.assets));
      }),
      { numRuns: 25, seed: 20_240_611 },
    );
  });
});
