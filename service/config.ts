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
  /** Requests per second per token; undefined disables rate limiting. */
  rateLimitPerSecond?: number | undefined;
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
  signedUrlTtlSeconds: 3600,
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

/** `latency=20,error5xx=0.05,drop=0.02,truncate=0.05,seed=7`. */
export function parseFaults(text: string): FaultOptions {
  const faults: FaultOptions = { latencyMs: 0, error5xx: 0, drop: 0, truncate: 0, seed: 1 };
  for (const part of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [name, raw] = part.split('=');
    const value = Number(raw);
    if (raw === undefined || !Number.isFinite(value) || value < 0) throw new Error(`--faults: bad value in "${part}"`);
    switch (name) {
      case 'latency': faults.latencyMs = value; break;
      case 'error5xx': case 'drop': case 'truncate':
        if (value > 1) throw new Error(`--faults: ${name} is a share from 0 to 1`);
        faults[name] = value;
        break;
      case 'seed': faults.seed = Math.floor(value); break;
      default: throw new Error(`--faults: unknown fault "${name}" (latency, error5xx, drop, truncate, seed)`);
    }
  }
  return faults;
}
