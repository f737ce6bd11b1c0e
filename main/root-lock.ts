/**
 * One Asset Sync at a time per sync root. Two processes planning against one index and one
 * folder act on each other's half-done work: one moved files the other had just uploaded to the
 * trash as "deleted on the service", and removed the other's temp files mid-download.
 *
 * The lock is a listening local socket named after the root's index, not a lock file: the OS
 * closes it the moment its process ends, even by SIGKILL, so a restart after a crash never waits
 * for a stale lock to age out (a lock file with mtime-based staleness, as in proper-lockfile,
 * would hold the root for its stale period after every kill). Linux names it in the abstract
 * socket namespace and Windows as a named pipe, so nothing is left on disk; elsewhere it is a
 * socket file in the temp folder, taken over when no live process answers on it.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class RootBusyError extends Error {
  readonly code = 'root_busy';
  constructor(readonly root: string) {
    super(`Another Asset Sync is already syncing ${root} (the desktop app or another \`asset-sync sync\`). Stop it first, or wait until it is done.`);
    this.name = 'RootBusyError';
  }
}

export interface RootLock {
  release(): Promise<void>;
}

/** Where the lock of the index at `indexPath` listens. */
export function lockAddress(indexPath: string, platform: NodeJS.Platform = process.platform): string {
  const id = createHash('sha256').update(indexPath).digest('hex').slice(0, 24);
  if (platform === 'win32') return `\\\\.\\pipe\\asset-sync-${id}`;
  if (platform === 'linux') return `\0asset-sync-${id}`;
  return join(tmpdir(), `asset-sync-${id}.sock`);
}

/** Takes the lock of the root whose index is `indexPath`; throws RootBusyError while another process holds it. */
export async function lockRoot(root: string, indexPath: string): Promise<RootLock> {
  const address = lockAddress(indexPath);
  const onDisk = !address.startsWith('\0') && !address.startsWith('\\\\');
  for (let attempt = 0; ; attempt += 1) {
    // A probe only needs to connect: the answer is the connection itself.
    const server = net.createServer((socket) => socket.destroy());
    try {
      await listen(server, address);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      if (!onDisk || attempt > 0 || (await answers(address))) throw new RootBusyError(root);
      // A socket file its process left behind when it died: nobody listens on it.
      rmSync(address, { force: true });
      continue;
    }
    // The lock must not keep a finished command line alive.
    server.unref();
    return { release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }
}

/** Whether a live process holds the lock of the index at `indexPath` (an Asset Sync is syncing that root now). */
export function rootHeld(indexPath: string): Promise<boolean> {
  return answers(lockAddress(indexPath));
}

function listen(server: net.Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Whether a live process listens at `address`. */
function answers(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
