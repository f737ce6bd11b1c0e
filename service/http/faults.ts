import { checkRouteFault, type FaultOptions, type RouteFault } from '../config.js';
import { seededRandom } from '../../shared/random.js';

export type { RouteFault };

export type FaultKind = 'error5xx' | 'drop' | 'truncate';

export interface FaultInjector {
  readonly options: FaultOptions;
  /** Whether the next event of this kind fails. */
  roll(kind: FaultKind): boolean;
  /** The first route rule this request falls under and not spent (counted as a `route` fault), if any. */
  routeFault(method: string, url: string): RouteFault | undefined;
  /**
   * Replaces the route rules while the service runs: a test takes a route down and brings it
   * back, as an outage of one part of a real service would.
   */
  setRoutes(routes: readonly RouteFault[]): void;
  readonly counts: Record<FaultKind | 'route', number>;
}

export function createFaultInjector(options: FaultOptions): FaultInjector {
  const random = seededRandom(options.seed);
  const counts = { error5xx: 0, drop: 0, truncate: 0, route: 0 };
  // Each rule with the calls it has left to answer (Infinity: every call).
  let routes: Array<{ rule: RouteFault; left: number }> = [];
  const setRoutes = (next: readonly RouteFault[]): void => {
    routes = next.map((r) => ({ rule: checkRouteFault(r), left: r.times ?? Infinity }));
  };
  setRoutes(options.routes ?? []);
  return {
    options,
    counts,
    roll(kind) {
      const hit = options[kind] > 0 && random() < options[kind];
      if (hit) counts[kind] += 1;
      return hit;
    },
    routeFault(method, url) {
      if (routes.length === 0) return undefined;
      const path = url.split('?')[0] ?? '';
      const hit = routes.find(
        ({ rule: r, left }) => left > 0 && r.method === method && (path === r.path || path.startsWith(r.path.endsWith('/') ? r.path : `${r.path}/`)),
      );
      if (!hit) return undefined;
      hit.left -= 1;
      counts.route += 1;
      return hit.rule;
    },
    setRoutes,
  };
}

/** The error code a fixed status is answered with: the one the service itself uses for it. */
export function routeFaultCode(status: number): string {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  // The commonest conflict: a name already taken (without the details of what took it).
  if (status === 409) return 'name_conflict';
  if (status === 429) return 'rate_limited';
  if (status === 503) return 'unavailable';
  if (status >= 500) return 'internal';
  return 'invalid_request';
}
