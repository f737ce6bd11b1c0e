import type { ReactNode, TableHTMLAttributes } from 'react';

/**
 * A table of the app: wider than the window, it scrolls sideways in its own box (the page never
 * does); its caption is for screen readers, the screen's heading says it for the eye.
 */
export function DataTable({ caption, className, children, ...attributes }: { caption: ReactNode; className: string; children: ReactNode } & Omit<TableHTMLAttributes<HTMLTableElement>, 'className'>) {
  return (
    <div className="table-scroll">
      <table className={`data-table ${className}`} {...attributes}>
        <caption className="visually-hidden">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

/** The header of a column (or row) of buttons: named for screen readers, blank on screen. */
export function ActionsHeader({ scope = 'col' }: { scope?: 'col' | 'row' }) {
  return (
    <th scope={scope}>
      <span className="visually-hidden">Actions</span>
    </th>
  );
}
