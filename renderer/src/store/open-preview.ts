import { useCallback } from 'react';
import { useServices } from './context.js';
import { screenOf, type PreviewRoute } from './route.js';

/** What a preview shows: the route without the screen it opens over. */
export type PreviewTarget = Omit<PreviewRoute, 'view' | 'under'>;

/**
 * Opens the preview route over the screen showing now: every preview of the app is that one
 * dialog, and closing it (Escape, Close, Back) lands on that screen as it was.
 */
export function useOpenPreview(): (target: PreviewTarget) => void {
  const { store } = useServices();
  return useCallback((target: PreviewTarget) => store.navigate({ view: 'preview', ...target, under: screenOf(store.getState().route) }), [store]);
}
