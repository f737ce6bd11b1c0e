/**
 * What a download finds at its target once its bytes are in: not what the plan saw. A folder
 * made at the name, a file the user deleted, a symlink put in its place while the bytes came:
 * nothing of the user's is replaced, nothing is written through the symlink, and the temp file
 * is removed (a small file's) or kept for the next attempt (a journalled large file's). A
 * download stopped by the user keeps what it received for the next run, and one held back by a
 * bandwidth limit still lands byte for byte.
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Download } from '../../main/sync/actions.js';
import { executePlan } from '../../main/sync/executor/execute-plan.js';
import { SMALL_TRANSFER_BYTES, TransferQueue, type TransferHandle } from '../../main/sync/transfer-queue.js';
import type { RemoteFile } from '../../main/model/views.js';
import { bytesOf, executorWorld, putAsset, remoteFileOf, sha256, type Harness } from './executor-fixture.js';

const world = executorWorld();

const download = (remote: RemoteFile, replaces: string | null = null): Download => ({ kind: 'download', path: remote.path, remote, replaces, reason: 'test' });

const tempFiles = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((n) => n.startsWith('.assetsync-') && n.endsWith('.part'));

/** An asset on the service, and the remote file a plan would download it as. */
async function onService(h: Harness, name: string, size: number): Promise<{ remote: RemoteFile; bytes: Buffer }> {
  const bytes = bytesOf(size, name);
  const asset = await putAsset(h.colleague, h.ws, { name, bytes });
  return { remote: await remoteFileOf(h.client, h.ws, asset.id, name), bytes };
}

type Work = (t: TransferHandle) => Promise<unknown>;

/** The harness's queue, with `around` between it and each transfer's work (to act mid-transfer). */
function queueAround(h: Harness, around: (work: Work, t: TransferHandle) => Promise<unknown>): TransferQueue {
  const queue = Object.create(h.queue) as TransferQueue;
  queue.run = ((job, work: Work) => h.queue.run(job, (t) => around(work, t))) as TransferQueue['run'];
  return queue;
}

describe('a download whose target is no longer what the plan saw', () => {
  it('leaves a folder made at its name alone', async () => {
    const h = await world.setUp();
    const { remote } = await onService(h, 'renders', 3000);
    mkdirSync(path.join(h.root, 'renders'));
    writeFileSync(path.join(h.root, 'renders', 'frame-001.png'), 'the user\'s frame');

    const result = await executePlan([download(remote)], h.deps);

    expect(result).toMatchObject({ downloaded: 0, deferred: 1, failed: [] });
    expect(readFileSync(path.join(h.root, 'renders', 'frame-001.png'), 'utf8')).toBe('the user\'s frame');
    expect(await tempFiles(h.root)).toEqual([]);
    expect(h.problems.map((p) => [p.kind, p.path])).toEqual([['unstable', 'renders']]);
  });

  it('leaves a folder made where the file it replaces was', async () => {
    const h = await world.setUp();
    const { remote } = await onService(h, 'renders', 3000);
    mkdirSync(path.join(h.root, 'renders'));
    writeFileSync(path.join(h.root, 'renders', 'frame-001.png'), 'the user\'s frame');

    const result = await executePlan([download(remote, sha256('the version the plan saw'))], h.deps);

    expect(result).toMatchObject({ downloaded: 0, deferred: 1, failed: [] });
    expect(readFileSync(path.join(h.root, 'renders', 'frame-001.png'), 'utf8')).toBe('the user\'s frame');
    expect(await tempFiles(h.root)).toEqual([]);
    expect(h.problems.map((p) => [p.kind, p.path])).toEqual([['unstable', 'renders']]);
  });

  it('does not bring back a file the user deleted after the plan was made', async () => {
    const h = await world.setUp();
    const { remote } = await onService(h, 'brief.md', 2000);
    // The plan replaces the file it saw; the user deleted it since.
    const result = await executePlan([download(remote, sha256('the version the plan saw'))], h.deps);

    expect(result).toMatchObject({ downloaded: 0, deferred: 1, failed: [] });
    expect(await readdir(h.root)).not.toContain('brief.md');
    expect(await tempFiles(h.root)).toEqual([]);
    expect(h.problems.map((p) => [p.kind, p.path])).toEqual([['unstable', 'brief.md']]);
  });

  it('keeps an edit the user saved after the plan was made, and says it was not overwritten', async () => {
    const h = await world.setUp();
    const { remote } = await onService(h, 'brief.md', 2000);
    // The plan replaces the file it saw; the user saved other bytes since.
    writeFileSync(path.join(h.root, 'brief.md'), 'the user\'s edit, saved after the plan');
    const result = await executePlan([download(remote, sha256('the version the plan saw'))], h.deps);

    expect(result).toMatchObject({ downloaded: 0, deferred: 1, failed: [] });
    expect(readFileSync(path.join(h.root, 'brief.md'), 'utf8')).toBe('the user\'s edit, saved after the plan');
    expect(await tempFiles(h.root)).toEqual([]);
    expect(h.problems.map((p) => [p.kind, p.path, p.message])).toEqual([['unstable', 'brief.md', '"brief.md" changed on disk while its new version was downloading: it was not overwritten']]);
  });

  it.each([
    ['a small file', 'logo.svg', 4000, false, false],
    ['a large file', 'teaser.mp4', SMALL_TRANSFER_BYTES + 70_000, true, false],
    ['a small file replacing one', 'mark.svg', 4000, false, true],
  ])('never writes through a symlink put at its name while its bytes came (%s)', async (_what, name, size, journalled, replacing) => {
    const h = await world.setUp();
    const { remote, bytes } = await onService(h, name, size);
    const secret = path.join(h.outside, 'secret.txt');
    writeFileSync(secret, 'not the sync client\'s to touch');
    const old = 'the version the plan saw';
    if (replacing) writeFileSync(path.join(h.root, name), old);
    const swapIn = async (work: Work, t: TransferHandle) => {
      const fetched = await work(t);
      rmSync(path.join(h.root, name), { force: true });
      symlinkSync(secret, path.join(h.root, name));
      return fetched;
    };
    const deps = h.depsWith({ queue: queueAround(h, swapIn) });

    const result = await executePlan([download(remote, replacing ? sha256(old) : null)], deps);

    expect(result.downloaded).toBe(0);
    expect(result.failed.map((f) => [f.path, (f.error as { code?: string }).code])).toEqual([[name, 'path_escape']]);
    expect(readFileSync(secret, 'utf8')).toBe('not the sync client\'s to touch');
    expect(readFileSync(path.join(h.root, name), 'utf8')).toBe('not the sync client\'s to touch');
    const temps = await tempFiles(h.root);
    if (!journalled) {
      expect(temps).toEqual([]);
      expect(h.index.journal.open(h.ws)).toEqual([]);
      return;
    }
    // Complete and verified: the next attempt places it without asking for the bytes again.
    expect(temps).toHaveLength(1);
    expect(sha256(await readFile(path.join(h.root, temps[0] as string)))).toBe(sha256(bytes));
    expect(h.index.journal.open(h.ws)).toMatchObject([{ kind: 'download', path: name }]);
    rmSync(path.join(h.root, name));
    expect(await executePlan([download(remote)], h.deps)).toMatchObject({ downloaded: 1, failed: [] });
    expect(sha256(await readFile(path.join(h.root, name)))).toBe(sha256(bytes));
    expect(await tempFiles(h.root)).toEqual([]);
  });
});

describe('a download under a bandwidth limit', () => {
  it('waits for its turn with each chunk and still lands byte for byte', async () => {
    const h = await world.setUp();
    const files = await Promise.all([onService(h, 'small.png', 90_000), onService(h, 'large.mov', SMALL_TRANSFER_BYTES + 300_000)]);
    const queue = new TransferQueue({ maxDownloads: 4, maxUploads: 2, bandwidthLimit: 64 * 1024 * 1024 });

    const result = await executePlan(files.map(({ remote }) => download(remote)), h.depsWith({ queue }));

    expect(result).toMatchObject({ downloaded: 2, failed: [] });
    for (const { remote, bytes } of files) expect(sha256(await readFile(path.join(h.root, remote.path)))).toBe(sha256(bytes));
  });
});

describe('a large download the user stops midway', () => {
  it('keeps the bytes received, and the next run completes them', async () => {
    const h = await world.setUp();
    const size = SMALL_TRANSFER_BYTES * 3;
    const { remote, bytes } = await onService(h, 'master.mov', size);
    const stop = new AbortController();
    const queue = queueAround(h, (work, t) =>
      work({
        ...t,
        progress: (done: number) => {
          t.progress(done);
          if (done >= size / 3) stop.abort();
        },
      }),
    );

    const stopped = await executePlan([download(remote)], h.depsWith({ queue, signal: stop.signal }));

    expect(stopped.downloaded).toBe(0);
    const [entry] = h.index.journal.open(h.ws);
    const temps = await tempFiles(h.root);
    expect(temps).toHaveLength(1);
    const kept = (await readFile(path.join(h.root, temps[0] as string))).length;
    expect(kept).toBeGreaterThan(0);
    expect(entry).toMatchObject({ kind: 'download', path: 'master.mov', state: { bytesDone: kept } });

    expect(await executePlan([download(remote)], h.deps)).toMatchObject({ downloaded: 1, failed: [] });
    expect(sha256(await readFile(path.join(h.root, 'master.mov')))).toBe(sha256(bytes));
    expect(await tempFiles(h.root)).toEqual([]);
  });

  it('keeps its verified bytes when stopped while the file it replaces is read, and does not say that file changed', async () => {
    const h = await world.setUp();
    const size = SMALL_TRANSFER_BYTES * 2;
    const { remote, bytes } = await onService(h, 'master.mov', size);
    const synced = Buffer.from('the version the plan saw');
    writeFileSync(path.join(h.root, 'master.mov'), synced);
    const stop = new AbortController();
    // Stopped once all bytes are in, before the file they replace is read to see it is unchanged.
    const queue = queueAround(h, async (work, t) => {
      const fetched = await work(t);
      stop.abort();
      return fetched;
    });

    const stopped = await executePlan([download(remote, sha256(synced))], h.depsWith({ queue, signal: stop.signal }));

    expect(stopped).toMatchObject({ downloaded: 0, deferred: 0 });
    expect(h.problems.filter((p) => p.kind === 'unstable')).toEqual([]);
    expect(readFileSync(path.join(h.root, 'master.mov'))).toEqual(synced);
    const temps = await tempFiles(h.root);
    expect(temps).toHaveLength(1);
    expect(sha256(await readFile(path.join(h.root, temps[0] as string)))).toBe(sha256(bytes));

    // The next run places them without asking for them again.
    const client = Object.create(h.client) as typeof h.client;
    client.getDownloadUrl = () => Promise.reject(new Error('asked for the bytes again'));
    expect(await executePlan([download(remote, sha256(synced))], h.depsWith({ client }))).toMatchObject({ downloaded: 1, failed: [] });
    expect(sha256(await readFile(path.join(h.root, 'master.mov')))).toBe(sha256(bytes));
    expect(await tempFiles(h.root)).toEqual([]);
  });

  it('leaves no temp file nor journal entry when stopped before its first byte', async () => {
    const h = await world.setUp();
    const { remote } = await onService(h, 'master.mov', SMALL_TRANSFER_BYTES * 2);
    const stop = new AbortController();
    const queue = queueAround(h, (work, t) => {
      stop.abort();
      return work(t);
    });

    const stopped = await executePlan([download(remote)], h.depsWith({ queue, signal: stop.signal }));

    expect(stopped.downloaded).toBe(0);
    expect(await tempFiles(h.root)).toEqual([]);
    expect(h.index.journal.open(h.ws)).toEqual([]);
  });
});
