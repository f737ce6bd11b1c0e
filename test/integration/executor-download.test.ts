import { appendFileSync, constants, existsSync, fstatSync, readFileSync, readdirSync, readlinkSync, realpathSync, statSync, writeFileSync, type Mode } from 'node:fs';
import { mkdir, open, readFile, readdir, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pathKey } from '../../main/local/paths.js';
import { ServiceClient, type DownloadOptions, type DownloadResponse, type SocketBody } from '../../main/service-client/index.js';
import type { Download } from '../../main/sync/actions.js';
import { DIRECT_IO_MIN_BYTES, directStart } from '../../main/sync/executor/direct-writer.js';
import { executePlan } from '../../main/sync/executor/execute-plan.js';
import { SMALL_TRANSFER_BYTES } from '../../main/sync/transfer-queue.js';
import type { RemoteFile } from '../../main/model/views.js';
import type { FaultOptions } from '../../service/index.js';
import { bytesOf, clientOptions, putAsset, putVersion, remoteFileOf, executorWorld, sha256, type Harness } from './executor-fixture.js';

/** The real client, noting where each download started (to see a `Range` resume), and how it was read. */
class RangeRecordingClient extends ServiceClient {
  readonly starts: number[] = [];
  readonly readers: Array<'socket' | 'undici'> = [];
  override downloadRange(url: string, options: DownloadOptions = {}): Promise<DownloadResponse> {
    this.starts.push(options.start ?? 0);
    this.readers.push('undici');
    return super.downloadRange(url, options);
  }
  override async downloadFromSocket(url: string, options: Pick<DownloadOptions, 'start' | 'signal'> = {}): Promise<SocketBody | undefined> {
    const body = await super.downloadFromSocket(url, options);
    if (body !== undefined) {
      this.starts.push(options.start ?? 0);
      this.readers.push('socket');
    }
    return body;
  }
}

const faults: FaultOptions = { latencyMs: 0, error5xx: 0, drop: 0, truncate: 0, seed: 1 };
const world = executorWorld({ faults });
let h: Harness;
afterEach(() => {
  faults.truncate = 0;
});

const download = (remote: RemoteFile, replaces: string | null = null, at = remote.path): Download => ({
  kind: 'download',
  path: at,
  remote: { ...remote, path: at },
  replaces,
  reason: 'test',
});

const recordingClient = (): RangeRecordingClient => new RangeRecordingClient(clientOptions(world.service, h.demo.accountId, h.demo.user));

const tempFiles = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((n) => n.startsWith('.assetsync-') && n.endsWith('.part'));

/**
 * Whether each file's bytes and mode are on disk, as this process asked for it (Linux): every
 * write through a descriptor without O_SYNC (read from /proc/self/fdinfo) and every chmod must be
 * followed by an fsync of the file. Wraps FileHandle's write, writev, chmod and sync until `stop()`.
 */
async function watchDurability(scratch: string) {
  const probe = await open(path.join(scratch, 'probe'), 'w');
  const proto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const original = { write: proto.write, writev: proto.writev, chmod: proto.chmod, sync: proto.sync };
  let clock = 0;
  /** Per inode: when it was last changed with nothing making the change durable, and last fsynced. */
  const unsynced = new Map<bigint, { change: number; what: string }>();
  const synced = new Map<bigint, number>();
  const inode = (fd: number): bigint => fstatSync(fd, { bigint: true }).ino;
  const oSync = (fd: number): boolean => {
    const flags = Number.parseInt(/flags:\s*([0-7]+)/.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1] ?? '0', 8);
    return (flags & constants.O_SYNC) === constants.O_SYNC;
  };
  const changed = (fd: number, what: string): void => {
    unsynced.set(inode(fd), { change: ++clock, what });
  };
  proto.write = function (this: FileHandle, ...args: unknown[]) {
    if (!oSync(this.fd)) changed(this.fd, 'a write without O_SYNC');
    return (original.write as (...a: unknown[]) => unknown).apply(this, args);
  } as FileHandle['write'];
  proto.writev = function (this: FileHandle, ...args: unknown[]) {
    if (!oSync(this.fd)) changed(this.fd, 'a write without O_SYNC');
    return (original.writev as (...a: unknown[]) => unknown).apply(this, args);
  } as FileHandle['writev'];
  proto.chmod = async function (this: FileHandle, mode: Mode) {
    await original.chmod.call(this, mode);
    changed(this.fd, 'a chmod');
  };
  proto.sync = async function (this: FileHandle) {
    const ino = inode(this.fd);
    const at = ++clock;
    await original.sync.call(this);
    synced.set(ino, at);
  };
  return {
    /** What of the file at `abs` was not made durable ('' when all was). */
    notDurable(abs: string): string {
      const ino = statSync(abs, { bigint: true }).ino;
      const last = unsynced.get(ino);
      return last !== undefined && (synced.get(ino) ?? 0) < last.change ? `${last.what}, with no fsync after it` : '';
    },
    stop(): void {
      Object.assign(proto, original);
    },
  };
}

describe('download', () => {
  it('writes the bytes, the base row and the hash cache entry, and leaves no temp file', async () => {
    h = await world.setUp();
    const bytes = bytesOf(70_000, 'hero');
    const asset = await putAsset(h.colleague, h.ws, { name: 'hero.psd', bytes });
    const remote = await remoteFileOf(h.client, h.ws, asset.id, 'Brand/hero.psd');

    const result = await executePlan([download(remote)], h.deps);

    expect(result).toMatchObject({ done: 1, downloaded: 1, failed: [] });
    const abs = path.join(h.root, 'Brand/hero.psd');
    expect(await readFile(abs)).toEqual(bytes);
    const st = await stat(abs, { bigint: true });
    expect(h.index.base.getFile(h.ws, 'Brand/hero.psd')).toEqual({
      path: 'Brand/hero.psd',
      assetId: asset.id,
      versionId: asset.current_version_id,
      checksum: sha256(bytes),
      size: bytes.length,
      mtimeNs: st.mtimeNs.toString(),
      inode: Number(st.ino),
    });
    expect(h.index.hashCache(h.ws).get(pathKey('Brand/hero.psd'))).toMatchObject({ checksum: sha256(bytes), size: bytes.length });
    expect(await tempFiles(path.join(h.root, 'Brand'))).toEqual([]);
    expect(h.index.journal.open(h.ws)).toEqual([]);
    expect(h.suppressed).toContain('Brand/hero.psd');
    expect(h.activity.map((a) => [a.kind, a.message])).toContainEqual(['downloaded', 'Downloaded Brand/hero.psd (version 1)']);
    // The app opens the version a line names from these, not from its text.
    expect(h.activity.find((a) => a.kind === 'downloaded')?.version).toEqual({ assetId: asset.id, versionId: asset.current_version_id, number: 1 });
  });

  /** A file on the service whose first download is cut off mid-body (the truncate fault). */
  async function cutOffOnce(name: string, size: number) {
    h = await world.setUp();
    const bytes = bytesOf(size, name);
    const asset = await putAsset(h.colleague, h.ws, { name, bytes });
    const remote = await remoteFileOf(h.client, h.ws, asset.id, name);
    const client = recordingClient();
    const deps = h.depsWith({ client });
    faults.truncate = 1;
    const first = await executePlan([download(remote)], deps);
    faults.truncate = 0;
    expect(first.failed.map((f) => f.path)).toEqual([name]);
    expect(existsSync(path.join(h.root, name))).toBe(false);
    return { bytes, remote, client, deps };
  }

  /** A file on the service, and a temp file for it that the journal names (what a crash leaves behind). */
  async function journalledTemp(name: string, bytes: Buffer, held: Buffer) {
    h = await world.setUp();
    const asset = await putAsset(h.colleague, h.ws, { name, bytes });
    const remote = await remoteFileOf(h.client, h.ws, asset.id, name);
    const tempPath = '.assetsync-0123456789abcdef.part';
    await writeFile(path.join(h.root, tempPath), held);
    h.index.journal.begin({ workspaceId: h.ws, kind: 'download', path: name, assetId: asset.id, state: { tempPath, checksum: remote.checksum } });
    return { remote, tempPath };
  }

  // Below DIRECT_IO_MIN_BYTES the body goes through the page cache; above, it is written with
  // direct I/O from aligned blocks (direct-writer.ts), and resumes from the last whole block.
  it.each([
    ['teaser.mp4', 1_500_000, 'through the page cache'],
    ['master.mov', DIRECT_IO_MIN_BYTES + 3_000_001, 'written directly'],
  ])('resumes a large download cut off mid-body from the bytes already on disk (%s, %i bytes, %s)', async (name, size) => {
    const { bytes, remote, client, deps } = await cutOffOnce(name, size);
    const [entry] = h.index.journal.open(h.ws);
    expect(entry).toMatchObject({ kind: 'download', path: name });
    const temps = await tempFiles(h.root);
    expect(temps).toHaveLength(1);
    const kept = (await stat(path.join(h.root, temps[0] as string))).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(bytes.length);
    expect(h.index.errors.get(h.ws, name)?.attempts).toBe(1);

    const second = await executePlan([download(remote)], deps);
    expect(second).toMatchObject({ downloaded: 1, failed: [] });
    expect(client.starts).toEqual([0, size >= DIRECT_IO_MIN_BYTES ? directStart(kept) : kept]);
    // A direct write takes the body read from the socket into one reused buffer.
    expect(client.readers).toEqual(size >= DIRECT_IO_MIN_BYTES ? ['socket', 'socket'] : ['undici', 'undici']);
    expect(sha256(await readFile(path.join(h.root, name)))).toBe(sha256(bytes));
    expect(await tempFiles(h.root)).toEqual([]);
    expect(h.index.errors.get(h.ws, name)).toBeUndefined();
    expect(h.index.journal.open(h.ws)).toEqual([]);
    await client.close();
  });

  it('starts over when the file got a new version after its download was cut off, never finishing one with the other\'s bytes', async () => {
    const { remote: first, client, deps } = await cutOffOnce('cut.mov', 1_500_000);
    const newer = bytesOf(1_500_000, 'cut.mov, version 2');
    await putVersion(h.colleague, h.ws, first.assetId, newer, first.versionId);
    const second = await remoteFileOf(h.client, h.ws, first.assetId, 'cut.mov');

    const result = await executePlan([download(second)], deps);

    expect(result).toMatchObject({ downloaded: 1, failed: [] });
    expect(client.starts).toEqual([0, 0]);
    expect(sha256(await readFile(path.join(h.root, 'cut.mov')))).toBe(sha256(newer));
    expect(await tempFiles(h.root)).toEqual([]);
    expect(h.index.journal.open(h.ws)).toEqual([]);
    await client.close();
  });

  it('places a file locked by someone else read-only, small or large, with the stamp the chmod left in the hash cache', async () => {
    h = await world.setUp();
    for (const [name, size] of [['locked-small.psd', 9_000], ['locked-large.psd', 17 * 1024 * 1024]] as const) {
      const bytes = bytesOf(size, name);
      const asset = await putAsset(h.colleague, h.ws, { name, bytes });
      const remote = await remoteFileOf(h.client, h.ws, asset.id, `Brand/${name}`);
      const result = await executePlan([download({ ...remote, lockedByUserId: h.demo.colleague.userId })], h.depsWith({ selfUserId: h.demo.user.userId }));
      expect(result).toMatchObject({ done: 1, failed: [] });
      const st = await stat(path.join(h.root, 'Brand', name), { bigint: true });
      expect(Number(st.mode) & 0o222).toBe(0);
      expect(h.index.hashCache(h.ws).get(pathKey(`Brand/${name}`))).toMatchObject({ checksum: sha256(bytes), ctimeNs: st.ctimeNs.toString() });
    }
  });

  it('places a file nobody else holds writable, small or large: unlocked, locked by this user, or with this user unknown', async () => {
    h = await world.setUp();
    const self = h.demo.user.userId;
    const cases = [
      { name: 'free', lockedBy: null, selfUserId: self },
      { name: 'mine', lockedBy: self, selfUserId: self },
      { name: 'unknown-self', lockedBy: h.demo.colleague.userId, selfUserId: undefined },
    ] as const;
    for (const { name, lockedBy, selfUserId } of cases) {
      for (const size of [9_000, 17 * 1024 * 1024]) {
        const file = `${name}-${size}.psd`;
        const asset = await putAsset(h.colleague, h.ws, { name: file, bytes: bytesOf(size, file) });
        const remote = await remoteFileOf(h.client, h.ws, asset.id, `Brand/${file}`);
        const deps = selfUserId === undefined ? h.deps : h.depsWith({ selfUserId });
        const result = await executePlan([download({ ...remote, lockedByUserId: lockedBy })], deps);
        expect(result).toMatchObject({ done: 1, failed: [] });
        const st = await stat(path.join(h.root, 'Brand', file));
        expect({ file, writable: (st.mode & 0o200) !== 0 }).toEqual({ file, writable: true });
      }
    }
  });

  // A small file is one of SMALL_TRANSFER_BYTES or fewer, the transfer queue's measure too.
  it.each([300_000, SMALL_TRANSFER_BYTES])('fetches a small file cut off mid-body whole again, leaving no temp file or entry between (%i bytes)', async (size) => {
    const { bytes, remote, client, deps } = await cutOffOnce('sting.wav', size);
    expect(h.index.journal.open(h.ws)).toEqual([]);
    expect(await tempFiles(h.root)).toEqual([]);

    const second = await executePlan([download(remote)], deps);
    expect(second).toMatchObject({ downloaded: 1, failed: [] });
    expect(client.starts).toEqual([0, 0]);
    expect(sha256(await readFile(path.join(h.root, 'sting.wav')))).toBe(sha256(bytes));
    expect(await tempFiles(h.root)).toEqual([]);
    await client.close();
  });

  // A power cut after the rename must not leave the new name on missing bytes: each download's
  // bytes (and a read-only mode) reach the disk before it takes the name.
  it.runIf(process.platform === 'linux')('puts each file\'s bytes and mode on disk before it takes its name: small, large, written directly, read-only, resumed', async () => {
    const resumed = bytesOf(1_300_000, 'resumed');
    const { remote: resumedRemote } = await journalledTemp('resumed.mov', resumed, resumed.subarray(0, 600_000));
    const remotes = [resumedRemote];
    for (const [name, size] of [['small.png', 9_000], ['large.mov', 1_500_000], ['direct.mov', DIRECT_IO_MIN_BYTES + 5_000], ['locked-small.psd', 9_000], ['locked-large.psd', 1_500_000]] as const) {
      const asset = await putAsset(h.colleague, h.ws, { name, bytes: bytesOf(size, name) });
      const remote = await remoteFileOf(h.client, h.ws, asset.id, name);
      remotes.push(name.startsWith('locked') ? { ...remote, lockedByUserId: h.demo.colleague.userId } : remote);
    }
    const watch = await watchDurability(h.outside);
    try {
      const result = await executePlan(remotes.map((remote) => download(remote)), h.depsWith({ selfUserId: h.demo.user.userId }));
      expect(result).toMatchObject({ downloaded: remotes.length, failed: [] });
      const notDurable = remotes.map((r) => [r.path, watch.notDurable(path.join(h.root, r.path))]).filter(([, what]) => what !== '');
      expect(notDurable).toEqual([]);
      expect(await readFile(path.join(h.root, 'resumed.mov'))).toEqual(resumed);
    } finally {
      watch.stop();
    }
  });

  // A power cut right after the index recorded a file must not lose the file's name: its folder
  // is flushed, by a flush that began after the rename, before the record. Folders share flushes,
  // so many files placed into two folders at once is where a rename could slip past one.
  it.runIf(process.platform === 'linux')('records each download only after a flush of its folder that began once the file had its name', async () => {
    h = await world.setUp();
    const remotes: RemoteFile[] = [];
    for (let i = 0; i < 30; i++) {
      const name = `frame-${i}.png`;
      const asset = await putAsset(h.colleague, h.ws, { name, bytes: bytesOf(3_000 + i * 100, name) });
      remotes.push(await remoteFileOf(h.client, h.ws, asset.id, `${i % 2 === 0 ? 'Shots' : 'Plates'}/${name}`));
    }
    const probe = await open(path.join(h.outside, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    const originalSync = proto.sync;
    /** Per folder, the names every completed flush of it saw when it began. */
    const flushed = new Map<string, Set<string>>();
    proto.sync = async function (this: FileHandle) {
      const folder = fstatSync(this.fd).isDirectory() ? readlinkSync(`/proc/self/fd/${this.fd}`) : undefined;
      const names = folder === undefined ? [] : readdirSync(folder);
      await originalSync.call(this);
      if (folder === undefined) return;
      const seen = flushed.get(folder) ?? new Set<string>();
      for (const name of names) seen.add(name);
      flushed.set(folder, seen);
    };
    const root = realpathSync(h.root);
    const base = h.index.base;
    const putFile = base.putFile.bind(base);
    const recordedEarly: string[] = [];
    base.putFile = (workspaceId, row) => {
      const abs = path.join(root, row.path);
      if (flushed.get(path.dirname(abs))?.has(path.basename(abs)) !== true) recordedEarly.push(row.path);
      putFile(workspaceId, row);
    };
    try {
      const result = await executePlan(remotes.map((remote) => download(remote)), h.deps);
      expect(result).toMatchObject({ downloaded: remotes.length, failed: [] });
      expect(recordedEarly).toEqual([]);
    } finally {
      proto.sync = originalSync;
      base.putFile = putFile;
    }
  });

  it('resumes from a temp file the journal names, asking only for the rest', async () => {
    const bytes = bytesOf(100_000, 'poster');
    const { remote, tempPath } = await journalledTemp('poster.indd', bytes, bytes.subarray(0, 50_000));
    const client = recordingClient();

    const result = await executePlan([download(remote)], h.depsWith({ client }));

    expect(result.downloaded).toBe(1);
    expect(client.starts).toEqual([50_000]);
    expect(await readFile(path.join(h.root, 'poster.indd'))).toEqual(bytes);
    expect(existsSync(path.join(h.root, tempPath))).toBe(false);
    await client.close();
  });

  it('places a download a crash stopped after its last byte without asking for the bytes again', async () => {
    const bytes = bytesOf(1_200_000, 'storyboard');
    const { remote } = await journalledTemp('storyboard.pdf', bytes, bytes);
    const client = recordingClient();

    const result = await executePlan([download(remote)], h.depsWith({ client }));

    expect(result).toMatchObject({ downloaded: 1, failed: [] });
    expect(client.starts).toEqual([]);
    expect(await readFile(path.join(h.root, 'storyboard.pdf'))).toEqual(bytes);
    expect(h.index.journal.open(h.ws)).toEqual([]);
    await client.close();
  });

  it('downloads from the start, at the first attempt, when the temp file its journal entry names is gone', async () => {
    const bytes = bytesOf(1_200_000, 'reel');
    const { remote, tempPath } = await journalledTemp('reel.mov', bytes, bytes.subarray(0, 400_000));
    // Deleted by the user, or by a cleaner, between two attempts.
    await rm(path.join(h.root, tempPath));
    const client = recordingClient();

    const result = await executePlan([download(remote)], h.depsWith({ client }));

    expect(result).toMatchObject({ downloaded: 1, failed: [] });
    expect(client.starts).toEqual([0]);
    expect(await readFile(path.join(h.root, 'reel.mov'))).toEqual(bytes);
    expect(await tempFiles(h.root)).toEqual([]);
    expect(h.index.journal.open(h.ws)).toEqual([]);
    await client.close();
  });

  it('leaves a folder found where its temp file was kept alone, says the temp file is not a file, and downloads afresh next time', async () => {
    const bytes = bytesOf(1_200_000, 'animatic');
    const { remote, tempPath } = await journalledTemp('animatic.mov', bytes, Buffer.alloc(0));
    // Something put a folder, with a file in it, where the interrupted download kept its bytes.
    await rm(path.join(h.root, tempPath));
    await mkdir(path.join(h.root, tempPath));
    await writeFile(path.join(h.root, tempPath, 'kept.txt'), 'not ours to delete');
    const client = recordingClient();
    const deps = h.depsWith({ client });

    const first = await executePlan([download(remote)], deps);

    expect(first.failed.map((f) => [f.path, (f.error as { code?: string }).code])).toEqual([['animatic.mov', 'not_a_file']]);
    expect(h.problems.map((p) => [p.kind, p.path])).toEqual([['error', 'animatic.mov']]);
    expect(client.starts).toEqual([]);
    expect(await readFile(path.join(h.root, tempPath, 'kept.txt'), 'utf8')).toBe('not ours to delete');
    expect(existsSync(path.join(h.root, 'animatic.mov'))).toBe(false);
    // The entry no longer names a temp file to resume from: the next attempt starts over beside it.
    expect(h.index.journal.open(h.ws)).toEqual([]);

    const second = await executePlan([download(remote)], deps);
    expect(second).toMatchObject({ downloaded: 1, failed: [] });
    expect(client.starts).toEqual([0]);
    expect(await readFile(path.join(h.root, 'animatic.mov'))).toEqual(bytes);
    expect(await readFile(path.join(h.root, tempPath, 'kept.txt'), 'utf8')).toBe('not ours to delete');
    await client.close();
  });

  it('starts over from a temp file longer than the file it is for', async () => {
    const bytes = bytesOf(1_200_000, 'moodboard');
    const { remote } = await journalledTemp('moodboard.psd', bytes, Buffer.concat([bytes, Buffer.from('and more')]));
    const client = recordingClient();

    const result = await executePlan([download(remote)], h.depsWith({ client }));

    expect(result).toMatchObject({ downloaded: 1, failed: [] });
    expect(client.starts).toEqual([0]);
    expect(await readFile(path.join(h.root, 'moodboard.psd'))).toEqual(bytes);
    expect(await tempFiles(h.root)).toEqual([]);
    await client.close();
  });

  it.each([
    [100_000, 'through the page cache'],
    [DIRECT_IO_MIN_BYTES + 100_000, 'written directly'],
  ])('throws away a resumed temp file whose bytes do not hash right, and leaves the target untouched (%i bytes, %s)', async (size) => {
    const bytes = bytesOf(size, 'flyer');
    const { remote } = await journalledTemp('flyer.ai', bytes, Buffer.alloc(size / 2, 7));

    const result = await executePlan([download(remote)], h.deps);

    expect(result.failed.map((f) => (f.error as { code?: string }).code)).toEqual(['checksum_mismatch']);
    expect(existsSync(path.join(h.root, 'flyer.ai'))).toBe(false);
    expect(await tempFiles(h.root)).toEqual([]);
    expect(h.index.journal.open(h.ws)).toEqual([]);
    expect(h.index.base.getFile(h.ws, 'flyer.ai')).toBeUndefined();

    // The next attempt starts from scratch and succeeds.
    const retry = await executePlan([download(remote)], h.deps);
    expect(retry.downloaded).toBe(1);
    expect(sha256(await readFile(path.join(h.root, 'flyer.ai')))).toBe(sha256(bytes));
  });

  it('does not replace a file with bytes other than the ones announced', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.colleague, h.ws, { name: 'palette.ase', bytes: bytesOf(5000, 'v2') });
    const remote = await remoteFileOf(h.client, h.ws, asset.id, 'palette.ase');
    const mine = Buffer.from('the synced version');
    await writeFile(path.join(h.root, 'palette.ase'), mine);

    const result = await executePlan([download({ ...remote, checksum: sha256('something else') }, sha256(mine))], h.deps);

    expect(result.failed).toHaveLength(1);
    expect(await readFile(path.join(h.root, 'palette.ase'))).toEqual(mine);
    expect(await tempFiles(h.root)).toEqual([]);
    expect(h.problems.map((p) => p.kind)).toEqual(['error']);
  });

  it('does not overwrite a file edited after the plan was made', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.colleague, h.ws, { name: 'brief.md', bytes: Buffer.from('remote edit') });
    const remote = await remoteFileOf(h.client, h.ws, asset.id, 'brief.md');
    const planned = Buffer.from('as planned');
    await writeFile(path.join(h.root, 'brief.md'), 'edited by the user meanwhile');
    await writeFile(path.join(h.root, 'new.md'), 'appeared meanwhile');

    const result = await executePlan([download(remote, sha256(planned)), download(remote, null, 'new.md')], h.deps);

    expect(result).toMatchObject({ done: 0, downloaded: 0, deferred: 2, failed: [] });
    expect(await readFile(path.join(h.root, 'brief.md'), 'utf8')).toBe('edited by the user meanwhile');
    expect(await readFile(path.join(h.root, 'new.md'), 'utf8')).toBe('appeared meanwhile');
    expect(await tempFiles(h.root)).toEqual([]);
    expect(h.problems.map((p) => [p.kind, p.path]).sort()).toEqual([
      ['unstable', 'brief.md'],
      ['unstable', 'new.md'],
    ]);
    expect(h.problems.find((p) => p.path === 'brief.md')).toMatchObject({
      message: '"brief.md" changed on disk while its new version was downloading: it was not overwritten',
      hint: 'Nothing to do: the next sync compares both versions again.',
    });
    expect(h.index.journal.open(h.ws)).toEqual([]);
  });

  it('keeps a save the user makes at the moment the new version takes the name', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.colleague, h.ws, { name: 'brief.md', bytes: Buffer.from('version 2 from a colleague') });
    const remote = await remoteFileOf(h.client, h.ws, asset.id, 'brief.md');
    await writeFile(path.join(h.root, 'brief.md'), 'version 1');
    // In the gap between the last check and the rename: an in-place save into the old file.
    const saveInPlace = { beforeRename: () => appendFileSync(path.join(h.root, 'brief.md'), ' and my edit') };

    const result = await executePlan([download(remote, sha256(Buffer.from('version 1')))], h.depsWith({ placeHooks: saveInPlace }));

    expect(result).toMatchObject({ downloaded: 1, failed: [] });
    expect(await readFile(path.join(h.root, 'brief.md'), 'utf8')).toBe('version 2 from a colleague');
    const copies = (await readdir(h.root)).filter((n) => n.includes('conflicted copy'));
    expect(copies).toHaveLength(1);
    expect(await readFile(path.join(h.root, copies[0] as string), 'utf8')).toBe('version 1 and my edit');
    expect(h.problems.map((p) => [p.kind, p.path])).toEqual([['conflict', 'brief.md']]);
    expect(h.activity.filter((a) => a.kind === 'conflict').map((a) => a.message)).toEqual([`brief.md was saved while its new version was put in place: your edit is kept as ${copies[0]}`]);
    expect(await tempFiles(h.root)).toEqual([]);

    // And a new file saved where a download lands for the first time.
    const saveNewFile = { beforeRename: () => writeFileSync(path.join(h.root, 'notes.md'), 'typed into a new file') };
    const fresh = await executePlan([download(remote, null, 'notes.md')], h.depsWith({ placeHooks: saveNewFile }));
    expect(fresh).toMatchObject({ downloaded: 0, deferred: 1, failed: [] });
    expect(await readFile(path.join(h.root, 'notes.md'), 'utf8')).toBe('typed into a new file');
    expect(await tempFiles(h.root)).toEqual([]);
  });
});
