import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathKey } from '../../main/local/paths.js';
import { ServiceClient, ServiceError, type UploadBody, type UploadOptions, type UploadResult } from '../../main/service-client/index.js';
import type { UploadNew, UploadVersion } from '../../main/sync/actions.js';
import { executePlan } from '../../main/sync/executor/execute-plan.js';
import type { LocalFile } from '../../main/model/views.js';
import { assetsNamed, bytesOf, clientOptions, putAsset, putVersion, executorWorld, sha256, writeLocal, type Harness } from './executor-fixture.js';

/** The real client; `afterPut` runs once the bytes are on the service, before the commit. */
class HookedClient extends ServiceClient {
  afterPut: (() => Promise<void>) | undefined;
  override async putSignedUpload(url: string, body: UploadBody, options?: UploadOptions): Promise<UploadResult> {
    const result = await super.putSignedUpload(url, body, options);
    await this.afterPut?.();
    return result;
  }
}

const world = executorWorld();
let h: Harness;

const uploadNew = (local: LocalFile): UploadNew => ({ kind: 'upload-new', path: local.path, local, reason: 'test' });
const uploadVersion = (local: LocalFile, assetId: string, parentVersionId: string): UploadVersion => ({
  kind: 'upload-version',
  path: local.path,
  assetId,
  parentVersionId,
  local,
  reason: 'test',
});

describe('upload', () => {
  it('creates an asset in the folder created earlier in the same plan, with the right checksum', async () => {
    h = await world.setUp();
    const bytes = bytesOf(40_000, 'render');
    const local = await writeLocal(h.root, 'Renders/product.glb', bytes);

    const result = await executePlan([{ kind: 'create-remote-folder', path: 'Renders', reason: 'test' }, uploadNew(local)], h.deps);

    expect(result).toMatchObject({ done: 2, uploaded: 1, failed: [] });
    const folderId = h.deps.folderIds.get('renders');
    expect(folderId).toEqual(expect.any(String));
    const row = h.index.base.getFile(h.ws, 'Renders/product.glb');
    expect(row).toMatchObject({ checksum: sha256(bytes), size: bytes.length, mtimeNs: local.mtimeNs, inode: local.inode });
    const asset = await h.client.getAsset(h.ws, row?.assetId ?? '');
    expect(asset).toMatchObject({ file_name: 'product.glb', folder_id: folderId, current_version_id: row?.versionId });
    expect(asset.currentVersion?.checksum).toBe(sha256(bytes));
    expect(h.index.journal.open(h.ws)).toEqual([]);
    expect(h.activity.map((a) => a.kind)).toEqual(['created', 'uploaded']);
    expect(h.activity[1]).toMatchObject({ path: 'Renders/product.glb', message: 'Uploaded Renders/product.glb', version: { assetId: row?.assetId, versionId: row?.versionId, number: 1 } });
    // The next scan takes the hash from the cache: the stamp is the uploaded bytes'.
    expect(h.index.hashCache(h.ws).get(pathKey('Renders/product.glb'))).toEqual({
      size: bytes.length,
      mtimeNs: local.mtimeNs,
      ctimeNs: local.ctimeNs,
      inode: local.inode,
      checksum: sha256(bytes),
    });
  });

  it('refuses a pipe put in a small file\'s place after the scan, without hanging on it', async () => {
    h = await world.setUp();
    const local = await writeLocal(h.root, 'notes.txt', 'scanned as a file');
    await rm(path.join(h.root, 'notes.txt'));
    if (spawnSync('mkfifo', [path.join(h.root, 'notes.txt')]).status !== 0) return;

    const result = await executePlan([uploadNew(local)], h.deps);

    expect(result.uploaded).toBe(0);
    expect(await assetsNamed(h, 'notes.txt')).toEqual([]);
  });

  it('commits a new version on top of the version the edit started from', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.client, h.ws, { name: 'logo.svg', bytes: Buffer.from('<svg>v1</svg>') });
    const local = await writeLocal(h.root, 'logo.svg', '<svg>v2, edited here</svg>');

    const result = await executePlan([uploadVersion(local, asset.id, asset.current_version_id)], h.deps);

    expect(result).toMatchObject({ uploaded: 1, failed: [] });
    const [newest, first] = await h.client.listVersions(h.ws, asset.id);
    expect(first?.id).toBe(asset.current_version_id);
    expect(newest).toMatchObject({ commit_parent_id: asset.current_version_id, checksum: local.checksum });
    expect(h.index.base.getFile(h.ws, 'logo.svg')).toMatchObject({ assetId: asset.id, versionId: newest?.id, checksum: local.checksum });
    expect(h.activity).toEqual([expect.objectContaining({ kind: 'uploaded', message: 'Uploaded logo.svg', version: { assetId: asset.id, versionId: newest?.id, number: 2 } })]);
  });

  it('never overwrites a newer version: a stale parent is left as a conflict for the next cycle', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.client, h.ws, { name: 'swatches.pdf', bytes: Buffer.from('v1') });
    const theirs = await putVersion(h.colleague, h.ws, asset.id, Buffer.from('v2 by the colleague'), asset.current_version_id);
    const local = await writeLocal(h.root, 'swatches.pdf', 'v2 by me');

    const result = await executePlan([uploadVersion(local, asset.id, asset.current_version_id)], h.deps);

    expect(result).toMatchObject({ uploaded: 0, deferred: 1, failed: [] });
    const versions = await h.client.listVersions(h.ws, asset.id);
    expect(versions.map((v) => v.id)).toEqual([theirs, asset.current_version_id]);
    expect(h.problems).toEqual([expect.objectContaining({ kind: 'conflict', path: 'swatches.pdf' })]);
    expect(h.index.base.getFile(h.ws, 'swatches.pdf')).toBeUndefined();
    expect(await readFile(path.join(h.root, 'swatches.pdf'), 'utf8')).toBe('v2 by me');
    expect(h.index.journal.open(h.ws)).toEqual([]);
  });

  it('adopts the asset its own earlier attempt created (lost answer) instead of creating it twice', async () => {
    h = await world.setUp();
    const bytes = Buffer.from('copy deck, final');
    // The first attempt: its create landed, but the answer never came back.
    const landed = await putAsset(h.client, h.ws, { name: 'copy-deck.docx', bytes });
    const local = await writeLocal(h.root, 'copy-deck.docx', bytes);

    const result = await executePlan([uploadNew(local)], h.deps);

    expect(result).toMatchObject({ uploaded: 1, failed: [] });
    expect(await assetsNamed(h, 'copy-deck.docx')).toEqual([{ id: landed.id, checksum: sha256(bytes) }]);
    expect(h.index.base.getFile(h.ws, 'copy-deck.docx')).toMatchObject({ assetId: landed.id, versionId: landed.current_version_id });
    expect(h.activity).toEqual([
      expect.objectContaining({
        kind: 'uploaded',
        message: 'Uploaded copy-deck.docx (found on the service)',
        version: { assetId: landed.id, versionId: landed.current_version_id, number: null },
      }),
    ]);
  });

  it('keeps the local file as a conflicted copy when another asset with other bytes took the name', async () => {
    h = await world.setUp();
    const theirs = await putAsset(h.colleague, h.ws, { name: 'budget.xlsx', bytes: Buffer.from('their budget') });
    const local = await writeLocal(h.root, 'budget.xlsx', 'my budget');

    const result = await executePlan([uploadNew(local)], h.deps);

    const copy = 'budget (conflicted copy Test-Box 2024-03-05 140709).xlsx';
    expect(result).toMatchObject({ uploaded: 0, conflicts: 1, deferred: 1, failed: [] });
    expect(existsSync(path.join(h.root, 'budget.xlsx'))).toBe(false);
    expect(await readFile(path.join(h.root, copy), 'utf8')).toBe('my budget');
    expect(await assetsNamed(h, 'budget.xlsx')).toEqual([{ id: theirs.id, checksum: sha256('their budget') }]);
    expect(h.problems).toEqual([expect.objectContaining({ kind: 'conflict', path: 'budget.xlsx' })]);
    expect(h.problems[0]?.message).toContain(copy);
  });

  it('does not commit a file that changed after its bytes were sent', async () => {
    h = await world.setUp();
    const client = new HookedClient(clientOptions(world.service, h.demo.accountId, h.demo.user));
    const local = await writeLocal(h.root, 'voiceover.wav', bytesOf(20_000, 'take 1'));
    client.afterPut = () => writeFile(path.join(h.root, 'voiceover.wav'), bytesOf(20_001, 'take 2'));

    const result = await executePlan([uploadNew(local)], h.depsWith({ client }));

    expect(result).toMatchObject({ uploaded: 0, deferred: 1, failed: [] });
    expect(await assetsNamed(h, 'voiceover.wav')).toEqual([]);
    expect(h.problems).toEqual([expect.objectContaining({ kind: 'unstable', path: 'voiceover.wav' })]);
    expect(h.index.base.getFile(h.ws, 'voiceover.wav')).toBeUndefined();
    expect(h.index.journal.open(h.ws)).toEqual([]);
    await client.close();
  });

  // The same size: the service refuses bytes whose checksum is not the signed one. Larger: the
  // upload declared the scanned size, and the client does not send a body longer than that.
  // A file over 1 MiB is streamed and hashed on the way, and has a journal entry.
  it.each([
    ['rewritten', 'story-01.png', 30_000, 30_000],
    ['grown', 'story-02.png', 30_000, 30_001],
    ['rewritten, streamed', 'master.mov', 3 * 1024 * 1024, 3 * 1024 * 1024],
  ])('does not commit a file %s while its upload waited in the queue, and forgets its cached hash', async (_how, name, size, newSize) => {
    h = await world.setUp();
    const local = await writeLocal(h.root, name, bytesOf(size, 'first'));
    // The hash the scan may have taken from the cache: the file no longer holds those bytes.
    const cache = h.index.hashCache(h.ws);
    cache.put(pathKey(name), { size: local.size, mtimeNs: local.mtimeNs, ctimeNs: local.ctimeNs, inode: local.inode, checksum: local.checksum });
    h.queue.pause();
    const queued = once(h.queue, 'progress');
    const running = executePlan([uploadNew(local)], h.deps);
    expect((await queued)[0]).toMatchObject({ state: 'queued', path: name });
    await writeFile(path.join(h.root, name), bytesOf(newSize, 'second'));
    h.queue.resume();

    const result = await running;

    expect(result).toMatchObject({ uploaded: 0, deferred: 1, failed: [] });
    expect(h.problems).toEqual([expect.objectContaining({ kind: 'unstable', path: name })]);
    expect(await assetsNamed(h, name)).toEqual([]);
    expect(h.index.base.getFile(h.ws, name)).toBeUndefined();
    expect(cache.get(pathKey(name))).toBeUndefined();
    expect(h.index.journal.open(h.ws)).toEqual([]);
  });

  // A file over 1 MiB keeps its upload key in the journal once its bytes are stored: when the
  // commit fails (the service out of reach), the next attempt commits them without sending again.
  it.each(['new', 'version'] as const)('commits the stored bytes of a large %s upload after a failed commit, without sending them again', async (target) => {
    h = await world.setUp();
    const puts: string[] = [];
    class FlakyCommit extends ServiceClient {
      failCommit = true;
      override async putSignedUpload(url: string, body: UploadBody, options?: UploadOptions): Promise<UploadResult> {
        puts.push(url);
        return super.putSignedUpload(url, body, options);
      }
      override createAsset(...args: Parameters<ServiceClient['createAsset']>): ReturnType<ServiceClient['createAsset']> {
        return this.failCommit ? Promise.reject(new ServiceError({ kind: 'network', message: 'connection reset' })) : super.createAsset(...args);
      }
      override createVersion(...args: Parameters<ServiceClient['createVersion']>): ReturnType<ServiceClient['createVersion']> {
        return this.failCommit ? Promise.reject(new ServiceError({ kind: 'network', message: 'connection reset' })) : super.createVersion(...args);
      }
    }
    const client = new FlakyCommit(clientOptions(world.service, h.demo.accountId, h.demo.user));
    const asset = target === 'version' ? await putAsset(h.client, h.ws, { name: 'master.mov', bytes: Buffer.from('v1') }) : undefined;
    const local = await writeLocal(h.root, 'master.mov', bytesOf(2 * 1024 * 1024 + 1, 'take 3'));
    const action = asset ? uploadVersion(local, asset.id, asset.current_version_id) : uploadNew(local);

    const first = await executePlan([action], h.depsWith({ client }));

    expect(first.uploaded).toBe(0);
    expect(puts).toHaveLength(1);
    const [entry, ...others] = h.index.journal.open(h.ws);
    expect(others).toEqual([]);
    expect(entry).toMatchObject({
      kind: 'upload',
      path: 'master.mov',
      assetId: asset?.id ?? null,
      state: {
        target,
        checksum: local.checksum,
        size: local.size,
        uploadKey: expect.any(String),
        uploaded: true,
        ...(asset ? { parentVersionId: asset.current_version_id } : {}),
      },
    });

    client.failCommit = false;
    const second = await executePlan([action], h.depsWith({ client }));

    expect(second).toMatchObject({ uploaded: 1, failed: [] });
    expect(puts).toHaveLength(1);
    expect(h.index.journal.open(h.ws)).toEqual([]);
    const row = h.index.base.getFile(h.ws, 'master.mov');
    expect(row).toMatchObject({ checksum: local.checksum, size: local.size });
    const versions = await h.client.listVersions(h.ws, row?.assetId ?? '');
    expect(versions[0]).toMatchObject({ id: row?.versionId, checksum: local.checksum });
    await client.close();
  });

  // UploadNew.revive: the file was synced with an asset someone deleted on the service while it
  // was edited here; the edit brings that asset back rather than making a stranger of it.
  describe('of a file whose asset was deleted on the service meanwhile', () => {
    const revived = (local: LocalFile, asset: { id: string; current_version_id: string }): UploadNew => ({
      ...uploadNew(local),
      revive: { assetId: asset.id, parentVersionId: asset.current_version_id },
    });

    it('restores the asset and commits the edit as its next version, and says so', async () => {
      h = await world.setUp();
      const asset = await putAsset(h.client, h.ws, { name: 'brief.pdf', bytes: Buffer.from('brief v1') });
      await h.colleague.deleteAssets(h.ws, [asset.id]);
      const local = await writeLocal(h.root, 'brief.pdf', 'brief v2, edited here');

      const result = await executePlan([revived(local, asset)], h.deps);

      expect(result).toMatchObject({ uploaded: 1, failed: [] });
      expect(await assetsNamed(h, 'brief.pdf')).toEqual([{ id: asset.id, checksum: local.checksum }]);
      const [newest, first] = await h.client.listVersions(h.ws, asset.id);
      expect(first?.id).toBe(asset.current_version_id);
      expect(newest).toMatchObject({ commit_parent_id: asset.current_version_id, checksum: local.checksum });
      expect(h.index.base.getFile(h.ws, 'brief.pdf')).toMatchObject({ assetId: asset.id, versionId: newest?.id });
      expect(h.activity.find((a) => a.kind === 'restored')?.message).toMatch(/Restored brief\.pdf .*deleted there while you edited it/);
      expect(h.activity.find((a) => a.kind === 'uploaded')).toMatchObject({ message: 'Uploaded brief.pdf', version: { assetId: asset.id, versionId: newest?.id, number: 2 } });
    });

    it('commits the edit to it all the same when someone restored it first', async () => {
      h = await world.setUp();
      const asset = await putAsset(h.client, h.ws, { name: 'moodboard.key', bytes: Buffer.from('v1') });
      const local = await writeLocal(h.root, 'moodboard.key', 'v2 by me');

      const result = await executePlan([revived(local, asset)], h.deps);

      expect(result).toMatchObject({ uploaded: 1, failed: [] });
      const versions = await h.client.listVersions(h.ws, asset.id);
      expect(versions.map((v) => v.checksum)).toEqual([local.checksum, sha256('v1')]);
    });

    it('creates a new asset when the old one was deleted for good', async () => {
      h = await world.setUp();
      const asset = await putAsset(h.client, h.ws, { name: 'storyboard.pdf', bytes: Buffer.from('v1') });
      await h.client.deleteAssets(h.ws, [asset.id], { permanent: true });
      const local = await writeLocal(h.root, 'storyboard.pdf', 'v2 by me');

      const result = await executePlan([revived(local, asset)], h.deps);

      expect(result).toMatchObject({ uploaded: 1, failed: [] });
      const [created] = await assetsNamed(h, 'storyboard.pdf');
      expect(created).toEqual({ id: expect.not.stringMatching(asset.id), checksum: local.checksum });
      expect(h.index.base.getFile(h.ws, 'storyboard.pdf')).toMatchObject({ assetId: created?.id });
      expect(h.activity.map((a) => a.kind)).not.toContain('restored');
    });
  });

  it('reports a lock held by someone else and creates no version', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.client, h.ws, { name: 'typography.sketch', bytes: Buffer.from('v1') });
    await h.colleague.updateAsset(h.ws, asset.id, { locked: true });
    const local = await writeLocal(h.root, 'typography.sketch', 'v2 by me');

    const result = await executePlan([uploadVersion(local, asset.id, asset.current_version_id)], h.deps);

    expect(result).toMatchObject({ uploaded: 0, locked: 1, failed: [] });
    expect(h.problems).toEqual([expect.objectContaining({ kind: 'locked', path: 'typography.sketch' })]);
    expect(await h.client.listVersions(h.ws, asset.id)).toHaveLength(1);
  });
});
