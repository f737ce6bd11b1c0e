/**
 * The browser's history follows the screens: each screen the user goes to is an entry (Back and
 * Forward move between them, a reload stays where it was), and an entry the user goes back to is
 * shown again. The store keeps the route; this only mirrors it to the address and back.
 */
import { routeFromUrl, routeToUrl, sameScreen, type Route } from './route.js';
import type { Store } from './store.js';

/** The parts of `window` the history lives in (tests pass their own). */
export interface HistoryPlace {
  location: Pick<Location, 'pathname' | 'search'>;
  history: Pick<History, 'pushState' | 'replaceState'>;
  addEventListener(type: 'popstate', listener: () => void): void;
  removeEventListener(type: 'popstate', listener: () => void): void;
}

/** The route the page's address names, to open the store at. */
export const routeOfPage = (place: Pick<HistoryPlace, 'location'>): Route => routeFromUrl(place.location);

/** Mirrors the store's route to the address; answers the way to stop. */
export function connectHistory(store: Store, place: HistoryPlace): () => void {
  let shown = store.getState().route;
  place.history.replaceState(null, '', routeToUrl(shown));

  const onPop = (): void => {
    shown = routeFromUrl(place.location);
    store.navigate(shown);
  };
  const unsubscribe = store.subscribe(() => {
    const { route } = store.getState();
    if (route === shown) return;
    const url = routeToUrl(route);
    // The same address (a click on the screen already shown) adds no entry.
    if (sameScreen(shown, route) || url === routeToUrl(shown)) place.history.replaceState(null, '', url);
    else place.history.pushState(null, '', url);
    shown = route;
  });
  place.addEventListener('popstate', onPop);
  return () => {
    unsubscribe();
    place.removeEventListener('popstate', onPop);
  };
}
