import type { UiEvents } from '../../../shared/ipc.js';

/** A screen of its own: what the main area shows. */
export type ScreenRoute =
  | { view: 'status' }
  | { view: 'files'; workspaceId: string | null; folder: string }
  | { view: 'versions'; workspaceId: string; path: string | null; assetId: string | null; versionId?: string | null }
  /** Two versions of one file side by side; null: not chosen yet (the newest two are shown). */
  | { view: 'compare'; workspaceId: string; path: string; a: string | null; b: string | null }
  /** `focus`: the request to show (its remoteKey), as a notification's click asks. */
  | { view: 'reviews'; focus?: string }
  /** `path`: the file whose conflict to show first. */
  | { view: 'conflicts'; workspaceId?: string; path?: string }
  | { view: 'settings' };

/**
 * The preview of one file or version, a dialog over the screen it was opened from (`under`),
 * which stays as it was: closing it (Escape, Close, Back) gives that screen the focus back.
 * `versionId` null: the version synced here, else the service's current one.
 */
export interface PreviewRoute {
  view: 'preview';
  workspaceId: string;
  path: string | null;
  assetId: string | null;
  versionId: string | null;
  /** The file's name, for the dialog's title before the preview has loaded. */
  name: string;
  under: ScreenRoute;
}

/** Which screen is showing, and what it shows: the only state the renderer owns. */
export type Route = ScreenRoute | PreviewRoute;

export type View = Route['view'];

type NavigateRequest = UiEvents['navigate'][0];

/** What main asked to show (a notification click), as a route; versions need a workspace. */
export function routeFromNavigate(request: NavigateRequest): Route {
  switch (request.view) {
    case 'versions':
      if (request.workspaceId && (request.path || request.assetId)) {
        return { view: 'versions', workspaceId: request.workspaceId, path: request.path ?? null, assetId: request.assetId ?? null };
      }
      return { view: 'reviews' };
    case 'files':
      return { view: 'files', workspaceId: request.workspaceId ?? null, folder: request.path ?? '' };
    case 'reviews':
      return request.reviewKey ? { view: 'reviews', focus: request.reviewKey } : { view: 'reviews' };
    case 'conflicts':
      return { view: 'conflicts', ...(request.workspaceId ? { workspaceId: request.workspaceId } : {}), ...(request.path ? { path: request.path } : {}) };
    case 'status':
    case 'settings':
      return { view: request.view };
  }
}

/** The screen a route shows in the main area (a preview shows over the one it was opened from). */
export const screenOf = (route: Route): ScreenRoute => (route.view === 'preview' ? route.under : route);

/** The folder a path lives in ('' for the workspace's top). */
export function parentFolder(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * A route as an address of the page: the screen is the path (one segment without a dot, which
 * the servers answer with the page), what it shows is the query. Back, Forward, a reload and a
 * bookmark then all land on the same screen.
 */
export function routeToUrl(route: Route): string {
  const query = (params: Record<string, string | null | undefined>): string => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) if (value !== null && value !== undefined && value !== '') search.set(key, value);
    const text = search.toString();
    return text ? `?${text}` : '';
  };
  switch (route.view) {
    case 'status':
      return '/';
    case 'files':
      return `/files${query({ workspace: route.workspaceId, folder: route.folder })}`;
    case 'versions':
      return `/versions${query({ workspace: route.workspaceId, path: route.path, asset: route.assetId, version: route.versionId })}`;
    case 'compare':
      return `/compare${query({ workspace: route.workspaceId, path: route.path, a: route.a, b: route.b })}`;
    case 'preview':
      return `/preview${query({ workspace: route.workspaceId, path: route.path, asset: route.assetId, version: route.versionId, name: route.name, from: routeToUrl(route.under) })}`;
    case 'reviews':
      return `/reviews${query({ focus: route.focus })}`;
    case 'conflicts':
      return `/conflicts${query({ workspace: route.workspaceId, path: route.path })}`;
    case 'settings':
      return '/settings';
  }
}

/** The route an address names; an address that names none is the Status screen. */
export function routeFromUrl(url: { pathname: string; search: string }): Route {
  const q = new URLSearchParams(url.search);
  const get = (key: string): string | null => q.get(key) || null;
  const workspaceId = get('workspace');
  switch (url.pathname.replace(/\/+$/, '') || '/') {
    case '/files':
      return { view: 'files', workspaceId, folder: get('folder') ?? '' };
    case '/versions':
      if (workspaceId && (get('path') || get('asset'))) return { view: 'versions', workspaceId, path: get('path'), assetId: get('asset'), versionId: get('version') };
      break;
    case '/compare': {
      const path = get('path');
      if (workspaceId && path) return { view: 'compare', workspaceId, path, a: get('a'), b: get('b') };
      break;
    }
    case '/preview': {
      const path = get('path');
      const assetId = get('asset');
      if (!workspaceId || (!path && !assetId)) break;
      const from = get('from');
      const under = from && from.startsWith('/') ? screenOf(routeFromUrl(new URL(from, 'http://page'))) : null;
      return {
        view: 'preview',
        workspaceId,
        path,
        assetId,
        versionId: get('version'),
        name: get('name') ?? (path ? baseName(path) : 'File'),
        under: under ?? (path ? { view: 'files', workspaceId, folder: parentFolder(path) } : { view: 'status' }),
      };
    }
    case '/reviews': {
      const focus = get('focus');
      return focus ? { view: 'reviews', focus } : { view: 'reviews' };
    }
    case '/conflicts': {
      const path = get('path');
      return { view: 'conflicts', ...(workspaceId ? { workspaceId } : {}), ...(path ? { path } : {}) };
    }
    case '/settings':
      return { view: 'settings' };
  }
  return { view: 'status' };
}

/** The document's title for a route: the screen first, so tabs and history tell them apart. */
export function titleOf(route: Route): string {
  const screen = ((): string => {
    switch (route.view) {
      case 'status':
        return 'Status';
      case 'files':
        return route.folder ? `Files: ${route.folder}` : 'Files';
      case 'versions':
        return route.path ? `Versions of ${baseName(route.path)}` : 'Versions';
      case 'compare':
        return `Compare versions of ${baseName(route.path)}`;
      case 'preview':
        return `Preview of ${route.name}`;
      case 'reviews':
        return 'Reviews';
      case 'conflicts':
        return 'Conflicts';
      case 'settings':
        return 'Settings';
    }
  })();
  return `${screen} – Asset Sync`;
}

/**
 * Whether two routes show the same thing with other details (another pair of versions to
 * compare): the address is then replaced, so Back leaves the screen instead of undoing a choice.
 */
export function sameScreen(a: Route, b: Route): boolean {
  return a.view === 'compare' && b.view === 'compare' && a.workspaceId === b.workspaceId && a.path === b.path;
}
