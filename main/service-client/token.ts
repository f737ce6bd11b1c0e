/**
 * The bearer token's life: obtained on first use, renewed ahead of expiry, renewed once more
 * when the service rejects it. However many requests wait, at most one renewal is in flight.
 */
import { decodeJwt } from 'jose';
import type { TokenAnswer } from './records.js';
import { abortable } from './retry.js';

export interface Credentials {
  key: string;
  secret: string;
}
/** Called at each renewal, so rotated keys (e.g. from the OS keychain) are picked up. */
export type CredentialsProvider = () => Credentials | Promise<Credentials>;

export interface TokenGrant {
  token: string;
  /** Local clock (ms) at which the token stops working; Infinity when the service did not say. */
  expiresAt: number;
  /** Local clock (ms) from which a request first renews it. */
  renewAt: number;
}

const RENEW_MARGIN_MS = 60_000;
const RENEW_SHARE = 0.2;

/**
 * Lifetime in seconds: `expires_in` when given, else the JWT's `exp` (read, not verified: the
 * client cannot verify an HS256 signature and only needs to know when to renew).
 */
function lifetimeSeconds(body: TokenAnswer, token: string, nowMs: number): number | undefined {
  if (typeof body !== 'string' && body.expires_in !== undefined) return body.expires_in;
  let claims: ReturnType<typeof decodeJwt>;
  try {
    claims = decodeJwt(token);
  } catch {
    return undefined;
  }
  if (typeof claims.exp !== 'number') return undefined;
  // exp − iat is immune to a skewed local clock; exp − now is the fallback.
  const life = typeof claims.iat === 'number' ? claims.exp - claims.iat : claims.exp - nowMs / 1000;
  return life > 0 ? life : undefined;
}

/**
 * Renews when the larger of 60 s and 20 % of the lifetime remains, but never in the first half
 * of it (a short-lived token would otherwise be renewed on every request).
 */
export function grantFromResponse(body: TokenAnswer, nowMs: number): TokenGrant {
  const token = typeof body === 'string' ? body : body.token;
  const life = lifetimeSeconds(body, token, nowMs);
  if (life === undefined) return { token, expiresAt: Infinity, renewAt: Infinity };
  const lifeMs = life * 1000;
  const margin = Math.min(Math.max(RENEW_MARGIN_MS, lifeMs * RENEW_SHARE), lifeMs / 2);
  return { token, expiresAt: nowMs + lifeMs, renewAt: nowMs + lifeMs - margin };
}

export interface TokenManagerOptions {
  /** Asks the service for a new token (with its own retries). */
  obtain: () => Promise<TokenGrant>;
  now: () => number;
  /** Whether a failed renewal may fall back on the still-valid current token. */
  isTransient: (err: unknown) => boolean;
}

export class TokenManager {
  private current: TokenGrant | undefined;
  private inflight: Promise<TokenGrant> | undefined;

  constructor(private readonly options: TokenManagerOptions) {}

  /** A token to send now. */
  async token(signal?: AbortSignal): Promise<string> {
    const grant = this.current;
    const now = this.options.now();
    if (grant && now < grant.renewAt) return grant.token;
    if (grant && now < grant.expiresAt) {
      try {
        return (await abortable(this.renew(), signal)).token;
      } catch (err) {
        // Still valid: a service briefly unable to issue tokens must not stop the rest.
        if (this.options.isTransient(err)) return grant.token;
        throw err;
      }
    }
    return (await abortable(this.renew(), signal)).token;
  }

  /** After a 401 for `rejected`: a fresh token, renewing only if nobody has done so yet. */
  async renewAfterRejection(rejected: string, signal?: AbortSignal): Promise<string> {
    if (this.current && this.current.token !== rejected) return this.current.token;
    return (await abortable(this.renew(), signal)).token;
  }

  /** The token in use, to keep it out of messages and logs. */
  get currentToken(): string | undefined {
    return this.current?.token;
  }

  private renew(): Promise<TokenGrant> {
    if (!this.inflight) {
      const started = this.options.obtain().then((grant) => {
        this.current = grant;
        return grant;
      });
      this.inflight = started.finally(() => {
        this.inflight = undefined;
      });
      // Every waiter may have given up (aborted); the outcome must still count as handled.
      this.inflight.catch(() => undefined);
    }
    return this.inflight;
  }
}
