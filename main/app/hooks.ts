/**
 * The AppApi's desktop hooks in Electron: shell for files, native dialogs (save a copy; open a
 * program or script), the login item.
 */
import { join } from 'node:path';
import { app, dialog, shell } from 'electron';
import { AppError } from '../app-api/bridge-errors.js';
import type { AppHooks } from '../app-api/hooks.js';
import { setLaunchAtLogin } from './login-item.js';
import type { MainWindow } from './window.js';

export function electronHooks(window: MainWindow): AppHooks {
  return {
    async openPath(absPath) {
      // shell.openPath answers an error message, or '' when it worked.
      const failure = await shell.openPath(absPath);
      if (failure) throw new AppError('open_failed', 'No application on this computer could open it.');
    },
    async confirmOpen({ name, question }) {
      // Cancel is the default and what Escape picks: opening one takes a deliberate click.
      const options = { type: 'warning' as const, title: 'Open a program or script?', message: `Open “${name}”?`, detail: question, buttons: ['Cancel', 'Open'], defaultId: 0, cancelId: 0, noLink: true };
      const parent = window.current;
      const answer = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options);
      return answer.response === 1;
    },
    async showItemInFolder(absPath) {
      shell.showItemInFolder(absPath);
    },
    async chooseSavePath(suggestedName) {
      const options = { title: 'Save a copy', defaultPath: join(app.getPath('downloads'), suggestedName) };
      const parent = window.current;
      const answer = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
      return answer.canceled || !answer.filePath ? null : answer.filePath;
    },
    setLoginItem: (enabled) => setLaunchAtLogin(enabled),
  };
}
