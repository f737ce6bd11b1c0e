/**
 * A first start (no account signed in): the window opens on Settings so the user can sign in;
 * the engine starts once they have (AppApi.signIn opens the session).
 */
import type { AppApi } from '../app-api/index.js';
import type { MainWindow } from './window.js';

export function needsFirstRun(api: AppApi): boolean {
  return !api.signedIn;
}

/** Shows the window on Settings, once the page is there to receive the request. */
export function showFirstRun(window: MainWindow, api: AppApi): void {
  const contents = window.open().webContents;
  window.show();
  const goToSettings = () => api.navigate({ view: 'settings' });
  if (contents.isLoading()) contents.once('did-finish-load', goToSettings);
  else goToSettings();
}
