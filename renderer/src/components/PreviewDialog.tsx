import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { MediaPreview } from '../../../shared/ipc.js';
import { formatBytes } from '../format.js';
import { useQuery } from '../store/use-query.js';
import { LoadableView } from './Loadable.js';
import type { MediaItem } from './MediaThumb.js';

/**
 * One version, looked at (`mediaPreview`): a picture fit to the window or at its own size, PDF
 * pages turned, video and audio played; a file with nothing to show names its type and size. A
 * modal dialog: the keyboard stays in it, Escape closes it, and the focus goes back to what
 * opened it.
 */
export function PreviewDialog({ workspaceId, item, title, onClose }: { workspaceId: string; item: MediaItem; title: string; onClose: () => void }) {
  const headingId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const [page, setPage] = useState(1);
  const { result, reload } = useQuery('mediaPreview', { workspaceId, item, page });

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeButton.current?.focus();
    return () => opener?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !dialog.current) return;
    // The keyboard stays inside the dialog while it is open.
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>('button:not(:disabled), video, audio, [tabindex="0"]')];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  return (
    <div className="dialog-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={dialog} className="dialog preview-dialog" role="dialog" aria-modal="true" aria-labelledby={headingId} onKeyDown={onKeyDown}>
        <div className="dialog-header">
          <h2 id={headingId}>{title}</h2>
          <button ref={closeButton} type="button" onClick={onClose}>
            Close
          </button>
        </div>
        <LoadableView value={result} what="the preview" onRetry={reload}>
          {(preview) => <PreviewBody key={preview.url ?? ''} preview={preview} title={title} onPage={setPage} onReload={reload} />}
        </LoadableView>
      </div>
    </div>
  );
}

function PreviewBody({ preview, title, onPage, onReload }: { preview: MediaPreview; title: string; onPage: (page: number) => void; onReload: () => void }) {
  const [actualSize, setActualSize] = useState(false);
  // A picture that does not load (its address expired after an hour, say) is asked for again by hand.
  const [broken, setBroken] = useState(false);
  const onError = () => setBroken(true);
  if (broken) {
    return (
      <div className="notice" role="alert">
        <p>The preview could not be shown.</p>
        <button type="button" onClick={onReload}>
          Try again
        </button>
      </div>
    );
  }
  const facts = [preview.type.format?.toUpperCase() ?? preview.type.category, formatBytes(preview.size), preview.width && preview.height ? `${preview.width} × ${preview.height}` : null]
    .filter(Boolean)
    .join(' · ');
  const stage = (() => {
    if (preview.url === null) return null;
    switch (preview.view) {
      case 'image':
      case 'pdf':
        return (
          <div className={`preview-stage${actualSize ? ' actual-size' : ''}`} tabIndex={0} aria-label={`${title}: the picture`}>
            <img src={preview.url} alt={preview.view === 'pdf' ? `${title}, page ${preview.page ?? 1}` : title} onError={onError} />
          </div>
        );
      case 'video':
        return <video className="preview-media" src={preview.url} controls preload="metadata" aria-label={title} onError={onError} />;
      case 'audio':
        return (
          <div className="preview-stage">
            {preview.thumbnailUrl && <img src={preview.thumbnailUrl} alt="" />}
            <audio src={preview.url} controls preload="metadata" aria-label={title} onError={onError} />
          </div>
        );
      case 'none':
        return null;
    }
  })();
  return (
    <>
      {stage ?? <p className="notice">Nothing to show for this file{preview.reason ? ` (${reasonText(preview.reason)})` : ''}: open it in its program.</p>}
      <div className="preview-tools">
        <p className="muted small">{facts}</p>
        {preview.view === 'image' && (
          <button type="button" aria-pressed={actualSize} onClick={() => setActualSize((on) => !on)}>
            Actual size
          </button>
        )}
        {preview.view === 'pdf' && preview.pages !== null && (
          <span role="group" aria-label="Pages">
            <button type="button" disabled={(preview.page ?? 1) <= 1} onClick={() => onPage((preview.page ?? 1) - 1)}>
              Previous page
            </button>{' '}
            <span>
              Page {preview.page ?? 1} of {preview.pages}
            </span>{' '}
            <button type="button" disabled={(preview.page ?? 1) >= preview.pages} onClick={() => onPage((preview.page ?? 1) + 1)}>
              Next page
            </button>
          </span>
        )}
      </div>
    </>
  );
}

function reasonText(reason: NonNullable<MediaPreview['reason']>): string {
  switch (reason) {
    case 'unsupported':
      return 'no preview for this type';
    case 'unreadable':
      return 'the file could not be read';
    case 'too_large':
      return 'too large to preview';
    case 'not_available':
      return 'not available now';
  }
}
