/**
 * The rules for sync folders on each platform (`main/root-check.ts`), and the app's settings
 * refusing an unsafe one. The command line's refusals run end to end in test/cli/cli-roots.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Config } from '../../main/config.js';
import { toBridgeError } from '../../main/app-api/bridge-errors.js';
import { applySettings } from '../../main/app-api/settings.js';
import { UnsafeRootError, unsafeRootReason, type RootContext } from '../../main/root-check.js';

const why = (root: string, context: RootContext): string | null => unsafeRootReason(root, context)?.why ?? null;

describe('on Windows', () => {
  const context: RootContext = {
    platform: 'win32',
    home: 'C:\\Users\\me',
    env: { SystemRoot: 'C:\\WINDOWS', ProgramFiles: 'C:\\Program Files', LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local' },
    ownDirs: ['C:\\Users\\me\\.local\\share\\asset-sync'],
    otherRoots: [{ root: 'D:\\Assets', indexFile: 'C:\\Users\\me\\.local\\share\\asset-sync\\index-0123456789abcdef.db' }],
  };

  it('refuses drive roots, system folders and the home folder, in any letter case', () => {
    expect(why('C:\\', context)).toMatch(/top of a disk/);
    expect(why('d:\\', context)).toMatch(/top of a disk/);
    expect(why('C:\\Windows', context)).toBe('it is a system folder');
    expect(why('c:\\windows\\System32\\x', context)).toBe('it is inside the system folder C:\\WINDOWS');
    expect(why('C:\\Program Files\\Assets', context)).toMatch(/inside the system folder C:\\Program Files/);
    expect(why('C:\\Users', context)).toMatch(/holds your home folder/);
    expect(why('C:\\USERS\\ME', context)).toMatch(/your home folder/);
    expect(why('C:\\Users\\me\\AppData\\Local\\Assets', context)).toMatch(/where apps keep their settings/);
    expect(why('C:\\Users\\me\\.local', context)).toMatch(/holds Asset Sync's own folder/);
  });

  it('refuses folders inside or around another root, and accepts ordinary folders', () => {
    expect(why('D:\\Assets\\Design', context)).toMatch(/^it is inside D:\\Assets, which this device syncs too/);
    expect(why('D:\\assets', context)).toBeNull();
    expect(why('C:\\Users\\me\\Asset Sync', context)).toBeNull();
    expect(why('E:\\Work\\Assets', context)).toBeNull();
    expect(unsafeRootReason('C:\\', context)?.advice).toBe('Choose a folder of its own for Asset Sync, such as C:\\Users\\me\\Asset Sync.');
  });
});

describe('on macOS', () => {
  const context: RootContext = { platform: 'darwin', home: '/Users/me', env: {}, ownDirs: ['/Users/me/.config/asset-sync'], otherRoots: [] };

  it('refuses system folders however they are spelled, and accepts external drives', () => {
    expect(why('/system/library', context)).toMatch(/inside the system folder \/System/);
    expect(why('/private/etc', context)).toBe('it is a system folder');
    expect(why('/Volumes', context)).toBe('it is a system folder');
    expect(why('/Users/me/Library/Assets', context)).toMatch(/where apps keep their settings/);
    expect(why('/Volumes/Drive/Assets', context)).toBeNull();
    expect(why('/private/var/folders/xy/T/assets', context)).toBeNull();
  });
});

describe("the app's settings", () => {
  const dir = mkdtempSync(join(tmpdir(), 'root-check-'));
  // The check reads the config file and the indexes: these, not the user's.
  const previousHome = process.env.ASSET_SYNC_HOME;
  process.env.ASSET_SYNC_HOME = join(dir, 'state');
  afterAll(() => {
    if (previousHome === undefined) delete process.env.ASSET_SYNC_HOME;
    else process.env.ASSET_SYNC_HOME = previousHome;
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuse an unsafe sync folder with why, and take a safe one', () => {
    const config = Config.parse({ root: join(dir, 'Asset Sync') });
    let refused: unknown;
    try {
      applySettings(config, { root: '/' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(UnsafeRootError);
    expect(toBridgeError(refused)).toEqual({ code: 'invalid_root', message: expect.stringContaining('/ cannot be the sync folder: it is the top of a disk') as unknown });
    // Inside the folder it replaces is fine: that one is synced no more.
    expect(applySettings(config, { root: join(dir, 'Asset Sync', 'New') }).config.root).toBe(join(dir, 'Asset Sync', 'New'));
  });
});
