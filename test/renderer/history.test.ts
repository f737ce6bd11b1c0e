import { describe, expect, it } from 'vitest';
import { connectHistory, type HistoryPlace } from '../../renderer/src/store/history.js';
import { routeFromUrl, routeToUrl, titleOf, type Route } from '../../renderer/src/store/route.js';
import { createStore } from '../../renderer/src/store/store.js';
import { MemoryBridge } from './memory-bridge.js';

const WS = 'ws-1';
const ROUTES: Route[] = [
  { view: 'status' },
  { view: 'files', workspaceId: null, folder: '' },
  { view: 'files', workspaceId: WS, folder: 'Brand/Logos & Marks/100% #1?' },
  { view: 'versions', workspaceId: WS, path: 'Brand/hero v2.psd', assetId: 'a-1', versionId: 'v-3' },
  { view: 'versions', workspaceId: WS, path: null, assetId: 'a-1', versionId: null },
  { view: 'compare', workspaceId: WS, path: 'Brand/logo-mark.png', a: 'v1', b: 'v3' },
  { view: 'compare', workspaceId: WS, path: 'Brand/logo-mark.png', a: null, b: null },
  { view: 'preview', workspaceId: WS, path: 'Brand/logo-mark.png', assetId: 'a-2', versionId: 'v1', name: 'logo-mark.png', under: { view: 'files', workspaceId: WS, folder: 'Brand' } },
  { view: 'preview', workspaceId: WS, path: null, assetId: 'a-2', versionId: null, name: 'logo-mark.png', under: { view: 'reviews' } },
  { view: 'reviews' },
  { view: 'reviews', focus: 'ws-1:review:a-2:v1' },
  { view: 'conflicts' },
  { view: 'conflicts', workspaceId: WS, path: 'Brand/palette #2.png' },
  { view: 'preview', workspaceId: WS, path: 'Brand/palette #2.png', assetId: 'a-3', versionId: 'v4', name: 'palette #2.png', under: { view: 'conflicts', workspaceId: WS, path: 'Brand/palette #2.png' } },
  { view: 'settings' },
];

/** A history of its own: entries, the current one, and a popstate as the browser sends it. */
function fakeWindow(start = '/'): HistoryPlace & { entries: string[]; index: number; back(): void; forward(): void } {
  const listeners = new Set<() => void>();
  const place = {
    entries: [start],
    index: 0,
    location: { pathname: '/', search: '' },
    history: {
      pushState: (_state: unknown, _title: string, url?: string | URL | null) => {
        place.entries = [...place.entries.slice(0, place.index + 1), String(url)];
        place.index += 1;
        place.go();
      },
      replaceState: (_state: unknown, _title: string, url?: string | URL | null) => {
        place.entries[place.index] = String(url);
        place.go();
      },
    },
    go() {
      const url = new URL(place.entries[place.index] ?? '/', 'http://127.0.0.1');
      place.location = { pathname: url.pathname, search: url.search };
    },
    back() {
      place.index -= 1;
      place.go();
      for (const l of listeners) l();
    },
    forward() {
      place.index += 1;
      place.go();
      for (const l of listeners) l();
    },
    addEventListener: (_type: 'popstate', l: () => void) => void listeners.add(l),
    removeEventListener: (_type: 'popstate', l: () => void) => void listeners.delete(l),
  };
  place.go();
  return place;
}

describe('routes as addresses', () => {
  it('round-trips every kind of route through its address', () => {
    for (const route of ROUTES) {
      const url = new URL(routeToUrl(route), 'http://127.0.0.1');
      const back = routeFromUrl(url);
      const expected = route.view === 'versions' && !route.versionId ? { ...route, versionId: null } : route;
      expect(back).toEqual(expected);
    }
  });

  it('puts the screen in a path of one segment without a dot, so a reload is answered with the page', () => {
    for (const route of ROUTES) expect(new URL(routeToUrl(route), 'http://127.0.0.1').pathname).toMatch(/^\/[a-z]*$/);
  });

  it('opens an address that names no screen, or names one without what it needs, at Status', () => {
    expect(routeFromUrl({ pathname: '/index.html', search: '' })).toEqual({ view: 'status' });
    expect(routeFromUrl({ pathname: '/versions', search: '?workspace=ws-1' })).toEqual({ view: 'status' });
    expect(routeFromUrl({ pathname: '/compare', search: '' })).toEqual({ view: 'status' });
  });

  it('gives each screen its own title', () => {
    const titles = ROUTES.map(titleOf);
    expect(titles).toEqual([
      'Status – Asset Sync',
      'Files – Asset Sync',
      'Files: Brand/Logos & Marks/100% #1? – Asset Sync',
      'Versions of hero v2.psd – Asset Sync',
      'Versions – Asset Sync',
      'Compare versions of logo-mark.png – Asset Sync',
      'Compare versions of logo-mark.png – Asset Sync',
      'Preview of logo-mark.png – Asset Sync',
      'Preview of logo-mark.png – Asset Sync',
      'Reviews – Asset Sync',
      'Reviews – Asset Sync',
      'Conflicts – Asset Sync',
      'Conflicts – Asset Sync',
      'Preview of palette #2.png – Asset Sync',
      'Settings – Asset Sync',
    ]);
  });
});

describe('Back and Forward', () => {
  it('moves between the screens the user went to, and a reload opens the one shown', () => {
    const place = fakeWindow('/files?workspace=ws-1&folder=Brand');
    const store = createStore(new MemoryBridge(), routeFromUrl(place.location));
    connectHistory(store, place);
    expect(store.getState().route).toEqual({ view: 'files', workspaceId: WS, folder: 'Brand' });

    store.navigate({ view: 'versions', workspaceId: WS, path: 'Brand/hero.psd', assetId: null });
    store.navigate({ view: 'reviews' });
    expect(place.entries).toEqual(['/files?workspace=ws-1&folder=Brand', '/versions?workspace=ws-1&path=Brand%2Fhero.psd', '/reviews']);

    place.back();
    expect(store.getState().route).toEqual({ view: 'versions', workspaceId: WS, path: 'Brand/hero.psd', assetId: null, versionId: null });
    place.back();
    expect(store.getState().route).toEqual({ view: 'files', workspaceId: WS, folder: 'Brand' });
    place.forward();
    expect(store.getState().route.view).toBe('versions');
    // Going back adds no entry of its own.
    expect(place.entries).toHaveLength(3);
    // A reload reads the address.
    expect(routeFromUrl(place.location)).toEqual(store.getState().route);
  });

  it('replaces the entry when only the versions compared change, so Back leaves the comparison', () => {
    const place = fakeWindow('/versions?workspace=ws-1&path=a.png');
    const store = createStore(new MemoryBridge(), routeFromUrl(place.location));
    connectHistory(store, place);
    store.navigate({ view: 'compare', workspaceId: WS, path: 'a.png', a: null, b: null });
    store.navigate({ view: 'compare', workspaceId: WS, path: 'a.png', a: 'v1', b: 'v3' });
    store.navigate({ view: 'compare', workspaceId: WS, path: 'a.png', a: 'v2', b: 'v3' });
    expect(place.entries).toEqual(['/versions?workspace=ws-1&path=a.png', '/compare?workspace=ws-1&path=a.png&a=v2&b=v3']);
    place.back();
    expect(store.getState().route.view).toBe('versions');
  });

  it('adds no entry for the screen already shown', () => {
    const place = fakeWindow('/reviews');
    const store = createStore(new MemoryBridge(), routeFromUrl(place.location));
    connectHistory(store, place);
    store.navigate({ view: 'reviews' });
    expect(place.entries).toEqual(['/reviews']);
  });
});
