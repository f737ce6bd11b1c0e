import { useEffect, useState } from 'react';
import type { MediaPreview } from '../../../shared/ipc.js';
import { formatBytes, formatDate, formatDuration } from '../format.js';
import type { MediaItem } from '../media/thumbnail-loader.js';
import { useQuery } from '../store/use-query.js';
import { ImageViewer } from './ImageViewer.js';
import { LoadableView } from './Loadable.js';
import { CATEGORY_NAMES, TypeIcon } from './TypeIcon.js';

/** What the caller knows of the version beside what the preview says (the service's record). */
export interface PreviewDetails {
  author?: string | null;
  createdAt?: string | null;
  note?: string | null;
}

export interface PreviewProps {
  workspaceId: string;
  /** The asset (by id or synced path) and the version; without one, the version synced here. */
  item: MediaItem;
  /** The file's name, shown until the preview says it. */
  name: string;
  details?: PreviewDetails;
  /** Opens the file (or this version's copy) in its program; offered with the metadata. */
  onOpen?: () => void;
  /** Only the picture, no metadata beside it (two previews side by side). */
  compact?: boolean;
  /** Told what the preview shows once it has loaded (its version number, for a title). */
  onShown?: (preview: MediaPreview) => void;
}

/**
 * One version as it looks: a picture fit to the box with zoom and pan, a PDF a page at a time,
 * video and audio in the browser's own players, anything else as its metadata and "Open".
 */
export function Preview({ workspaceId, item, name, details, onOpen, compact = false, onShown }: PreviewProps) {
  const [page, setPage] = useState(1);
  const { assetId, path, versionId } = item;
  useEffect(() => setPage(1), [assetId, path, versionId]);
  const request = {
    workspaceId,
    item: { ...(assetId ? { assetId } : {}), ...(path ? { path } : {}), ...(versionId ? { versionId } : {}) },
    page,
  };
  const { result, reload } = useQuery('mediaPreview', request);
  const shown = result.kind === 'ready' ? result.value : null;
  useEffect(() => {
    if (shown) onShown?.(shown);
  }, [shown, onShown]);
  return (
    <div className={`preview${compact ? ' preview-compact' : ''}`}>
      <LoadableView value={result} what={`the preview of ${name}`} onRetry={reload}>
        {(preview) => (
          <>
            <div className="preview-stage">
              <Shown preview={preview} name={name} onPage={setPage} onExpired={reload} onOpen={onOpen} />
            </div>
            {!compact && <Metadata preview={preview} details={details} onOpen={onOpen} />}
          </>
        )}
      </LoadableView>
    </div>
  );
}

function Shown({ preview, name, onPage, onExpired, onOpen }: { preview: MediaPreview; name: string; onPage: (page: number) => void; onExpired: () => void; onOpen: (() => void) | undefined }) {
  // An address that stopped working (it expires after an hour) is asked for again, once.
  const [retried, setRetried] = useState(false);
  const onError = () => {
    if (retried) return;
    setRetried(true);
    onExpired();
  };
  const label = preview.versionNumber === null ? preview.name || name : `${preview.name || name}, version ${preview.versionNumber}`;
  if (preview.url && preview.view === 'image') return <ImageViewer src={preview.url} alt={label} width={preview.width} onError={onError} />;
  if (preview.url && preview.view === 'pdf') {
    const page = preview.page ?? 1;
    const pages = preview.pages ?? 1;
    return (
      <div className="pdf-viewer">
        <ImageViewer src={preview.url} alt={`${label}, page ${page} of ${pages}`} width={null} onError={onError} />
        <div className="viewer-tools" role="group" aria-label="Pages">
          <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
            Previous page
          </button>
          <span role="status" data-testid="page-of">
            Page {page} of {pages}
          </span>
          <button type="button" onClick={() => onPage(page + 1)} disabled={page >= pages}>
            Next page
          </button>
        </div>
      </div>
    );
  }
  if (preview.url && preview.view === 'video') {
    return <video className="media-player" src={preview.url} controls preload="metadata" aria-label={label} onError={onError} />;
  }
  if (preview.url && preview.view === 'audio') {
    return (
      <div className="audio-player">
        {preview.thumbnailUrl && <img src={preview.thumbnailUrl} alt="" className="waveform" />}
        <audio src={preview.url} controls preload="metadata" aria-label={label} onError={onError} />
      </div>
    );
  }
  return (
    <div className="preview-none">
      <TypeIcon category={preview.type.category} format={preview.type.format} size={96} />
      <p>{noPictureText(preview)}</p>
      {onOpen && (
        <button type="button" className="primary" onClick={onOpen}>
          Open
        </button>
      )}
    </div>
  );
}

function noPictureText(preview: MediaPreview): string {
  switch (preview.reason) {
    case 'too_large':
      return 'This file is too large to preview here.';
    case 'unreadable':
      return 'This file could not be read as a picture.';
    case 'not_available':
      return 'This version cannot be fetched right now.';
    default:
      return 'There is no preview for this kind of file.';
  }
}

function Metadata({ preview, details, onOpen }: { preview: MediaPreview; details: PreviewDetails | undefined; onOpen: (() => void) | undefined }) {
  const kind = `${CATEGORY_NAMES[preview.type.category]}${preview.type.format ? ` (${preview.type.format.toUpperCase()})` : ''}`;
  const rows: Array<[string, string]> = [
    ['Type', kind],
    ['Size', formatBytes(preview.size)],
  ];
  if (preview.width && preview.height && preview.view !== 'pdf') rows.push(['Dimensions', `${preview.width} × ${preview.height} px`]);
  if (preview.pages) rows.push(['Pages', String(preview.pages)]);
  if (preview.durationSeconds !== null) rows.push(['Length', formatDuration(preview.durationSeconds)]);
  if (preview.versionNumber !== null) rows.push(['Version', String(preview.versionNumber)]);
  if (details?.author) rows.push(['Made by', details.author]);
  if (details?.createdAt) rows.push(['When', formatDate(details.createdAt)]);
  if (details?.note) rows.push(['Note', details.note]);
  return (
    <div className="preview-meta">
      <dl className="meta-list">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {onOpen && preview.view !== 'none' && (
        <button type="button" onClick={onOpen}>
          Open
        </button>
      )}
    </div>
  );
}
