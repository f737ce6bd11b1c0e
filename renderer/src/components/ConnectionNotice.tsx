import { isConnected, type Connection } from '../bridge/connection.js';

/**
 * Above every screen while Asset Sync does not answer: what is shown is from before. A tab keeps
 * the key it was opened with, and each start of Asset Sync prints a new one: a tab it no longer
 * knows (a restart) cannot reconnect, and the notice says which address to open instead (in this
 * tab too: bridge/index.ts takes a new token from the fragment).
 */
export function ConnectionNotice({ connection }: { connection: Connection }) {
  if (isConnected(connection)) return null;
  return (
    <div className="notice notice-error connection-notice" data-testid="connection-notice">
      <p>
        <strong>Not connected to Asset Sync.</strong>{' '}
        {connection === 'expired'
          ? 'Asset Sync was restarted, so this page’s session has ended and it cannot reconnect: open the address Asset Sync printed when it started again (http://127.0.0.1:…/#token=…), in this tab or another.'
          : 'It is not answering: it may have stopped. This page reconnects by itself when Asset Sync is back. If you started it again and it printed another address, open that address instead.'}
      </p>
      <p className="muted small">What this page shows is from before the connection was lost.</p>
    </div>
  );
}
