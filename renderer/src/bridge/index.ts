/**
 * The one bridge the UI talks to: Electron's preload (`window.assetSync`) when present, otherwise
 * the headless daemon over HTTP. Nothing past this module can tell which one it has.
 */
// The preload's type also declares `window.assetSync` (absent in a browser).
import type { AssetSyncBridge } from '../../../preload/api.js';
import type { ConnectionWatch } from './connection.js';
import { createHttpBridge } from './http-bridge.js';

/** The bridge, and over HTTP the watch on whether Asset Sync still answers (IPC cannot lose it). */
export function connectBridge(): { bridge: AssetSyncBridge; connection: ConnectionWatch | null } {
  if (window.assetSync) return { bridge: window.assetSync, connection: null };
  forgetTokenInAddressBar();
  const bridge = createHttpBridge();
  return { bridge, connection: bridge.connection };
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
