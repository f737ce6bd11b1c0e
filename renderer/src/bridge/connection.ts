/**
 * Whether this page can reach Asset Sync. Only the HTTP transport can lose it: Electron's IPC
 * lives and dies with the window, so the desktop app has no watch and is always connected.
 *
 * - `connecting`: the page has not heard from Asset Sync yet;
 * - `connected`: the event stream is open;
 * - `lost`: the stream has been down for a few seconds, or a call found nobody answering;
 * - `expired`: Asset Sync answers but no longer knows this page (it restarted with a new token).
 */
export type Connection = 'connecting' | 'connected' | 'lost' | 'expired';

export interface ConnectionWatch {
  current(): Connection;
  /** Calls `listener` on every change; answers the way to stop. */
  subscribe(listener: (connection: Connection) => void): () => void;
}

export const isConnected = (connection: Connection): boolean => connection === 'connected' || connection === 'connecting';
