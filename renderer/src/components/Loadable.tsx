import type { ReactNode } from 'react';
import type { Loadable } from '../store/store.js';

/** The three faces of an answer: on its way, failed (with a way to try again), or there. */
export function LoadableView<T>({ value, what, onRetry, children }: { value: Loadable<T>; what: string; onRetry?: () => void; children: (value: T) => ReactNode }) {
  if (value.kind === 'loading') {
    return (
      <p className="muted" role="status">
        Loading {what}…
      </p>
    );
  }
  if (value.kind === 'error') {
    return (
      <div className="notice notice-error" role="alert">
        <p>
          Could not load {what}: {value.message}
        </p>
        {onRetry && (
          <button type="button" onClick={onRetry}>
            Try again
          </button>
        )}
      </div>
    );
  }
  return <>{children(value.value)}</>;
}
