import type { ReactNode } from 'react';
import type { Tone } from '../format.js';

/** A small icon for a tone; always next to words, so hidden from screen readers. */
export function StateIcon({ tone, size = 18 }: { tone: Tone; size?: number }) {
  return (
    <svg className={`state-icon tone-${tone}`} width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="11" className="state-icon-bg" />
      {ICON_PATHS[tone]}
    </svg>
  );
}

const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 2.4, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

const ICON_PATHS: Record<Tone, ReactNode> = {
  ok: <path d="M7 12.5l3.2 3.2L17 9" {...stroke} />,
  busy: (
    <g {...stroke}>
      <path d="M17 9.5A5.5 5.5 0 0 0 7.2 8.6" />
      <path d="M7 14.5a5.5 5.5 0 0 0 9.8.9" />
      <path d="M7 5.5v3.3h3.3M17 18.5v-3.3h-3.3" />
    </g>
  ),
  paused: <path d="M9.5 8v8M14.5 8v8" {...stroke} />,
  offline: (
    <g {...stroke}>
      <path d="M8 16.5h8a3 3 0 0 0 .3-6A4.5 4.5 0 0 0 7.7 11 2.8 2.8 0 0 0 8 16.5z" />
      <path d="M6 6l12 12" />
    </g>
  ),
  warn: <path d="M12 7v6M12 16.8v.2" {...stroke} />,
};
