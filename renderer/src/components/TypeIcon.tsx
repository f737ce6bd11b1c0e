import type { ReactNode } from 'react';
import type { MediaCategory } from '../../../shared/ipc.js';

/** What each kind of file is called, for a label or a tooltip. */
export const CATEGORY_NAMES: Readonly<Record<MediaCategory, string>> = {
  image: 'Image',
  video: 'Video',
  audio: 'Audio',
  pdf: 'PDF document',
  psd: 'Photoshop document',
  document: 'Document',
  archive: 'Archive',
  font: 'Font',
  other: 'File',
};

const line = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.6, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

/** The mark inside the page for each kind: a landscape, a play button, a note, a zipper… */
const MARKS: Readonly<Record<MediaCategory, ReactNode>> = {
  image: (
    <g {...line}>
      <circle cx="9.5" cy="11" r="1.4" />
      <path d="M7 18l3.5-3.5 2 2 3-3.5L18 16.5" />
    </g>
  ),
  video: <path d="M10 10.5v6l5-3z" fill="currentColor" />,
  audio: (
    <g {...line}>
      <path d="M11 17.5V10.5l5-1.2v6.5" />
      <circle cx="9.8" cy="17.6" r="1.3" />
      <circle cx="14.8" cy="16" r="1.3" />
    </g>
  ),
  pdf: (
    <g {...line}>
      <path d="M8 11.5h8M8 14h8M8 16.5h5" />
    </g>
  ),
  psd: (
    <g {...line}>
      <rect x="8" y="10.5" width="6" height="4.5" />
      <rect x="10" y="12.5" width="6" height="4.5" />
    </g>
  ),
  document: (
    <g {...line}>
      <path d="M8 11.5h8M8 14h8M8 16.5h6" />
    </g>
  ),
  archive: (
    <g {...line}>
      <path d="M12 9v2M12 12.5v2M12 16v1.5" />
      <rect x="10.8" y="17" width="2.4" height="2" />
    </g>
  ),
  font: (
    <g {...line}>
      <path d="M8.5 18l2.5-7 2.5 7M9.4 15.6h3.2" />
      <path d="M16.2 14.2a1.6 1.6 0 1 0 0 3.2 1.6 1.6 0 0 0 0-3.2zM17.8 14v4" />
    </g>
  ),
  other: null,
};

/**
 * A file's kind as a picture: a page with the kind's mark and, when known, its format in short
 * ("PSD", "WAV"). Stands in for a thumbnail; it is drawn inline (no icon font), and hidden from
 * screen readers: the words beside it say what the file is.
 */
export function TypeIcon({ category, format = null, size = 40 }: { category: MediaCategory; format?: string | null; size?: number }) {
  const label = format ? format.toUpperCase().slice(0, 4) : null;
  // Small icons keep the mark only: four letters at 16 px are a smudge.
  return (
    <svg className={`type-icon category-${category}`} width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path className="type-icon-page" d="M5.5 2.5h9l4 4v15h-13z" />
      <path className="type-icon-fold" d="M14.5 2.5v4h4" />
      <g className="type-icon-mark" transform={label && size >= 32 ? 'translate(0 -2.6)' : undefined}>
        {MARKS[category]}
      </g>
      {label && size >= 32 && (
        <text className="type-icon-label" x="12" y="20.2" textAnchor="middle" fontSize={label.length > 3 ? 3.6 : 4.2}>
          {label}
        </text>
      )}
    </svg>
  );
}
