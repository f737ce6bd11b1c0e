/**
 * The remote tree kept in the index: a tree followed through the changes feed and stored by
 * differences must load back as exactly the tree a full listing gives, placed the same way, for
 * any run of changes (renames that move whole subtrees, clashing names that are renumbered when
 * the other one goes, deletes of folders with what they hold, restores, locks, cursor-only moves).
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  applyChanges,
  compactFromStore,
  compactTree,
  expandTree,
  noChanges,
  placeAsStored,
  placementOf,
  placeRemoteTree,
  treeDiff,
  treeFromListing,
  treeRows,
  type PlacedRemoteTree,
  type RawRemoteTree,
  type TreePaths,
} from '../../main/engine/remote-tree.js';
import { openDatabase } from '../../main/index/database.js';
import { MIGRATIONS, migrate } from '../../main/index/migrations.js';
import { RemoteStateStore } from '../../main/index/remote-state.js';
import type { SyncIndex } from '../../main/index/sync-index.js';
import { WorkspaceStore } from '../../main/index/workspaces.js';
import { ChangesAnswer, ListingAnswer, type FeedPage, type Listing } from '../../main/service-client/ours.js';
import { Rng } from '../helpers/rng.js';
import { addOldWorkspace, checksumOf, remoteFile, useTempIndex, workspace } from './index-fixtures.js';

const { file: indexFile, withIndex } = useTempIndex();
const WS = 'ws-1';

/** Names that clash once made safe or case-folded, so a delete renumbers a survivor. */
const NAMES = ['a.txt', 'A.txt', 'a:b.txt', 'a_b.txt', 'CON', 'notes.md', 'Résumé.txt', 'Re\u0301sume\u0301.txt', 'Archive', 'x', 'y'];

/** Entries as our service sends them: every field there. */
interface FullFolder {
  id: string;
  workspace_id: string;
  parent_id: string | null;
  name: string;
  sequence: number;
  isActive: boolean;
}
interface FullAsset {
  id: string;
  folder_id: string | null;
  name: string;
  file_name: string;
  current_version_id: string;
  version_number: number;
  checksum: string;
  size: number;
  sequence: number;
  locked_by_user_id?: string;
  isActive: boolean;
}

/** A workspace as the service keeps it: every row with the sequence of its last change. */
class ServiceModel {
  sequence = 0;
  readonly folders = new Map<string, FullFolder>();
  readonly assets = new Map<string, FullAsset>();
  private ids = 0;

  constructor(private readonly rng: Rng) {}

  /** The listing as the client reads it. */
  listing(): Listing {
    return ListingAnswer.parse({
      workspace_id: WS,
      sequence: this.sequence,
      folders: [...this.folders.values()].filter((f) => f.isActive),
      assets: [...this.assets.values()].filter((a) => a.isActive),
    });
  }

  /** As service/routes/sync.ts answers: rows above `since` in sequence order, `limit` at a time. */
  changes(cursor: string, limit: number): FeedPage {
    const since = Number(cursor);
    const rows = [
      ...[...this.folders.values()].map((folder) => ({ type: 'folder' as const, sequence: folder.sequence, id: folder.id, deleted: !folder.isActive, folder })),
      ...[...this.assets.values()].map((asset) => ({ type: 'asset' as const, sequence: asset.sequence, id: asset.id, deleted: !asset.isActive, asset })),
    ]
      .filter((c) => c.sequence > since)
      .sort((a, b) => a.sequence - b.sequence);
    const page = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    return ChangesAnswer.parse({ sequence: hasMore ? (page.at(-1)?.sequence ?? since) : this.sequence, has_more: hasMore, changes: page });
  }

  /** One random change of any kind a sync client must follow. */
  change(): void {
    const folders = [...this.folders.values()].filter((f) => f.isActive);
    const assets = [...this.assets.values()].filter((a) => a.isActive);
    const parent = (): string | null => (folders.length > 0 && this.rng.chance(0.8) ? this.rng.pick(folders).id : null);
    const seq = (): number => (this.sequence += 1);
    const op = this.rng.weighted({ folder: 2, renameFolder: 1, moveFolder: 1, deleteFolder: 0.5, asset: 4, version: 2, renameAsset: 1, moveAsset: 1, deleteAsset: 1, restore: 0.5, lock: 0.5, cursorOnly: 0.5 });
    const folder = folders.length > 0 ? this.rng.pick(folders) : undefined;
    const asset = assets.length > 0 ? this.rng.pick(assets) : undefined;
    switch (op) {
      case 'folder': {
        const id = `f${(this.ids += 1)}`;
        this.folders.set(id, { id, workspace_id: WS, parent_id: parent(), name: this.rng.pick(NAMES), sequence: seq(), isActive: true });
        return;
      }
      case 'renameFolder':
        if (folder) this.folders.set(folder.id, { ...folder, name: this.rng.pick(NAMES), sequence: seq() });
        return;
      case 'moveFolder': {
        const to = parent();
        if (folder && to !== folder.id && !this.below(to, folder.id)) this.folders.set(folder.id, { ...folder, parent_id: to, sequence: seq() });
        return;
      }
      case 'deleteFolder':
        if (folder) {
          for (const f of [...this.folders.values()]) if (f.isActive && this.below(f.id, folder.id)) this.folders.set(f.id, { ...f, isActive: false, sequence: seq() });
          for (const a of [...this.assets.values()]) if (a.isActive && this.below(a.folder_id, folder.id)) this.assets.set(a.id, { ...a, isActive: false, sequence: seq() });
        }
        return;
      case 'asset': {
        const id = `a${(this.ids += 1)}`;
        const name = this.rng.pick(NAMES);
        this.assets.set(id, {
          id,
          folder_id: parent(),
          name,
          file_name: name,
          current_version_id: `${id}-v1`,
          version_number: 1,
          checksum: checksumOf(this.ids),
          size: this.ids,
          sequence: seq(),
          isActive: true,
        });
        return;
      }
      case 'version':
        if (asset) {
          const n = asset.version_number + 1;
          this.assets.set(asset.id, { ...asset, current_version_id: `${asset.id}-v${n}`, version_number: n, checksum: checksumOf(1000 + this.sequence), size: n, sequence: seq() });
        }
        return;
      case 'renameAsset':
        if (asset) this.assets.set(asset.id, { ...asset, file_name: this.rng.pick(NAMES), sequence: seq() });
        return;
      case 'moveAsset':
        if (asset) this.assets.set(asset.id, { ...asset, folder_id: parent(), sequence: seq() });
        return;
      case 'deleteAsset':
        if (asset) this.assets.set(asset.id, { ...asset, isActive: false, sequence: seq() });
        return;
      case 'restore': {
        const gone = [...this.assets.values()].filter((a) => !a.isActive);
        if (gone.length === 0) return;
        const a = this.rng.pick(gone);
        // The service restores into a deleted folder at the top level.
        const home = a.folder_id !== null && this.folders.get(a.folder_id)?.isActive ? a.folder_id : null;
        this.assets.set(a.id, { ...a, folder_id: home, isActive: true, sequence: seq() });
        return;
      }
      case 'lock':
        if (asset) {
          const { locked_by_user_id: holder, ...rest } = asset;
          this.assets.set(asset.id, { ...rest, ...(holder ? {} : { locked_by_user_id: 'user-bob' }), sequence: seq() });
        }
        return;
      case 'cursorOnly':
        seq();
        return;
    }
  }

  /** Whether `id` is `ancestor` or below it. */
  private below(id: string | null, ancestor: string): boolean {
    for (let at = id; at !== null; at = this.folders.get(at)?.parent_id ?? null) if (at === ancestor) return true;
    return false;
  }
}

/** What WorkspaceSync does across restarts, one process at a time. */
class Follower {
  tree: RawRemoteTree | null = null;
  stored: TreePaths | null = null;
  listings = 0;

  constructor(private readonly excluded: readonly string[]) {}

  /** A fresh process: the tree comes back from the index. */
  restart(index: SyncIndex): void {
    const kept = index.remote.loadTree(WS);
    this.tree = kept && { folders: kept.folders, assets: kept.assets, sequence: kept.sequence, unknown: new Map() };
    this.stored = kept && { folders: kept.folderPaths, assets: kept.assetPaths };
  }

  refresh(index: SyncIndex, service: ServiceModel, pageSize: number): PlacedRemoteTree {
    if (!this.tree || !this.stored) {
      this.listings += 1;
      const tree = treeFromListing(service.listing());
      const placed = placeRemoteTree(tree, this.excluded);
      index.remote.saveTree(WS, { sequence: tree.sequence, full: true, ...treeRows(tree, placed.paths) });
      this.tree = tree;
      this.stored = placed.paths;
      return placed;
    }
    const touched = noChanges();
    for (;;) {
      const page = service.changes(this.tree.sequence, pageSize);
      applyChanges(this.tree, page.changes, page.sequence, touched);
      if (!page.has_more) break;
    }
    const placed = placeRemoteTree(this.tree, this.excluded);
    index.remote.saveTree(WS, { sequence: this.tree.sequence, ...treeDiff(this.tree, placed.paths, this.stored, touched) });
    this.stored = placed.paths;
    return placed;
  }
}

const sorted = <V>(map: ReadonlyMap<string, V>): Array<[string, V]> => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

describe('the remote tree kept in the index', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`follows a run of changes to what a full listing gives (seed ${seed})`, () => {
      const rng = new Rng(seed, 'remote-tree-store');
      const service = new ServiceModel(rng.fork('service'));
      for (let i = 0; i < 60; i += 1) service.change();
      const excluded = seed % 2 === 0 ? ['Archive'] : [];
      const follower = new Follower(excluded);
      withIndex((index) => {
        index.workspaces.add(workspace(WS));
      });

      for (let round = 0; round < 12; round += 1) {
        withIndex((index) => {
          follower.restart(index);
          const placed = follower.refresh(index, service, rng.int(1, 5));
          const expected = placeRemoteTree(treeFromListing(service.listing()), excluded);
          expect(sorted(placed.files)).toEqual(sorted(expected.files));
          expect(sorted(placed.folders)).toEqual(sorted(expected.folders));
          // What the planner and the app read back.
          const stored = index.remote.load(WS);
          expect(sorted(stored.files)).toEqual(sorted(expected.files));
          expect(sorted(stored.folders)).toEqual(sorted(expected.folders));
        });
        withIndex((index) => {
          const kept = index.remote.loadTree(WS);
          const listed = treeFromListing(service.listing());
          expect(kept?.sequence).toBe(String(service.sequence));
          expect(sorted(kept?.folders ?? new Map())).toEqual(sorted(listed.folders));
          expect(sorted(kept?.assets ?? new Map())).toEqual(sorted(listed.assets));
        });
        for (let i = rng.int(0, 12); i > 0; i -= 1) service.change();
      }
      expect(follower.listings).toBe(1);
    });
  }

  for (const seed of [11, 12, 13]) {
    it(`takes the stored paths as the placement only where placing gives the same (seed ${seed})`, () => {
      const rng = new Rng(seed, 'placed-as-stored');
      const service = new ServiceModel(rng.fork('service'));
      const follower = new Follower([]);
      withIndex((index) => index.workspaces.add(workspace(WS)));
      let taken = 0;
      for (let round = 0; round < 12; round += 1) {
        for (let i = rng.int(1, 15); i > 0; i -= 1) service.change();
        withIndex((index) => {
          follower.restart(index);
          follower.refresh(index, service, rng.int(1, 5));
          follower.restart(index);
          const tree = follower.tree as RawRemoteTree;
          const asStored = placeAsStored(tree, follower.stored as TreePaths);
          const placed = placeRemoteTree(tree);
          if (asStored === null) {
            // Only a tree with an item it cannot place is placed afresh.
            expect(placed.unplaced.size + placed.excluded).toBeGreaterThan(0);
            return;
          }
          taken += 1;
          expect(sorted(asStored.files)).toEqual(sorted(placed.files));
          expect(sorted(asStored.folders)).toEqual(sorted(placed.folders));
          expect(sorted(asStored.folderIds)).toEqual(sorted(placed.folderIds));
          expect({ excluded: asStored.excluded, unplaced: asStored.unplaced, held: asStored.held }).toEqual({ excluded: placed.excluded, unplaced: placed.unplaced, held: placed.held });
        });
      }
      expect(taken).toBeGreaterThan(0);
    });
  }

  for (const seed of [21, 22, 23, 24]) {
    it(`holds a tree as its placement alone and gives back the raw tree it was (seed ${seed})`, () => {
      const rng = new Rng(seed, 'compact-tree');
      const service = new ServiceModel(rng.fork('service'));
      withIndex((index) => index.workspaces.add(workspace(WS)));
      for (let round = 0; round < 8; round += 1) {
        for (let i = rng.int(1, 20); i > 0; i -= 1) service.change();
        const listed = treeFromListing(service.listing());
        const placed = placeRemoteTree(listed);
        const compact = compactTree(listed, placed);
        const everyItemPlaced = placed.excluded === 0 && placed.unplaced.size === 0;
        expect(compact !== null).toBe(everyItemPlaced);
        withIndex((index) => {
          index.remote.saveTree(WS, { sequence: listed.sequence, full: true, placement: placementOf([]), ...treeRows(listed, placed.paths) });
          const stored = index.remote.loadPlacement(WS, placementOf([]));
          expect(stored !== null).toBe(everyItemPlaced);
          // Placed otherwise than stored: the placement alone is not the tree.
          expect(index.remote.loadPlacement(WS, placementOf(['Archive']))).toBeNull();
          for (const held of [compact, stored && compactFromStore(stored)]) {
            if (held === null) continue;
            expect(held.sequence).toBe(listed.sequence);
            expect(sorted(held.placed.files)).toEqual(sorted(placed.files));
            expect(sorted(held.placed.folders)).toEqual(sorted(placed.folders));
            expect(sorted(held.placed.folderIds)).toEqual(sorted(placed.folderIds));
            expect(sorted(held.placed.paths.assets)).toEqual(sorted(placed.paths.assets));
            expect(sorted(held.placed.paths.folders)).toEqual(sorted(placed.paths.folders));
            expect({ excluded: held.placed.excluded, unplaced: held.placed.unplaced, held: held.placed.held }).toEqual({ excluded: placed.excluded, unplaced: placed.unplaced, held: placed.held });
            const raw = expandTree(held);
            expect(raw.sequence).toBe(listed.sequence);
            expect(sorted(raw.assets)).toEqual(sorted(listed.assets));
            expect(sorted(raw.folders)).toEqual(sorted(listed.folders));
          }
        });
      }
    });
  }

  it('places the stored tree again when the excluded folders change between runs', () => {
    const service = new ServiceModel(new Rng(9, 'exclusions'));
    for (let i = 0; i < 80; i += 1) service.change();
    withIndex((index) => {
      index.workspaces.add(workspace(WS));
      new Follower([]).refresh(index, service, 10);
    });
    withIndex((index) => {
      const follower = new Follower(['Archive', 'x']);
      follower.restart(index);
      follower.refresh(index, service, 10);
      expect(follower.listings).toBe(0);
      const expected = placeRemoteTree(treeFromListing(service.listing()), ['Archive', 'x']);
      expect(sorted(index.remote.load(WS).files)).toEqual(sorted(expected.files));
    });
  });

  it('is not trusted once a placed-only write replaced it', () => {
    withIndex((index) => {
      index.workspaces.add(workspace(WS));
      const service = new ServiceModel(new Rng(3, 'placed-only'));
      for (let i = 0; i < 10; i += 1) service.change();
      new Follower([]).refresh(index, service, 10);
      expect(index.remote.loadTree(WS)).not.toBeNull();

      index.remote.applyChanges(WS, { files: [remoteFile(1)], sequence: String(service.sequence + 1) });
      expect(index.remote.loadTree(WS)).toBeNull();
    });
  });

  it('refuses differences computed against a tree another process replaced meanwhile', () => {
    withIndex((index) => {
      index.workspaces.add(workspace(WS));
      index.remote.saveTree(WS, { sequence: '7', full: true });
      expect(index.remote.saveTree(WS, { sequence: '8', since: '7' })).toBe(true);
      expect(index.remote.saveTree(WS, { sequence: '9', since: '7', deletedAssetIds: ['a-1'] })).toBe(false);
      expect(index.workspaces.get(WS)?.sequence).toBe('8');
    });
  });

  it('moves only the cursor when nothing in the tree changed', () => {
    withIndex((index) => {
      index.workspaces.add(workspace(WS));
      index.remote.saveTree(WS, { sequence: '7', full: true }, 1234);
      index.remote.saveTree(WS, { sequence: '9' });
      expect(index.workspaces.get(WS)).toMatchObject({ sequence: '9', lastFullListingAt: 1234 });
      expect(index.remote.loadTree(WS)).toMatchObject({ sequence: '9' });
    });
  });
});

describe('migration to version 4', () => {
  it('keeps the placed rows of a version 3 index readable and lists once to get the tree', () => {
    const old = openDatabase(indexFile());
    expect(migrate(old, MIGRATIONS.slice(0, 3))).toBe(3);
    addOldWorkspace(old, WS);
    // Version 3's own writes: placed rows only.
    old.prepare('INSERT INTO remote_folders (workspace_id, id, parent_id, path) VALUES (?, ?, ?, ?)').run(WS, 'folder-brand', null, 'Brand');
    const file = remoteFile(1);
    old
      .prepare(
        'INSERT INTO remote_assets (workspace_id, id, folder_id, path, version_id, version_number, checksum, size, locked_by_user_id, sequence) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(WS, file.assetId, file.folderId, file.path, file.versionId, file.versionNumber, file.checksum, file.size, file.lockedByUserId, file.sequence);
    old.prepare('UPDATE workspaces SET sequence = 42 WHERE id = ?').run(WS);
    old.close();

    withIndex((index) => {
      expect([...index.remote.load(WS).files.values()]).toEqual([file]);
      expect(index.remote.getFolder(WS, 'folder-brand')).toEqual({ path: 'Brand', folderId: 'folder-brand', parentId: null });
      expect(index.workspaces.get(WS)?.sequence).toBe('42');
      expect(index.remote.loadTree(WS)).toBeNull();
    });
    const db = new Database(indexFile(), { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name LIKE '%_v4'").pluck().get()).toBe(0);
    db.close();
  });

  it('keeps rows this device does not place out of what the planner reads', () => {
    const db = openDatabase(':memory:');
    migrate(db);
    new WorkspaceStore(db).add(workspace(WS));
    const store = new RemoteStateStore(db);
    store.saveTree(WS, {
      sequence: '5',
      full: true,
      folders: [{ item: { id: 'f-archive', parentId: null, name: 'Archive' }, path: null }],
      assets: [
        { item: { id: 'a-1', folderId: 'f-archive', fileName: 'old.psd', versionId: 'v1', versionNumber: 1, checksum: checksumOf(1), size: 1, lockedByUserId: null, sequence: 3 }, path: null },
        { item: { id: 'a-2', folderId: null, fileName: 'new.psd', versionId: 'v2', versionNumber: 1, checksum: checksumOf(2), size: 2, lockedByUserId: null, sequence: 4 }, path: 'new.psd' },
      ],
    });
    expect([...store.load(WS).files.keys()]).toEqual(['new.psd']);
    expect(store.load(WS).folders.size).toBe(0);
    expect(store.getFile(WS, 'a-1')).toBeUndefined();
    expect(store.getFolder(WS, 'f-archive')).toBeUndefined();
    expect(store.loadTree(WS)?.assetPaths).toEqual(new Map([['a-1', null], ['a-2', 'new.psd']]));
    db.close();
  });
});
