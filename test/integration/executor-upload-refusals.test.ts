/**
 * Uploads the service refuses at the commit: what the user is left with (the file, the message,
 * the versions on the service, the journal). The refusals are the real service's own answers, or
 * its route faults where only a broken or busy service would answer that way. A file over 1 MiB
 * has a journal entry holding its stored key: a refusal a retry cannot get past closes it, a
 * passing failure keeps it, so the next attempt commits without sending the bytes again.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathKey } from '../../main/local/paths.js';
import { SMALL_TRANSFER_BYTES } from '../../main/sync/transfer-queue.js';
import type { UploadNew, UploadVersion } from '../../main/sync/actions.js';
import { executePlan } from '../../main/sync/executor/execute-plan.js';
import type { LocalFile } from '../../main/model/views.js';
import type { RouteFault } from '../../service/config.js';
import { keptLogger } from '../helpers/kept-logger.js';
import { assetsNamed, bytesOf, putAsset, putVersion, executorWorld, sha256, writeLocal, type Harness } from './executor-fixture.js';

const world = executorWorld({ faults: { latencyMs: 0, error5xx: 0, drop: 0, truncate: 0, seed: 1 } });
let h: Harness;

const LARGE = SMALL_TRANSFER_BYTES + 1;

const uploadNew = (local: LocalFile, revive?: { id: string; current_version_id: string }): UploadNew => ({
  kind: 'upload-new',
  path: local.path,
  local,
  reason: 'test',
  ...(revive ? { revive: { assetId: revive.id, parentVersionId: revive.current_version_id } } : {}),
});
const uploadVersion = (local: LocalFile, asset: { id: string; current_version_id: string }): UploadVersion => ({
  kind: 'upload-version',
  path: local.path,
  assetId: asset.id,
  parentVersionId: asset.current_version_id,
  local,
  reason: 'test',
});

function routes(rules: RouteFault[]): void {
  const faults = world.service.faults;
  if (faults === undefined) throw new Error('the service runs with faults');
  faults.setRoutes(rules);
}

/** The open upload entries: what a later attempt would commit without sending again. */
const openUploads = (h: Harness) => h.index.journal.open(h.ws).map((e) => ({ path: e.path, uploaded: e.state.uploaded === true }));

describe('an upload refused at its commit', () => {
  it('fails a new file when the name is taken and the service does not say by what: the file stays, no copy is made, and the entry is closed', async () => {
    h = await world.setUp();
    const local = await writeLocal(h.root, 'poster.psd', bytesOf(LARGE, 'poster'));
    routes([{ method: 'POST', path: '/workspaces/assets', answer: 409 }]);

    const result = await executePlan([uploadNew(local)], h.deps);
    routes([]);

    expect(result).toMatchObject({ uploaded: 0, conflicts: 0, deferred: 0 });
    expect(result.failed.map((f) => f.path)).toEqual(['poster.psd']);
    expect(await readdir(h.root)).toEqual(['poster.psd']);
    expect(sha256(await readFile(path.join(h.root, 'poster.psd')))).toBe(local.checksum);
    expect(await assetsNamed(h, 'poster.psd')).toEqual([]);
    expect(h.index.base.getFile(h.ws, 'poster.psd')).toBeUndefined();
    expect(openUploads(h)).toEqual([]);
  });

  it('keeps the stored key of a new file whose commit the service could not take for now', async () => {
    h = await world.setUp();
    const local = await writeLocal(h.root, 'poster.psd', bytesOf(LARGE, 'poster'));
    routes([{ method: 'POST', path: '/workspaces/assets', answer: 503 }]);

    const result = await executePlan([uploadNew(local)], h.deps);
    routes([]);

    expect(result.failed.map((f) => f.path)).toEqual(['poster.psd']);
    expect(openUploads(h)).toEqual([{ path: 'poster.psd', uploaded: true }]);
  });

  it('says the file changed on the service when a newer version came first, and closes the entry of the large edit', async () => {
    h = await world.setUp();
    const { logger, lines } = keptLogger();
    const asset = await putAsset(h.client, h.ws, { name: 'cut.mov', bytes: Buffer.from('v1') });
    const local = await writeLocal(h.root, 'cut.mov', bytesOf(LARGE, 'my cut'));
    await putVersion(h.colleague, h.ws, asset.id, Buffer.from('their cut'), asset.current_version_id);

    const result = await executePlan([uploadVersion(local, asset)], h.depsWith({ logger }));

    expect(result).toMatchObject({ uploaded: 0, deferred: 1, conflicts: 0, locked: 0, failed: [] });
    expect(h.problems).toEqual([
      {
        workspaceId: h.ws,
        path: 'cut.mov',
        kind: 'conflict',
        message: '"cut.mov" changed on the service while your edit was uploading: nothing was overwritten',
        hint: 'The next sync keeps both versions (yours as a conflicted copy).',
      },
    ]);
    expect((await h.client.listVersions(h.ws, asset.id)).map((v) => v.checksum)).toEqual([sha256('their cut'), sha256('v1')]);
    expect(sha256(await readFile(path.join(h.root, 'cut.mov')))).toBe(local.checksum);
    expect(openUploads(h)).toEqual([]);
    expect(lines.find((l) => l.path === 'cut.mov')?.why).toBe('someone committed a newer version first');
  });

  it('says who holds the lock that stops an edit, and closes the entry of the large edit', async () => {
    h = await world.setUp();
    const { logger, lines } = keptLogger();
    const asset = await putAsset(h.client, h.ws, { name: 'type.sketch', bytes: Buffer.from('v1') });
    await h.colleague.updateAsset(h.ws, asset.id, { locked: true });
    const local = await writeLocal(h.root, 'type.sketch', bytesOf(LARGE, 'my type'));

    const result = await executePlan([uploadVersion(local, asset)], h.depsWith({ logger, lockHolder: (rel) => (rel === 'type.sketch' ? 'Rafael Ortiz' : undefined) }));

    expect(result).toMatchObject({ uploaded: 0, deferred: 1, locked: 1, conflicts: 0, failed: [] });
    expect(h.problems).toEqual([
      {
        workspaceId: h.ws,
        path: 'type.sketch',
        kind: 'locked',
        message: '"type.sketch" is locked by Rafael Ortiz: your edit waits for the lock',
        hint: 'Ask them to unlock it.',
      },
    ]);
    expect(await h.client.listVersions(h.ws, asset.id)).toHaveLength(1);
    expect(openUploads(h)).toEqual([]);
    expect(lines.find((l) => l.path === 'type.sketch')?.why).toBe('the asset is locked by someone else');
  });

  it('keeps the stored key of a large edit whose version the service could not take for now', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.client, h.ws, { name: 'cut.mov', bytes: Buffer.from('v1') });
    const local = await writeLocal(h.root, 'cut.mov', bytesOf(LARGE, 'my cut'));
    routes([{ method: 'POST', path: `/workspaces/assets/${asset.id}/versions`, answer: 503 }]);

    const result = await executePlan([uploadVersion(local, asset)], h.deps);
    routes([]);

    expect(result.failed.map((f) => f.path)).toEqual(['cut.mov']);
    expect(openUploads(h)).toEqual([{ path: 'cut.mov', uploaded: true }]);
    expect(await h.client.listVersions(h.ws, asset.id)).toHaveLength(1);
  });

  it('sets a new file aside as a conflicted copy, with the activity saying so, when another file took its name', async () => {
    h = await world.setUp();
    const { logger, lines } = keptLogger();
    await putAsset(h.colleague, h.ws, { name: 'plan.key', bytes: Buffer.from('their plan') });
    const local = await writeLocal(h.root, 'plan.key', bytesOf(LARGE, 'my plan'));

    const result = await executePlan([uploadNew(local)], h.depsWith({ logger }));

    const copy = 'plan (conflicted copy Test-Box 2024-03-05 140709).key';
    expect(result).toMatchObject({ uploaded: 0, conflicts: 1, deferred: 1, failed: [] });
    expect(h.problems).toEqual([
      {
        workspaceId: h.ws,
        path: 'plan.key',
        kind: 'conflict',
        message: `"plan.key" was also created on the service with different content: yours is kept as "${copy}"`,
        hint: 'Compare the two files and keep the one you want.',
      },
    ]);
    expect(h.activity.filter((a) => a.kind === 'conflict').map((a) => [a.path, a.message])).toEqual([
      [copy, `Kept plan.key as ${copy}: the service has another file with that name`],
    ]);
    expect(sha256(await readFile(path.join(h.root, copy)))).toBe(local.checksum);
    expect(openUploads(h)).toEqual([]);
    expect(lines.find((l) => l.path === 'plan.key')?.why).toBe('another asset with different content has this name');
  });

  it('fails a new file whose name a folder on the service holds, and leaves the file where it is', async () => {
    h = await world.setUp();
    await h.colleague.createFolder(h.ws, { name: 'Renders' });
    const local = await writeLocal(h.root, 'Renders', 'a file, not a folder');

    const result = await executePlan([uploadNew(local)], h.deps);

    expect(result).toMatchObject({ uploaded: 0, conflicts: 0, deferred: 0 });
    expect(result.failed.map((f) => f.path)).toEqual(['Renders']);
    expect(h.problems).toEqual([expect.objectContaining({ path: 'Renders', message: expect.stringContaining('A folder named "Renders" already exists') })]);
    expect(await readdir(h.root)).toEqual(['Renders']);
    expect(await readFile(path.join(h.root, 'Renders'), 'utf8')).toBe('a file, not a folder');
  });

  it('moves a conflicted copy whose name was taken on the service to the next free copy name of its original', async () => {
    h = await world.setUp();
    const first = 'budget (conflicted copy Test-Box 2024-03-05 140709).xlsx';
    await putAsset(h.colleague, h.ws, { name: first, bytes: Buffer.from('their copy') });
    const local = await writeLocal(h.root, first, 'my budget');

    const result = await executePlan([{ ...uploadNew(local), copyOf: 'budget.xlsx' }], h.deps);

    expect(result).toMatchObject({ uploaded: 0, conflicts: 1, failed: [] });
    expect(await readdir(h.root)).toEqual(['budget (conflicted copy Test-Box 2024-03-05 140709 2).xlsx']);
  });

  it('fails, and does not call the file changing, when the service refuses the upload itself', async () => {
    h = await world.setUp();
    const local = await writeLocal(h.root, 'poster.psd', 'poster');
    const cache = h.index.hashCache(h.ws);
    const cached = { size: local.size, mtimeNs: local.mtimeNs, ctimeNs: local.ctimeNs, inode: local.inode, checksum: local.checksum };
    cache.put(pathKey('poster.psd'), cached);
    routes([{ method: 'POST', path: '/workspaces/upload', answer: 403 }]);

    const result = await executePlan([uploadNew(local)], h.deps);
    routes([]);

    expect(result).toMatchObject({ uploaded: 0, deferred: 0 });
    expect(result.failed.map((f) => f.path)).toEqual(['poster.psd']);
    expect(h.problems.map((p) => p.kind)).not.toContain('unstable');
    expect(cache.get(pathKey('poster.psd'))).toEqual(cached);
  });

  it('defers a file deleted after the scan as still changing, and creates nothing', async () => {
    h = await world.setUp();
    const local = await writeLocal(h.root, 'gone.txt', 'scanned, then deleted');
    await rm(path.join(h.root, 'gone.txt'));

    const result = await executePlan([uploadNew(local)], h.deps);

    expect(result).toMatchObject({ uploaded: 0, deferred: 1, failed: [] });
    expect(h.problems).toEqual([
      {
        workspaceId: h.ws,
        path: 'gone.txt',
        kind: 'unstable',
        message: '"gone.txt" changed while it was being uploaded: nothing was committed',
        hint: 'It is uploaded once it stops changing.',
      },
    ]);
    expect(await assetsNamed(h, 'gone.txt')).toEqual([]);
  });
});

// UploadNew.revive: the asset the file was synced with was deleted on the service meanwhile.
describe('an edit whose asset cannot be restored', () => {
  it('becomes a conflicted copy when another file took the name since: the deleted asset stays deleted', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.client, h.ws, { name: 'brief.pdf', bytes: Buffer.from('brief v1') });
    await h.colleague.deleteAssets(h.ws, [asset.id]);
    const theirs = await putAsset(h.colleague, h.ws, { name: 'brief.pdf', bytes: Buffer.from('their new brief') });
    const local = await writeLocal(h.root, 'brief.pdf', 'brief v2, edited here');

    const result = await executePlan([uploadNew(local, asset)], h.deps);

    const copy = 'brief (conflicted copy Test-Box 2024-03-05 140709).pdf';
    expect(result).toMatchObject({ uploaded: 0, conflicts: 1, failed: [] });
    expect(await assetsNamed(h, 'brief.pdf')).toEqual([{ id: theirs.id, checksum: sha256('their new brief') }]);
    expect(await readFile(path.join(h.root, copy), 'utf8')).toBe('brief v2, edited here');
    expect(h.activity.map((a) => a.kind)).not.toContain('restored');
  });

  it.each([
    ['could not take it for now', 503, [{ path: 'brief.pdf', uploaded: true }]],
    ['refused it', 403, []],
  ] as const)('fails, restores nothing and commits nothing when the service %s', async (_how, answer, entries) => {
    h = await world.setUp();
    const asset = await putAsset(h.client, h.ws, { name: 'brief.pdf', bytes: Buffer.from('brief v1') });
    await h.colleague.deleteAssets(h.ws, [asset.id]);
    const local = await writeLocal(h.root, 'brief.pdf', bytesOf(LARGE, 'brief v2'));
    routes([{ method: 'PATCH', path: `/workspaces/assets/${asset.id}/restore`, answer }]);

    const result = await executePlan([uploadNew(local, asset)], h.deps);
    routes([]);

    expect(result).toMatchObject({ uploaded: 0, failed: [expect.objectContaining({ path: 'brief.pdf' })] });
    expect(await assetsNamed(h, 'brief.pdf')).toEqual([]);
    expect(await h.client.listVersions(h.ws, asset.id)).toHaveLength(1);
    expect(h.activity.map((a) => a.kind)).not.toContain('restored');
    expect(openUploads(h)).toEqual(entries);
  });
});

describe('a file of exactly the small-transfer size', () => {
  it('keeps no journal entry when its commit fails: it is sent again', async () => {
    h = await world.setUp();
    const local = await writeLocal(h.root, 'edge.bin', bytesOf(SMALL_TRANSFER_BYTES, 'edge'));
    routes([{ method: 'POST', path: '/workspaces/assets', answer: 503 }]);

    const result = await executePlan([uploadNew(local)], h.deps);
    routes([]);

    expect(result.failed.map((f) => f.path)).toEqual(['edge.bin']);
    expect(openUploads(h)).toEqual([]);
  });
});
