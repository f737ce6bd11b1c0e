import { createHash } from 'node:crypto';
import { existsSync, linkSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServiceClient, type UploadRequest, type CallOptions } from '../../main/service-client/index.js';
import type { UploadTicket } from '../helpers/served.js';
import { executePlan, recoverJournal, removeLeftoverTemps } from '../../main/sync/executor/execute-plan.js';
import { createIgnoreMatcher } from '../../main/local/ignore.js';
import { scanTree } from '../../main/local/scanner.js';
import { tempFileName } from '../../main/local/own-files.js';
import type { LocalFile } from '../../main/model/views.js';
import { clientOptions, putAsset, remoteFileOf, executorWorld, writeLocal, type Harness } from './executor-fixture.js';

/** The real client, counting upload tickets (a re-commit must not ask for a new one). */
class TicketCountingClient extends ServiceClient {
  tickets = 0;
  override requestUpload(workspaceId: string, input: UploadRequest, options?: CallOptions): Promise<UploadTicket> {
    this.tickets++;
    return super.requestUpload(workspaceId, input, options);
  }
}

const world = executorWorld();
let h: Harness;

/**
 * What a run killed mid-upload leaves: the journal entry with the key, the bytes on the service
 * under that key, and (if `commit`) the version committed, but no base row.
 */
async function crashedUpload(h: Harness, assetId: string, parentVersionId: string, local: LocalFile, commit: boolean): Promise<string> {
  const ticket = await h.client.requestUpload(h.ws, { fileName: 'x', contentType: 'application/octet-stream', checksum: local.checksum, size: local.size });
  await h.client.putSignedUpload(ticket.signed_url, await readFile(path.join(h.root, local.path)));
  h.index.journal.begin({
    workspaceId: h.ws,
    kind: 'upload',
    path: local.path,
    assetId,
    state: {
      target: 'version',
      checksum: local.checksum,
      size: local.size,
      mtimeNs: local.mtimeNs,
      inode: local.inode,
      parentVersionId,
      uploadKey: ticket.key,
      uploaded: true,
    },
  });
  if (commit) {
    await h.client.createVersion(h.ws, assetId, { key: ticket.key, checksum: local.checksum, size: local.size, commit_parent_id: parentVersionId });
  }
  return ticket.key;
}

describe('recoverJournal', () => {
  it('records the base of an upload committed just before a crash, without a second version', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.client, h.ws, { name: 'deck.key', bytes: Buffer.from('v1') });
    const local = await writeLocal(h.root, 'deck.key', 'v2, edited');
    await crashedUpload(h, asset.id, asset.current_version_id, local, true);

    await recoverJournal(h.deps);

    const versions = await h.client.listVersions(h.ws, asset.id);
    expect(versions).toHaveLength(2);
    expect(h.index.base.getFile(h.ws, 'deck.key')).toEqual({
      path: 'deck.key',
      assetId: asset.id,
      versionId: versions[0]?.id,
      checksum: local.checksum,
      size: local.size,
      mtimeNs: local.mtimeNs,
      inode: local.inode,
    });
    expect(h.index.journal.open(h.ws)).toEqual([]);
  });

  it('leaves an uncommitted upload to the planner, whose upload commits the same key once', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.client, h.ws, { name: 'deck.key', bytes: Buffer.from('v1') });
    const local = await writeLocal(h.root, 'deck.key', 'v2, edited');
    const key = await crashedUpload(h, asset.id, asset.current_version_id, local, false);
    const client = new TicketCountingClient(clientOptions(world.service, h.demo.accountId, h.demo.user));
    const deps = h.depsWith({ client });

    await recoverJournal(deps);
    expect(h.index.journal.open(h.ws)).toHaveLength(1);

    const upload = { kind: 'upload-version', path: 'deck.key', assetId: asset.id, parentVersionId: asset.current_version_id, local, reason: 'test' } as const;
    const result = await executePlan([upload], deps);

    expect(result).toMatchObject({ uploaded: 1, failed: [] });
    expect(client.tickets).toBe(0);
    const versions = await h.client.listVersions(h.ws, asset.id);
    expect(versions.map((v) => v.key)).toEqual([key, expect.any(String)]);
    expect(h.index.journal.open(h.ws)).toEqual([]);
    await client.close();
  });

  it('re-commits the same key when the commit landed but its answer was lost: no duplicate version', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.client, h.ws, { name: 'deck.key', bytes: Buffer.from('v1') });
    const local = await writeLocal(h.root, 'deck.key', 'v2, edited');
    await crashedUpload(h, asset.id, asset.current_version_id, local, true);

    const upload = { kind: 'upload-version', path: 'deck.key', assetId: asset.id, parentVersionId: asset.current_version_id, local, reason: 'test' } as const;
    const result = await executePlan([upload], h.deps);

    expect(result).toMatchObject({ uploaded: 1, failed: [] });
    const versions = await h.client.listVersions(h.ws, asset.id);
    expect(versions).toHaveLength(2);
    expect(h.index.base.getFile(h.ws, 'deck.key')?.versionId).toBe(versions[0]?.id);
  });

  // Entries left by earlier attempts: only one for the same bytes, target and asset is committed;
  // one for other bytes, for a new asset or for another asset is obsolete, as is a second one.
  it('commits the stored key of the earlier attempt at the same bytes and asset, and closes every other entry for the path', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.client, h.ws, { name: 'deck.key', bytes: Buffer.from('v1') });
    const elsewhere = await putAsset(h.client, h.ws, { name: 'elsewhere.key', bytes: Buffer.from('v1') });
    const local = await writeLocal(h.root, 'deck.key', 'v2, edited');
    const bytes = await readFile(path.join(h.root, 'deck.key'));
    const stored = async (content: Buffer): Promise<{ key: string; checksum: string; size: number }> => {
      const checksum = createHash('sha256').update(content).digest('hex');
      const ticket = await h.client.requestUpload(h.ws, { fileName: 'x', contentType: 'application/octet-stream', checksum, size: content.length });
      await h.client.putSignedUpload(ticket.signed_url, content);
      return { key: ticket.key, checksum, size: content.length };
    };
    const entry = (assetId: string | null, target: 'new' | 'version', upload: { key: string; checksum: string; size: number }) =>
      h.index.journal.begin({
        workspaceId: h.ws,
        kind: 'upload',
        path: 'deck.key',
        assetId,
        state: { target, checksum: upload.checksum, size: upload.size, mtimeNs: local.mtimeNs, inode: local.inode, uploadKey: upload.key, uploaded: true },
      });
    entry(asset.id, 'version', await stored(Buffer.from('v2, an older edit')));
    entry(null, 'new', await stored(bytes));
    entry(elsewhere.id, 'version', await stored(bytes));
    const same = await stored(bytes);
    entry(asset.id, 'version', same);
    entry(asset.id, 'version', await stored(bytes));
    const client = new TicketCountingClient(clientOptions(world.service, h.demo.accountId, h.demo.user));

    const upload = { kind: 'upload-version', path: 'deck.key', assetId: asset.id, parentVersionId: asset.current_version_id, local, reason: 'test' } as const;
    const result = await executePlan([upload], h.depsWith({ client }));

    expect(result).toMatchObject({ uploaded: 1, failed: [] });
    expect(client.tickets).toBe(0);
    const versions = await h.client.listVersions(h.ws, asset.id);
    expect(versions.map((v) => v.key)).toEqual([same.key, expect.any(String)]);
    expect(await h.client.listVersions(h.ws, elsewhere.id)).toHaveLength(1);
    expect(h.index.journal.open(h.ws)).toEqual([]);
    await client.close();
  });

  it('sends the bytes of a new file again rather than commit a key stored for a version of another asset', async () => {
    h = await world.setUp();
    const other = await putAsset(h.client, h.ws, { name: 'other.key', bytes: Buffer.from('v1') });
    const local = await writeLocal(h.root, 'deck.key', 'v2, edited');
    await crashedUpload(h, other.id, other.current_version_id, local, false);
    const client = new TicketCountingClient(clientOptions(world.service, h.demo.accountId, h.demo.user));

    const result = await executePlan([{ kind: 'upload-new', path: 'deck.key', local, reason: 'test' }], h.depsWith({ client }));

    expect(result).toMatchObject({ uploaded: 1, failed: [] });
    expect(client.tickets).toBe(1);
    expect(h.index.journal.open(h.ws)).toEqual([]);
    await client.close();
  });

  it('keeps the temp file of a download still wanted, drops the others and stray temp files', async () => {
    h = await world.setUp();
    const wanted = await putAsset(h.colleague, h.ws, { name: 'wanted.bin', bytes: Buffer.from('wanted bytes') });
    const stale = await putAsset(h.colleague, h.ws, { name: 'stale.bin', bytes: Buffer.from('stale bytes') });
    const wantedRemote = await remoteFileOf(h.client, h.ws, wanted.id, 'wanted.bin');
    const staleRemote = await remoteFileOf(h.client, h.ws, stale.id, 'stale.bin');
    h.index.remote.replaceAll(h.ws, { folders: [], files: [wantedRemote, { ...staleRemote, checksum: 'f'.repeat(64) }], sequence: '1' });
    const keep = '.assetsync-00000000000000a1.part';
    const drop = '.assetsync-00000000000000a2.part';
    const stray = 'Deep/.assetsync-00000000000000a3.part';
    await mkdir(path.join(h.root, 'Deep'));
    for (const temp of [keep, drop, stray]) await writeFile(path.join(h.root, temp), 'partial');
    await writeFile(path.join(h.root, 'Deep/user-file.part'), 'not ours');
    h.index.journal.begin({ workspaceId: h.ws, kind: 'download', path: 'wanted.bin', assetId: wanted.id, state: { tempPath: keep, checksum: wantedRemote.checksum } });
    h.index.journal.begin({ workspaceId: h.ws, kind: 'download', path: 'stale.bin', assetId: stale.id, state: { tempPath: drop, checksum: staleRemote.checksum } });

    await recoverJournal(h.deps);
    // What a start's first walk finds goes, but for what the open entries name.
    const walked = await scanTree(h.root, { hashCache: h.index.hashCache(h.ws), ignore: createIgnoreMatcher() });
    await removeLeftoverTemps(h.deps, walked.temps);

    expect(existsSync(path.join(h.root, keep))).toBe(true);
    expect(existsSync(path.join(h.root, drop))).toBe(false);
    expect(existsSync(path.join(h.root, stray))).toBe(false);
    expect(existsSync(path.join(h.root, 'Deep/user-file.part'))).toBe(true);
    expect(h.index.journal.open(h.ws).map((e) => e.path)).toEqual(['wanted.bin']);
  });

  it('leaves the temp files this process is writing to the sweep of leftovers', async () => {
    h = await world.setUp();
    const own = tempFileName();
    const leftover = tempFileName('00000000000000c1');
    for (const temp of [own, leftover]) await writeFile(path.join(h.root, temp), 'partial');
    await removeLeftoverTemps(h.deps, [own, leftover]);
    expect(existsSync(path.join(h.root, own))).toBe(true);
    expect(existsSync(path.join(h.root, leftover))).toBe(false);
  });

  it('closes a download whose file was put in place just before the crash, keeping the file', async () => {
    h = await world.setUp();
    const bytes = Buffer.from('placed bytes');
    const asset = await putAsset(h.colleague, h.ws, { name: 'placed.bin', bytes });
    const remote = await remoteFileOf(h.client, h.ws, asset.id, 'placed.bin');
    h.index.remote.replaceAll(h.ws, { folders: [], files: [remote], sequence: '1' });
    // Placing links the temp file to its name and then removes the temp name: the crash came between.
    const temp = '.assetsync-00000000000000b1.part';
    await writeFile(path.join(h.root, temp), bytes);
    linkSync(path.join(h.root, temp), path.join(h.root, 'placed.bin'));
    h.index.journal.begin({ workspaceId: h.ws, kind: 'download', path: 'placed.bin', assetId: asset.id, state: { tempPath: temp, checksum: remote.checksum } });

    await recoverJournal(h.deps);

    expect(existsSync(path.join(h.root, temp))).toBe(false);
    expect(await readFile(path.join(h.root, 'placed.bin'))).toEqual(bytes);
    expect(h.index.journal.open(h.ws)).toEqual([]);
  });
});
