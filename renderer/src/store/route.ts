import type { UiEvents } from '../../../shared/ipc.js';

/** Which screen is showing, and what it shows: the only state the renderer owns. */
export type Route =
  | { view: 'status' }
  | { view: 'files'; workspaceId: string | null; folder: string }
  | { view: 'versions'; workspaceId: string; path: string | null; assetId: string | null; versionId?: string | null }
  /** `focus`: the request to show (its remoteKey), as a notification's click asks. */
  | { view: 'reviews'; focus?: string }
  /** `path`: the file whose conflict to show first. */
  | { view: 'conflicts'; workspaceId?: string; path?: string }
  | { view: 'settings' };

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

/** The folder a path lives in ('' for the workspace's top). */
export function parentFolder(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
