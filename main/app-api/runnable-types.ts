/**
 * File types that run code when the desktop "opens" them: programs, installers, scripts and
 * shortcuts to them. A file a collaborator synced is opened only after the user confirmed it
 * (open-file.ts): double-clicking a `.command` or a `.exe` in the app must not be how a
 * colleague's account, or whoever took it over, runs code on this computer.
 *
 * By extension, whatever the case, and with the trailing dots and spaces Windows drops
 * (`setup.exe.` opens as `setup.exe`). Documents whose viewers can run macros (Office files) are
 * left to those viewers, which ask themselves.
 */
import { extname } from 'node:path';

const RUNNABLE_EXTENSIONS: ReadonlySet<string> = new Set([
  // Windows programs, installers, scripts and shortcuts.
  '.exe', '.com', '.scr', '.pif', '.cpl', '.msi', '.msp', '.msc', '.bat', '.cmd', '.ps1', '.psm1', '.psd1',
  '.vbs', '.vbe', '.js', '.jse', '.wsf', '.wsh', '.hta', '.lnk', '.url', '.reg', '.scf', '.inf',
  '.appref-ms', '.application', '.gadget', '.appx', '.msix', '.appxbundle', '.msixbundle',
  // macOS applications, installers, scripts and shortcuts.
  '.app', '.command', '.tool', '.terminal', '.pkg', '.mpkg', '.dmg', '.workflow', '.action', '.scpt',
  '.scptd', '.applescript', '.osascript', '.fileloc', '.inetloc', '.webloc',
  // Linux launchers, packages and images.
  '.desktop', '.appimage', '.run', '.bin', '.deb', '.rpm', '.snap', '.flatpak', '.flatpakref',
  // Scripts of shells and interpreters a desktop may hand them to.
  '.sh', '.bash', '.zsh', '.csh', '.ksh', '.fish', '.py', '.pyw', '.pyz', '.pl', '.rb', '.php',
  '.lua', '.tcl', '.mjs', '.cjs', '.jar', '.jnlp',
]);

/** Whether opening a file of this name runs code (see above). */
export function isRunnableName(name: string): boolean {
  return RUNNABLE_EXTENSIONS.has(extname(name.replace(/[. ]+$/, '')).toLowerCase());
}
