/**
 * The only thing the renderer may import from preload/: the type of `window.assetSync`.
 * (The headless UI has no `window.assetSync`, hence optional.)
 */
import type { AssetSyncBridge } from '../shared/ipc.js';

export type { AssetSyncBridge } from '../shared/ipc.js';

declare global {
  interface Window {
    assetSync?: AssetSyncBridge;
  }
}
