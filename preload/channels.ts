/** The two Electron IPC channels the app uses: one for every call, one for every event. */
export const INVOKE_CHANNEL = 'asset-sync:invoke';
export const EVENT_CHANNEL = 'asset-sync:event';
