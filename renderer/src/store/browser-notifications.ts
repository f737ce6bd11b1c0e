/**
 * Notifications of the web UI (`asset-sync sync --ui`): while its page is open, a new review or
 * change request, and a lock released on a file that was read-only here, become browser
 * notifications, once the user has allowed them with a button of theirs (browsers refuse a
 * request no click made). A click brings the page forward on that request, or on the file's
 * folder. The desktop app notifies from its main process instead, so the page stays quiet there.
 */
import { reviewTitle } from '../../../shared/engine.js';
import type { AssetSyncBridge } from '../../../shared/ipc.js';
import { parentFolder, type Route } from './route.js';
import type { Store } from './store.js';

export type Permission = NotificationPermission | 'unsupported';

export interface BrowserNotifications {
  permission(): Permission;
  /** Asks the browser; call it from the user's click. */
  ask(): Promise<Permission>;
}

/** The page's notifications, or null where notifications come from elsewhere or not at all. */
export function browserNotifications(): BrowserNotifications | null {
  const api = globalThis.Notification as typeof Notification | undefined;
  if (window.assetSync || api === undefined) return null;
  return { permission: () => api.permission, ask: () => api.requestPermission() };
}

/** Notifies from the bridge's events once allowed; returns what stops it. */
export function startBrowserNotifications(bridge: AssetSyncBridge, store: Pick<Store, 'navigate'>): () => void {
  const api = globalThis.Notification as typeof Notification | undefined;
  if (window.assetSync || api === undefined) return () => undefined;
  const show = (title: string, body: string, tag: string, route: Route): void => {
    if (api.permission !== 'granted') return;
    const notification = new api(title, { body, tag });
    notification.onclick = () => {
      window.focus();
      store.navigate(route);
      notification.close();
    };
  };
  const stops = [
    bridge.on('review', (item) => show(reviewTitle(item), item.message, `review:${item.remoteKey}`, { view: 'reviews', focus: item.remoteKey })),
    bridge.on('activity', (item) => {
      if (item.kind !== 'unlocked' || item.path === null) return;
      show(`${item.path.slice(item.path.lastIndexOf('/') + 1)} is unlocked`, item.message, `unlocked:${item.path}`, { view: 'files', workspaceId: item.workspaceId, folder: parentFolder(item.path) });
    }),
  ];
  return () => stops.forEach((stop) => stop());
}
