/**
 * Launch at login. macOS and Windows keep the setting themselves (app.setLoginItemSettings);
 * Linux desktops read an XDG autostart entry, which is written here. Started that way, the app
 * stays in the tray (`--hidden`).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { app } from 'electron';

export const HIDDEN_FLAG = '--hidden';

export function autostartFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'autostart', 'asset-sync.desktop');
}

/** The command the desktop runs: the AppImage itself when run as one (its mount path changes). */
function launchCommand(env: NodeJS.ProcessEnv): string {
  const executable = env.APPIMAGE ?? process.execPath;
  return `"${executable.replace(/(["\\`$])/g, '\\$1')}" ${HIDDEN_FLAG}`;
}

export async function setLaunchAtLogin(enabled: boolean, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (platform !== 'linux') {
    app.setLoginItemSettings({ openAtLogin: enabled, args: [HIDDEN_FLAG] });
    return;
  }
  const file = autostartFile(env);
  if (!enabled) {
    await rm(file, { force: true });
    return;
  }
  await mkdir(join(file, '..'), { recursive: true });
  const entry = ['[Desktop Entry]', 'Type=Application', 'Name=Asset Sync', `Exec=${launchCommand(env)}`, 'X-GNOME-Autostart-enabled=true', ''].join('\n');
  await writeFile(file, entry, { mode: 0o644 });
}

/** Started by the login item (or asked to start in the tray). */
export function startedHidden(argv: readonly string[] = process.argv): boolean {
  return argv.includes(HIDDEN_FLAG) || (process.platform !== 'linux' && app.getLoginItemSettings().wasOpenedAtLogin);
}
