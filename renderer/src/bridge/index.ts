/**
 * The one bridge the UI talks to: Electron's preload (`window.assetSync`) when present, otherwise
 * the headless daemon over HTTP. Nothing past this module can tell which one it has.
 */
// The preload's type also declares `window.assetSync` (absent in a browser).
import type { AssetSyncBridge } from '../../../preload/api.js';
import type { ConnectionWatch } from './connection.js';
import { createHttpBridge } from './http-bridge.js';
import { takePageToken } from './page-token.js';

/** The bridge, and over HTTP the watch on whether Asset Sync still answers (IPC cannot lose it). */
export function connectBridge(): { bridge: AssetSyncBridge; connection: ConnectionWatch | null } {
  if (window.assetSync) return { bridge: window.assetSync, connection: null };
  const token = takePageToken({ location: window.location, history: window.history, storage: sessionStorageOrNull() });
  const bridge = createHttpBridge({ token });
  return { bridge, connection: bridge.connection };
}

/** Reading `window.sessionStorage` itself throws where storage is disabled. */
function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch (_error) {
    return null;
  }
}

export { errorMessage, BridgeFailure } from './errors.js';
