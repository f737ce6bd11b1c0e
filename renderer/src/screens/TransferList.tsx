import type { TransferProgress } from '../../../shared/engine.js';
import { transferText } from '../format.js';
import { baseName } from '../store/route.js';
import { TRANSFERS_KEPT } from '../store/store.js';

/** Enough rows to see what is moving; a queue of hundreds is counted, not listed. */
export const TRANSFERS_SHOWN = 20;

/** The transfers under way first, then the queued ones; what does not fit is counted below. */
export function TransferList({ transfers }: { transfers: TransferProgress[] }) {
  if (transfers.length === 0) return <p className="muted">No file is being transferred.</p>;
  const active = transfers.filter((t) => t.state === 'active');
  const queued = transfers.filter((t) => t.state !== 'active');
  const shown = [...active, ...queued].slice(0, TRANSFERS_SHOWN);
  const activeLeft = active.length - Math.min(active.length, TRANSFERS_SHOWN);
  const queuedLeft = transfers.length - shown.length - activeLeft;
  return (
    <>
      <ul className="transfer-list">
        {shown.map((t) => (
          <TransferRow key={t.id} transfer={t} />
        ))}
      </ul>
      {shown.length < transfers.length && <p className="muted small transfers-more">{moreText(activeLeft, queuedLeft, transfers.length >= TRANSFERS_KEPT)}</p>}
    </>
  );
}

/** "And 3 more transferring and 40 more queued." The store keeps so many: past that, "more than". */
function moreText(active: number, queued: number, capped: boolean): string {
  const parts = [active > 0 && `${active} more transferring`, queued > 0 && (capped ? `more than ${queued} queued` : `${queued} more queued`)].filter(Boolean);
  return `And ${parts.join(' and ')}.`;
}

function TransferRow({ transfer: t }: { transfer: TransferProgress }) {
  const name = baseName(t.path);
  if (t.state !== 'active') {
    // Waiting is not progress: no bar, just the word.
    return (
      <li className="transfer-row transfer-queued">
        <div className="row-main">
          <span className="file-name">{name}</span>
          <span className="muted small">{transferText(t)}</span>
        </div>
      </li>
    );
  }
  return (
    <li className="transfer-row">
      <div className="row-main">
        <span className="file-name">{name}</span>
        <span className="muted small">{transferText(t)}</span>
      </div>
      <progress max={Math.max(t.bytesTotal, 1)} value={t.bytesDone} aria-label={`${name}: ${t.direction}`} aria-valuetext={transferText(t)} />
    </li>
  );
}
