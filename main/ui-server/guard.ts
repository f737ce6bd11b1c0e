/**
 * Who may talk to the local UI server. Listening on 127.0.0.1 is not enough: any web page the
 * user opens can send requests to localhost, and a DNS-rebinding page can even read answers. So:
 * - the API answers only a request holding the 256-bit token in an `Authorization: Bearer`
 *   header. The printed link gives it to the page in its fragment, which no request carries; the
 *   page keeps it (page-token.ts) and sends it with each call. Never a cookie: cookies are not
 *   scoped by port, so every other server on 127.0.0.1 the browser visited received it, and
 *   never the query string, which ends up in histories and logs. A header is also what another
 *   site cannot make a browser send without a preflight, which this server never grants;
 * - the Host header must name our loopback address and port (a rebound name does not);
 * - API calls must come from our own origin (Origin and Sec-Fetch-Site checked).
 * The page and its scripts hold no secret, so they are served to anyone on our Host.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const newToken = (): string => randomBytes(32).toString('hex');

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Compares in constant time whatever the lengths, so the answer time tells nothing about the token. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

export class UiGuard {
  private readonly hosts: ReadonlySet<string>;
  readonly origins: ReadonlySet<string>;

  constructor(
    private readonly token: string,
    readonly port: number,
  ) {
    this.hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    this.origins = new Set([...this.hosts].map((h) => `http://${h}`));
  }

  hostAllowed(req: IncomingMessage): boolean {
    // Stryker disable next-line StringLiteral: no Host at all is refused whatever stands in for it, unless it is our own host
    return this.hosts.has((req.headers.host ?? '').toLowerCase());
  }

  /**
   * Whether the request holds the token, in its Authorization header and nowhere else. The
   * scheme is case-insensitive and may be followed by more than one space (RFC 6750).
   */
  authenticated(req: IncomingMessage): boolean {
    // Stryker disable next-line StringLiteral: no header at all is refused whatever stands in for it, unless it holds the token
    const given = /^Bearer (.*)/i.exec(req.headers.authorization ?? '')?.[1];
    return given !== undefined && sameSecret(given.trim(), this.token);
  }

  /**
   * Same origin only. Browsers send Origin on a POST and Sec-Fetch-Site on every request; a
   * script holding the token (no browser) may send neither.
   */
  originAllowed(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    if (origin !== undefined && !this.origins.has(origin.toLowerCase())) return false;
    const site = req.headers['sec-fetch-site'];
    return site === undefined || site === 'same-origin' || site === 'none';
  }
}
