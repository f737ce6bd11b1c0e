/**
 * The one bridge the UI talks to: Electron's preload (`window.assetSync`) when present, otherwise
 * the headless daemon over HTTP. Nothing past this module can tell which one it has.
 */
// The preload's type also declares `window.assetSync` (absent in a browser).
import type { AssetSyncBridge } from '../../../preload/api.js';
import { createHttpBridge } from './http-bridge.js';

export function connectBridge(): AssetSyncBridge {
  if (window.assetSync) return window.assetSync;
  forgetTokenInAddressBar();
  return createHttpBridge();
}

/**
 * The daemon's link carries a one-time `?token=`; the server turned it into a cookie when it served
 * this page. Dropping it from the address bar keeps it out of history, bookmarks and screenshots.
 */
function forgetTokenInAddressBar(): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has('token')) return;
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}

export { errorMessage, BridgeFailure } from './errors.js';
