import type { AssetSyncBridge } from '../../../shared/ipc.js';
import { openWithConsent } from './open-with-consent.js';
import type { Store } from './store.js';

/**
 * Opens an asset known by its id (a review, a notification) and shows its versions, with the
 * version in question marked. Answers the words to announce.
 */
export async function openAssetAndShowVersions(
  bridge: AssetSyncBridge,
  store: Store,
  target: { workspaceId: string; assetId: string; versionId: string | null; name: string },
): Promise<string | null> {
  const { path } = await openWithConsent((runConfirmed) => bridge.invoke('openAsset', { workspaceId: target.workspaceId, assetId: target.assetId, runConfirmed }));
  if (path === null) return `${target.name} is not in your synced folders yet.`;
  store.navigate({ view: 'versions', workspaceId: target.workspaceId, path, assetId: target.assetId, versionId: target.versionId });
  return null;
}
