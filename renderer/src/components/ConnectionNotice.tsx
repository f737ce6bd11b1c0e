import { isConnected, type Connection } from '../bridge/connection.js';

/** Above every screen while Asset Sync does not answer: what is shown is from before. */
export function ConnectionNotice({ connection }: { connection: Connection }) {
  if (isConnected(connection)) return null;
  return (
    <div className="notice notice-error connection-notice" data-testid="connection-notice">
      <p>
        <strong>Not connected to Asset Sync.</strong>{' '}
        {connection === 'expired'
          ? 'Asset Sync was restarted, so this page’s session has ended: open the address it printed again.'
          : 'It is not answering: it may have stopped. This page reconnects by itself when Asset Sync is back.'}
      </p>
      <p className="muted small">What this page shows is from before the connection was lost.</p>
    </div>
  );
}
