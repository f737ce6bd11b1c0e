/** Options of the local service, from the command line or from tests. */
export interface FaultOptions {
  /** Milliseconds added to every API call. */
  latencyMs: number;
  /** Share (0..1) of API calls answered 503. */
  error5xx: number;
  /** Share of API responses whose connection is destroyed mid-body. */
  drop: number;
  /** Share of blob downloads cut short. */
  truncate: number;
  seed: number;
  /** Routes answered the same way every time (no dice): a service without a route, or one route down. */
  routes?: readonly RouteFault[] | undefined;
}

/** One route's fixed answer: e.g. `GET /workspaces/changes` → 404, as a service without the feed answers. */
export interface RouteFault {
  /** Upper case, as sent: 'GET'. */
  method: string;
  /** Matches the request path itself and every path below it ('/workspaces/changes', '/workspaces/changes/…'); the query is ignored. */
  path: string;
  /**
   * An error status (400–599); 'drop': the connection is destroyed before any answer;
   * 'malformed': a 200 whose body is cut-off JSON, as a broken proxy or service might send;
   * 'pass': the service answers as usual (with `before`: a race, made on purpose).
   */
  answer: number | 'drop' | 'malformed' | 'pass';
  /** The rule answers this many calls, then is spent (absent: every call). */
  times?: number | undefined;
  /**
   * Tests only: runs before the call is answered, so that what another client does lands
   * between a client's listing and its request, as on a busy workspace.
   */
  before?: (() => Promise<void>) | undefined;
}

/** Throws unless the rule can be applied as written. */
export function checkRouteFault(rule: RouteFault): RouteFault {
  const { method, path, answer, times } = rule;
  if (!/^[A-Z]+$/.test(method)) throw new Error(`route fault: the method "${method}" must be upper case, like GET`);
  if (!path.startsWith('/') || path.includes('?')) throw new Error(`route fault: the path "${path}" must start with / and carry no query`);
  const named = answer === 'drop' || answer === 'malformed' || answer === 'pass';
  if (!named && !(Number.isInteger(answer) && answer >= 400 && answer <= 599)) {
    throw new Error(`route fault: the answer must be an error status (400-599), "drop", "malformed" or "pass", got "${String(answer)}"`);
  }
  if (times !== undefined && !(Number.isInteger(times) && times > 0)) throw new Error(`route fault: times must be a whole number above 0, got "${String(times)}"`);
  return rule;
}

export interface FailedAuthLimit {
  burst: number;
  perMinute: number;
}

export interface ServiceOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  blobPort: number;
  /** Folder for the database and blobs; undefined means a fresh temporary folder, removed on stop. */
  dataDir?: string | undefined;
  tokenTtlSeconds: number;
  tokenShape: 'string' | 'object';
  errorShape: 'object' | 'flat';
  workspacesShape: 'object' | 'list';
  /**
   * Entries of the sync listing and the changes feed: `full` sends every field of the folder
   * record; `minimal` only the fields docs/protocol.md shows, as a service built from that
   * document alone would.
   */
  listingShape: 'full' | 'minimal';
  /** Requests per second per token; undefined disables rate limiting. */
  rateLimitPerSecond?: number | undefined;
  /**
   * Credentials that fail to verify, per client address: a burst of `burst`, refilled at
   * `perMinute`; past it the address gets 429 for any credential not already verified. On by
   * default, whatever `rateLimitPerSecond` says: guessing tokens or secrets is never welcome.
   */
  failedAuthLimit: FailedAuthLimit | false;
  /**
   * The most bytes one signed PUT takes: the size an upload may declare, and the limit of a PUT
   * whose upload declared none.
   */
  maxUploadBytes: number;
  faults?: FaultOptions | undefined;
  /** Signing secret for JWTs and signed URLs; random when absent. */
  secret?: string | undefined;
  signedUrlTtlSeconds: number;
  logger: boolean;
}

export const DEFAULT_OPTIONS: ServiceOptions = {
  host: '127.0.0.1',
  port: 0,
  blobPort: 0,
  tokenTtlSeconds: 3600,
  tokenShape: 'string',
  errorShape: 'object',
  workspacesShape: 'object',
  listingShape: 'full',
  signedUrlTtlSeconds: 3600,
  failedAuthLimit: { burst: 20, perMinute: 20 },
  // As a single PUT to the usual object stores may hold.
  maxUploadBytes: 5 * 1024 ** 3,
  logger: false,
};

/** `50/s`, `50`, `3000/m` → requests per second. */
export function parseRateLimit(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(?:\/\s*(s|sec|second|m|min|minute))?$/i.exec(text.trim());
  if (!match) throw new Error(`--rate-limit: expected a number of requests per second like "50/s", got "${text}"`);
  const n = Number(match[1]);
  const perMinute = match[2]?.toLowerCase().startsWith('m') ?? false;
  if (!(n > 0)) throw new Error('--rate-limit must be above 0');
  return perMinute ? n / 60 : n;
}

/** `20` (failures per minute per address, with a burst of as many) or `off`. */
export function parseFailedAuthLimit(text: string): FailedAuthLimit | false {
  if (text.trim().toLowerCase() === 'off') return false;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--failed-auth-limit: expected a whole number of failures per minute, or "off", got "${text}"`);
  return { burst: n, perMinute: n };
}

/** `latency=20,error5xx=0.05,drop=0.02,truncate=0.05,seed=7,route=GET:/workspaces/changes:404:once`. */
export function parseFaults(text: string): FaultOptions {
  const faults: FaultOptions = { latencyMs: 0, error5xx: 0, drop: 0, truncate: 0, seed: 1 };
  const routes: RouteFault[] = [];
  for (const part of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [name, raw] = part.split('=');
    if (name === 'route') {
      routes.push(parseRouteFault(raw ?? ''));
      continue;
    }
    const value = Number(raw);
    if (raw === undefined || !Number.isFinite(value) || value < 0) throw new Error(`--faults: bad value in "${part}"`);
    switch (name) {
      case 'latency': faults.latencyMs = value; break;
      case 'error5xx': case 'drop': case 'truncate':
        if (value > 1) throw new Error(`--faults: ${name} is a share from 0 to 1`);
        faults[name] = value;
        break;
      case 'seed': faults.seed = Math.floor(value); break;
      default: throw new Error(`--faults: unknown fault "${name}" (latency, error5xx, drop, truncate, seed, route)`);
    }
  }
  if (routes.length > 0) faults.routes = routes;
  return faults;
}

/** `GET:/workspaces/changes:404`, `GET:/workspaces/folders/hierarchy:drop`, `POST:/workspaces/assets:409:once`. */
function parseRouteFault(text: string): RouteFault {
  const match = /^([A-Za-z]+):(\/[^:]*):(\d{3}|drop|malformed)(?::(once|\d+))?$/.exec(text);
  if (!match) throw new Error(`--faults: route wants METHOD:/path:ANSWER[:once|:N], ANSWER a status, drop or malformed, got "${text}"`);
  const [, method = '', path = '', answer = '', count] = match;
  try {
    return checkRouteFault({
      method: method.toUpperCase(),
      path,
      answer: answer === 'drop' || answer === 'malformed' ? answer : Number(answer),
      ...(count === undefined ? {} : { times: count === 'once' ? 1 : Number(count) }),
    });
  } catch (error) {
    throw new Error(`--faults: ${(error as Error).message}`);
  }
}
