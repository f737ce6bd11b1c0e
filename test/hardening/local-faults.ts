/**
 * Real local faults for the engine to meet: a disk that fills up and a file that cannot be
 * written. Each is made as really as this machine allows (a mount needs root; a file's
 * permission bits do not stop root), and each says which way it was made.
 */
import { execFile, spawn } from 'node:child_process';
import { chmod, mkdir, open, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { SyncReport } from '../../shared/engine.js';
import { TEST_BACKOFF, type Device, type World } from '../helpers/engine.js';
import { childArgs } from '../helpers/children.js';
import type { SyncChildConfig } from '../helpers/sync-child.js';

const run = promisify(execFile);
export const KiB = 1024;
export const MiB = 1024 * KiB;

/** Polls `check` until it holds; fails (instead of hanging) after `timeoutMs`. */
export async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function tryRun(command: string, args: string[]): Promise<boolean> {
  return run(command, args).then(
    () => true,
    () => false,
  );
}

/** A sync root where big files do not fit, and the way to make room. */
export interface SmallDisk {
  /** 'tmpfs': a 2 MiB tmpfs is the root, writes fail with ENOSPC. 'fsize': the engine runs in a child whose RLIMIT_FSIZE is 1 MiB, writes fail with EFBIG. */
  kind: 'tmpfs' | 'fsize';
  /** The workspace folder. */
  dir: string;
  /** A file size that does not fit (together with a few like it, for the tmpfs). */
  tooBig: number;
  sync(): Promise<SyncReport>;
  makeRoom(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real full disk where the test may mount one: a 2 MiB tmpfs as the device's root. Where it
 * may not (not root), the next most real thing: the engine in a child process with a file size
 * limit (RLIMIT_FSIZE, `ulimit -f`), whose writes past 1 MiB fail with EFBIG as they would on a
 * FAT32 stick; Node ignores SIGXFSZ, so the write fails instead of killing the process.
 */
export async function smallDisk(w: World): Promise<SmallDisk> {
  const root = join(w.home, 'small-disk', 'root');
  await mkdir(root, { recursive: true });
  if (await tryRun('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', root])) {
    let device: Device;
    try {
      device = await w.device('small-disk');
    } catch (error) {
      await run('umount', ['-l', root]);
      throw error;
    }
    return {
      kind: 'tmpfs',
      dir: device.dir,
      tooBig: 800 * KiB,
      sync: () => device.sync(),
      makeRoom: async () => void (await run('mount', ['-o', 'remount,size=64m', root])),
      close: async () => {
        await device.engine.stop();
        await run('umount', ['-l', root]);
      },
    };
  }
  const config: SyncChildConfig = {
    baseUrl: w.service.url,
    accountId: w.demo.accountId,
    key: w.demo.user.apiKey,
    secret: w.demo.user.apiSecret,
    workspaceId: w.workspaceId,
    root,
    indexFile: join(w.home, 'small-disk', 'index.db'),
    deviceName: 'small-disk',
    backoff: TEST_BACKOFF,
  };
  let limitBlocks: number | null = (1 * MiB) / 512;
  return {
    kind: 'fsize',
    dir: join(root, w.folderName),
    tooBig: 3 * MiB,
    sync: () => childSync(config, limitBlocks),
    makeRoom: () => {
      limitBlocks = null;
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
}

/** One `syncOnce` in a child process, its file sizes limited to `blocks` × 512 bytes (POSIX `ulimit -f`). */
function childSync(config: SyncChildConfig, blocks: number | null): Promise<SyncReport> {
  const node = [process.execPath, ...childArgs('sync-child')];
  const [command, ...args] = blocks === null ? node : ['sh', '-c', `ulimit -f ${blocks} && exec "$0" "$@"`, ...node];
  const child = spawn(command as string, args, { env: { ...process.env, SYNC_CHILD: JSON.stringify(config) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      if ((code === 0 || code === 2) && line.startsWith('{')) resolve(JSON.parse(line) as SyncReport);
      else reject(new Error(`the sync process failed (exit ${code}): ${stderr}`));
    });
  });
}

/** A file made unwritable, and how to undo it. */
export interface Unwritable {
  /** 'immutable': `chattr +i` (root). 'read-only mount': its folder bind-mounted read-only (root). 'permissions': the file 0444 in a 0555 folder (not root). */
  kind: 'immutable' | 'read-only mount' | 'permissions';
  undo(): Promise<void>;
}

/** True when opening the file for writing fails, as it must for whatever protects it. */
async function refusesWrites(file: string): Promise<boolean> {
  try {
    await (await open(file, 'r+')).close();
    return false;
  } catch {
    return true;
  }
}

/**
 * Makes a synced file unwritable in the first way that really stops this process: root is not
 * stopped by permission bits, so as root the file is made immutable (`chattr +i`, where the
 * file system supports it) or its folder is bind-mounted read-only; otherwise the file is made
 * read-only in a read-only folder (a download replaces a file by renaming over it, which the
 * folder's permissions govern).
 */
export async function makeUnwritable(file: string): Promise<Unwritable> {
  const folder = dirname(file);
  if (await tryRun('chattr', ['+i', file])) {
    if (await refusesWrites(file)) return { kind: 'immutable', undo: async () => void (await run('chattr', ['-i', file])) };
    await run('chattr', ['-i', file]);
  }
  if (await tryRun('mount', ['--bind', folder, folder])) {
    const undo = async (): Promise<void> => void (await run('umount', ['-l', folder]));
    if ((await tryRun('mount', ['-o', 'remount,bind,ro', folder])) && (await refusesWrites(file))) return { kind: 'read-only mount', undo };
    await undo();
  }
  const fileMode = (await stat(file)).mode & 0o777;
  const folderMode = (await stat(folder)).mode & 0o777;
  await chmod(file, 0o444);
  await chmod(folder, 0o555);
  const undo = async (): Promise<void> => {
    await chmod(folder, folderMode);
    await chmod(file, fileMode);
  };
  if (await refusesWrites(file)) return { kind: 'permissions', undo };
  await undo();
  throw new Error(`nothing this process may do makes ${file} unwritable to it`);
}
