/**
 * Who may talk to the local UI server. Listening on 127.0.0.1 is not enough: any web page the
 * user opens can send requests to localhost, and a DNS-rebinding page can even read answers. So:
 * - a 256-bit token, given once in the printed URL (or as `Authorization: Bearer` by a script),
 *   then kept in an HttpOnly, SameSite=Strict cookie that other sites' requests never carry;
 * - the Host header must name our loopback address and port (a rebound name does not);
 * - API calls must come from our own origin (Origin and Sec-Fetch-Site checked).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export type AuthVia = 'header' | 'query' | 'cookie';

export const newToken = (): string => randomBytes(32).toString('hex');

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Compares in constant time whatever the lengths, so the answer time tells nothing about the token. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

export class UiGuard {
  /** Per port: two servers on one machine do not overwrite each other's cookie. */
  readonly cookieName: string;
  private readonly hosts: ReadonlySet<string>;
  readonly origins: ReadonlySet<string>;

  constructor(
    private readonly token: string,
    readonly port: number,
  ) {
    this.cookieName = `asset_sync_${port}`;
    this.hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    this.origins = new Set([...this.hosts].map((h) => `http://${h}`));
  }

  hostAllowed(req: IncomingMessage): boolean {
    return this.hosts.has((req.headers.host ?? '').toLowerCase());
  }

  /** How the request proved it holds the token, or null. The query counts only where `allowQuery`. */
  authenticate(req: IncomingMessage, url: URL, allowQuery: boolean): AuthVia | null {
    const header = req.headers.authorization;
    if (header?.startsWith('Bearer ') && sameSecret(header.slice(7).trim(), this.token)) return 'header';
    const cookie = readCookie(req.headers.cookie, this.cookieName);
    if (cookie !== undefined && sameSecret(cookie, this.token)) return 'cookie';
    const query = url.searchParams.get('token');
    if (allowQuery && query !== null && sameSecret(query, this.token)) return 'query';
    return null;
  }

  /**
   * Same origin only. Browsers always send Origin on a POST, and Sec-Fetch-Site on every request;
   * a script holding the token in a header (no browser) may send neither.
   */
  originAllowed(req: IncomingMessage, via: AuthVia): boolean {
    const origin = req.headers.origin;
    if (origin !== undefined && !this.origins.has(origin.toLowerCase())) return false;
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
    if (via === 'cookie' && req.method === 'POST' && origin === undefined) return false;
    return true;
  }

  sessionCookie(): string {
    return `${this.cookieName}=${this.token}; HttpOnly; SameSite=Strict; Path=/`;
  }
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
