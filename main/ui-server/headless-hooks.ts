/**
 * The desktop hooks without Electron, for the UI served to a browser on this machine: files open
 * with the platform's opener (xdg-open, open, start), copies go to the Downloads folder (a
 * browser page cannot show a native save dialog), and launch at login belongs to the desktop app.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { AppError } from '../app-api/bridge-errors.js';
import type { AppHooks } from '../app-api/hooks.js';
import { numberedName } from '../local/paths.js';

export interface HeadlessHookOptions {
  /** Where saved copies go (default ~/Downloads). */
  downloadsDir?: string;
  platform?: NodeJS.Platform;
}

function openerFor(platform: NodeJS.Platform, target: string): [string, string[]] {
  if (platform === 'darwin') return ['open', [target]];
  // `start` is a cmd built-in; its first quoted argument is a window title, hence the "".
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', target]];
  return ['xdg-open', [target]];
}

function launch(platform: NodeJS.Platform, target: string): Promise<void> {
  const [command, args] = openerFor(platform, target);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsHide: true });
    child.once('error', (error) =>
      reject(new AppError('unsupported', `No desktop program could open it on this machine; it is at ${target}.`, { cause: error })),
    );
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

/** "copy.psd", "copy (2).psd", ...: never overwrites a file already there. */
export function freePath(dir: string, name: string): string {
  let candidate = join(dir, name);
  for (let n = 2; existsSync(candidate); n += 1) candidate = join(dir, numberedName(name, n));
  return candidate;
}

export function headlessHooks(options: HeadlessHookOptions = {}): AppHooks {
  const platform = options.platform ?? process.platform;
  return {
    openPath: (absPath) => launch(platform, absPath),
    showItemInFolder: (absPath) => launch(platform, dirname(absPath)),
    async chooseSavePath(suggestedName) {
      const dir = options.downloadsDir ?? join(homedir(), 'Downloads');
      await mkdir(dir, { recursive: true });
      return freePath(dir, suggestedName);
    },
    async setLoginItem() {
      throw new AppError('unsupported', 'Launching at login is set from the Asset Sync desktop app.');
    },
  };
}
