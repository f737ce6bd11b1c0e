/**
 * Which folders may be a sync root. A sync client takes over the folder it is given: it uploads
 * what it finds there and deletes there what goes away on the service. Given `/`, the home
 * folder or `/etc`, it would try to upload the whole disk and, on the way back, trash system
 * files. Nextcloud, Syncthing, Proton Drive and Dropbox refuse such folders, and folders inside
 * or around another synced folder, before syncing anything; so does Asset Sync:
 *
 * - the top of a disk (`/`, `C:\`), the home folder itself, or a folder holding it (`/home`);
 * - a system folder (`/etc`, `/usr`, `/var`, `C:\Windows`, `C:\Program Files`…), or a folder
 *   where apps keep their settings (`~/.config`, `~/Library`, `%APPDATA%`);
 * - Asset Sync's own folders (config, index, logs), or a folder holding them: the index would
 *   sync itself;
 * - a folder inside or around another sync root of this device (the config file's, or one an
 *   index in the data folder was made for): each would sync the other's files.
 *
 * The check runs wherever a root is accepted: `openSession` (the command line's sync, the app,
 * the browser UI), `workspaces add --root`, `workspaces reset` and the app's settings.
 */
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { appDirs, canonicalPath, configPath, indexPathFor, loadConfig } from './config.js';

/** The folder cannot be a sync root; the message says why and what to do. */
export class UnsafeRootError extends Error {
  override readonly name = 'UnsafeRootError';
  constructor(
    readonly root: string,
    message: string,
  ) {
    super(message);
  }
}

/** Another sync root of this device, and where it is known from. */
export interface KnownRoot {
  root: string;
  /** The config file that names it. */
  configFile?: string;
  /** The index made for it. */
  indexFile?: string;
}

/** What the rules look at; `rootContext` gathers it from this machine. */
export interface RootContext {
  platform: NodeJS.Platform;
  home: string;
  env: NodeJS.ProcessEnv;
  /** Asset Sync's own folders: config, data (index, logs). */
  ownDirs: readonly string[];
  otherRoots: readonly KnownRoot[];
}

export interface RootCheckOptions {
  env?: NodeJS.ProcessEnv;
  /** Roots this change stops syncing (the one a new root replaces): they do not count as others. */
  replacing?: readonly (string | undefined)[];
}

/** POSIX system folders: refused with everything inside them. */
const SYSTEM_TREES = [
  '/bin', '/boot', '/dev', '/etc', '/lib', '/lib32', '/lib64', '/libx32', '/proc', '/sbin', '/snap', '/sys', '/usr',
  '/var/cache', '/var/lib', '/var/log', '/var/spool',
  // macOS
  '/Applications', '/Library', '/System', '/private/etc', '/private/var/db',
];
/**
 * POSIX folders refused themselves but not what is inside them: temp folders, mount points
 * (`/run/media/<user>/<drive>` and `/Volumes/<drive>` are external drives) and homes.
 */
const SYSTEM_FOLDERS = ['/home', '/media', '/mnt', '/opt', '/root', '/run', '/srv', '/tmp', '/var', '/var/tmp', '/Users', '/Volumes', '/cores', '/private', '/private/tmp', '/private/var'];

/** Folders in the home where apps keep their settings and caches. */
const POSIX_APP_FOLDERS = ['.config', '.local', '.cache', 'Library'];

/** Throws UnsafeRootError when `root` cannot be a sync root; returns it, absolute, otherwise. */
export function checkSyncRoot(root: string, options: RootCheckOptions = {}): string {
  const absolute = path.resolve(root);
  const canonical = canonicalPath(absolute);
  const context = rootContext(canonical, options);
  const reason = unsafeRootReason(canonical, context);
  if (reason === null) return absolute;
  const shown = absolute === canonical ? absolute : `${absolute} (${canonical})`;
  throw new UnsafeRootError(absolute, `${shown} cannot be the sync folder: ${reason.why}. ${reason.advice}`);
}

/** This machine's context for `root` (canonical): home, Asset Sync's folders, the other roots. */
export function rootContext(root: string, options: RootCheckOptions = {}): RootContext {
  const env = options.env ?? process.env;
  const dirs = appDirs(env);
  const replaced = new Set((options.replacing ?? []).filter((r): r is string => r !== undefined).map((r) => canonicalPath(r)));
  const others = [...configuredRoot(env), ...indexedRoots(dirs.data, indexPathFor(root, env))].filter((known) => !replaced.has(known.root));
  return {
    platform: process.platform,
    home: canonicalPath(homedir()),
    env,
    ownDirs: [...new Set([dirs.config, dirs.data, path.dirname(configPath(env))].map((dir) => canonicalPath(dir)))],
    otherRoots: others,
  };
}

export interface UnsafeRootReason {
  /** Why not, after "cannot be the sync folder: ". */
  why: string;
  /** What to do instead. */
  advice: string;
}

/** Why `root` (absolute, symlinks resolved) cannot be a sync root; null when it can. */
export function unsafeRootReason(root: string, context: RootContext): UnsafeRootReason | null {
  const p = context.platform === 'win32' ? path.win32 : path.posix;
  const fold = context.platform === 'win32' || context.platform === 'darwin';
  const key = (dir: string): string => {
    const normal = p.normalize(dir);
    const trimmed = normal.length > p.parse(normal).root.length ? normal.replace(/[\\/]+$/, '') : normal;
    return fold ? trimmed.toLowerCase() : trimmed;
  };
  const same = (a: string, b: string): boolean => key(a) === key(b);
  const inside = (child: string, parent: string): boolean => {
    const rel = p.relative(key(parent), key(child));
    return rel !== '' && !rel.startsWith('..') && !p.isAbsolute(rel);
  };
  const home = context.home;
  const own = `Choose a folder of its own for Asset Sync, such as ${p.join(home, 'Asset Sync')}.`;
  const refuse = (why: string, advice = own): UnsafeRootReason => ({ why, advice });

  if (same(p.parse(key(root)).root, key(root))) return refuse('it is the top of a disk, and everything on it would be synced');
  if (same(root, home)) return refuse("it is your home folder, and everything in it would be synced, other apps' settings included");
  if (inside(home, root)) return refuse(`it holds your home folder (${home}), and everything in it would be synced`);

  const system = systemFolders(context, p);
  for (const dir of system.trees) {
    if (same(root, dir)) return refuse('it is a system folder');
    if (inside(root, dir)) return refuse(`it is inside the system folder ${dir}`);
  }
  for (const dir of system.folders) if (same(root, dir)) return refuse('it is a system folder');

  for (const dir of context.ownDirs) {
    if (same(root, dir) || inside(root, dir)) return refuse(`it is inside Asset Sync's own folder ${dir}, which holds its settings, index and logs`);
    if (inside(dir, root)) return refuse(`it holds Asset Sync's own folder ${dir} (settings, index and logs), which would sync itself`);
  }
  for (const dir of system.appData) {
    if (same(root, dir) || inside(root, dir)) return refuse(`it is inside ${dir}, where apps keep their settings`);
  }

  for (const known of context.otherRoots) {
    if (same(root, known.root)) continue;
    const where = inside(root, known.root) ? 'inside' : inside(known.root, root) ? 'around' : null;
    if (where === null) continue;
    const relation = where === 'inside' ? `it is inside ${known.root}` : `it holds ${known.root}`;
    if (known.configFile !== undefined) {
      return refuse(
        `${relation}, the sync folder set in ${known.configFile}, and each would sync the other's files`,
        `Choose a folder outside it (or sync into ${known.root} itself), or change "root" in the config file first.`,
      );
    }
    return refuse(
      `${relation}, which this device syncs too (its index is ${known.indexFile ?? 'in the data folder'}), and each would sync the other's files`,
      `Choose a folder outside it, or sync into ${known.root} itself. If ${known.root} is no longer synced, delete that index file first.`,
    );
  }
  return null;
}

function systemFolders(context: RootContext, p: path.PlatformPath): { trees: string[]; folders: string[]; appData: string[] } {
  if (context.platform !== 'win32') {
    return { trees: SYSTEM_TREES, folders: SYSTEM_FOLDERS, appData: POSIX_APP_FOLDERS.map((name) => p.join(context.home, name)) };
  }
  const env = context.env;
  const drive = env.SystemDrive ?? 'C:';
  const onDrive = (name: string): string => p.join(`${drive}\\`, name);
  const trees = [
    env.SystemRoot ?? env.windir ?? onDrive('Windows'),
    env.ProgramFiles ?? onDrive('Program Files'),
    env['ProgramFiles(x86)'] ?? onDrive('Program Files (x86)'),
    env.ProgramW6432,
    env.ProgramData ?? onDrive('ProgramData'),
    onDrive('$Recycle.Bin'),
    onDrive('System Volume Information'),
    onDrive('Recovery'),
  ].filter((dir): dir is string => dir !== undefined);
  const appData = [env.APPDATA ?? p.join(context.home, 'AppData', 'Roaming'), env.LOCALAPPDATA ?? p.join(context.home, 'AppData', 'Local'), p.join(context.home, 'AppData')];
  return { trees, folders: [onDrive('Users')], appData };
}

/** The config file's root, if it names one (an unreadable config file names none here). */
function configuredRoot(env: NodeJS.ProcessEnv): KnownRoot[] {
  const file = configPath(env);
  try {
    const root = loadConfig(file).root;
    return root === undefined ? [] : [{ root: canonicalPath(root), configFile: file }];
  } catch {
    return [];
  }
}

/**
 * The roots the indexes in the data folder were made for (their workspace folders' parent),
 * leaving out `ownIndex`, and roots none of whose workspace folders is on disk any more: a sync
 * folder given up (its workspace folders deleted or moved away) must not keep refusing folders
 * that overlap it. An index that cannot be read names none.
 */
function indexedRoots(dataDir: string, ownIndex: string): KnownRoot[] {
  let names: string[];
  try {
    names = readdirSync(dataDir).filter((name) => /^index-[0-9a-f]{16}\.db$/.test(name));
  } catch {
    return [];
  }
  const found: KnownRoot[] = [];
  for (const name of names) {
    const indexFile = path.join(dataDir, name);
    if (indexFile === ownIndex) continue;
    let folders: string[];
    try {
      const db = new Database(indexFile, { readonly: true, fileMustExist: true });
      try {
        folders = db.prepare<[], { local_path: string }>('SELECT local_path FROM workspaces').all().map((row) => row.local_path);
      } finally {
        db.close();
      }
    } catch {
      continue;
    }
    for (const root of new Set(folders.filter((folder) => existsSync(folder)).map((folder) => path.dirname(folder)))) {
      found.push({ root: canonicalPath(root), indexFile });
    }
  }
  return found;
}
