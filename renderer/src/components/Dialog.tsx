import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), video[controls], audio[controls], [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog: its title takes the focus when it opens, Tab stays inside it, Escape closes it,
 * and the focus goes back to what had it before (the button that opened it). The page behind it
 * is made inert by the caller (App), which owns that page.
 */
export function Dialog({ title, onClose, actions, children, className }: { title: ReactNode; onClose: () => void; actions?: ReactNode; children: ReactNode; className?: string }) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    heading.current?.focus({ preventScroll: true });
    return () => {
      // Closed: the focus returns to the opener if it is still on the page (the screen behind stays).
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onClose();
      return;
    }
    if (e.key !== 'Tab' || !box.current) return;
    const items = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && (document.activeElement === first || document.activeElement === heading.current)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="dialog-backdrop">
      <div ref={box} className={`dialog${className ? ` ${className}` : ''}`} role="dialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={onKeyDown}>
        <div className="dialog-header">
          <h2 id={titleId} ref={heading} tabIndex={-1} className="dialog-title">
            {title}
          </h2>
          <div className="dialog-actions">
            {actions}
            <button type="button" onClick={onClose}>
              Close
            </button>
          </div>
        </div>
        <div className="dialog-body">{children}</div>
      </div>
    </div>
  );
}
