/**
 * The limit on failed authentication per client address [ours]. A credential that fails to
 * verify (a bearer token the service never issued, a wrong API key or secret) takes one from the
 * address's bucket; once it is empty, the address gets 429 for every credential the service has
 * not verified before, and the credential is not checked at all, so guessing goes no faster than
 * the bucket refills. A token already verified still works from a blocked address (a colleague
 * behind the same NAT keeps syncing); a genuine token that merely expired, a request without any
 * credential and a refusal for lack of permission take nothing.
 *
 * Each attempt takes from the bucket before the check and is given back once the credential
 * verifies: concurrent guesses cannot overshoot the burst.
 */
import type { FailedAuthLimit } from '../config.js';
import { rateLimited } from './errors.js';
import { createRateLimiter } from './rate-limit.js';

export interface FailedAuthGuard {
  /** Before a credential is checked: throws 429 when the address has no failures left. */
  enter(address: string): void;
  /** After `enter`, the credential verified (or was genuine): its attempt is given back. */
  forgive(address: string): void;
}

export function createFailedAuthGuard(limit: FailedAuthLimit | false, clock?: () => number): FailedAuthGuard {
  if (limit === false) return { enter: () => undefined, forgive: () => undefined };
  const buckets = createRateLimiter(limit.perMinute / 60, { capacity: limit.burst, ...(clock ? { clock } : {}) });
  return {
    enter(address) {
      const wait = buckets.take(address);
      if (wait > 0) throw rateLimited(wait, 'Too many failed authentications from this address; wait before trying again.');
    },
    forgive(address) {
      buckets.refund(address);
    },
  };
}
