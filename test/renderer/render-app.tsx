import { cleanup, render } from '@testing-library/react';
import { afterEach } from 'vitest';
import { App } from '../../renderer/src/App.js';
import { ServicesProvider } from '../../renderer/src/store/context.js';
import type { Route } from '../../renderer/src/store/route.js';
import { createStore, type StoreOptions } from '../../renderer/src/store/store.js';
import { MemoryBridge, type Handlers } from './memory-bridge.js';
import { status } from './fixtures.js';

// jsdom lays nothing out and cannot scroll; the virtualized lists write the scroll offset they read.
window.scrollTo = () => undefined;

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});

/** What every screen can lean on unless a test says otherwise: a quiet, up-to-date engine. */
const BASE: Handlers = {
  getStatus: () => status(),
  getActivity: () => [],
  listReviews: () => ({ reviewRequests: [], changeRequests: [] }),
  listDecided: () => [],
};

/**
 * A folder's first page as main answers it, from the test's `listFiles`: its start and its length.
 * How main pages a real folder is tested against one (test/unit/list-folder.test.ts).
 */
function withFirstPage(handlers: Handlers): Handlers {
  const list = handlers.listFiles;
  if (!list || handlers.listFilesFirst) return handlers;
  return {
    ...handlers,
    listFilesFirst: async ({ limit, ...request }) => {
      const all = await list(request);
      return { entries: all.slice(0, limit), total: all.length };
    },
  };
}

/** The whole app over an in-memory bridge, opened at `route`. */
export function renderApp(handlers: Handlers = {}, route: Route = { view: 'status' }, options: StoreOptions = {}) {
  const bridge = new MemoryBridge(withFirstPage({ ...BASE, ...handlers }));
  const store = createStore(bridge, route, options);
  const view = render(
    <ServicesProvider bridge={bridge} store={store}>
      <App />
    </ServicesProvider>,
  );
  return { bridge, store, ...view };
}
