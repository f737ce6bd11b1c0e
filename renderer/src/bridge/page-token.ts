/**
 * The access token of the headless daemon (`asset-sync sync --ui`), as the page keeps it. The
 * printed link carries it in its fragment (`/#token=…`), which the browser never sends to any
 * server; the page takes it from there once, drops it from the address bar (history, bookmarks,
 * screenshots), and keeps it in sessionStorage, which belongs to this origin (port included) and
 * this tab, so a reload works. It is never put in a cookie: cookies are not scoped by port, and
 * every other server on 127.0.0.1 the browser visits would receive it.
 */

/** The parts of `window` the token lives in (tests pass their own). */
export interface TokenPlace {
  location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'>;
  /** Null where the browser refuses storage: the token then lasts as long as the page. */
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
}

const STORAGE_KEY = 'asset-sync-token';

/** The token from the link (then forgotten there), else the one this tab kept; null: none. */
export function takePageToken(place: TokenPlace): string | null {
  const fragment = new URLSearchParams(place.location.hash.replace(/^#/, ''));
  const fromLink = fragment.get('token');
  if (fromLink) {
    fragment.delete('token');
    const rest = fragment.toString();
    place.history.replaceState(place.history.state, '', `${place.location.pathname}${place.location.search}${rest ? `#${rest}` : ''}`);
    safely(() => place.storage?.setItem(STORAGE_KEY, fromLink));
    return fromLink;
  }
  return safely(() => place.storage?.getItem(STORAGE_KEY)) ?? null;
}

/** Storage can throw (disabled, full, a sandboxed frame): the token is then kept in memory only. */
function safely<T>(use: () => T): T | undefined {
  try {
    return use();
  } catch (_error) {
    return undefined;
  }
}
