import { createHash, timingSafeEqual, webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Db } from '../db/db.js';
import { API_MIN_TIER_LEVEL } from '../db/reference-data.js';
import { ApiError, badRequest, forbidden, notFound, unauthorized } from './errors.js';
import type { FailedAuthGuard } from './failed-auth.js';
import { isUuid, newId } from './ids.js';

export type AuthLevel = 'none' | 'user' | 'account' | 'workspace';

export interface AuthContext {
  userId: string;
  accountId?: string;
  workspaceId?: string;
  /** The token's id, the key for rate limiting. */
  tokenId: string;
  /** The caller's roles on the account of the request (account and workspace routes). */
  accountRoles?: string[];
  /** The caller's roles in the workspace of the request (workspace routes). */
  workspaceRoles?: string[];
}

/** Where a request comes from: the key of the limit on failed authentication. */
export type ClientAddress = string;

interface Claims {
  sub: string;
  acct: string;
  jti: string;
  exp: number;
}

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

function sameSecret(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export class TokenAuthority {
  /** Imported once: handing jose raw bytes would make it import the key again on every request. */
  private readonly key: Promise<webcrypto.CryptoKey>;
  /**
   * Tokens whose signature was checked, by their exact text: a client sends one token for its whole
   * lifetime, and the HMAC check was most of a small request's cost. Expiry is still checked each time.
   */
  private readonly verified = new Map<string, Claims>();

  constructor(
    private readonly db: Db,
    secret: string,
    private readonly ttlSeconds: number,
    private readonly failures: FailedAuthGuard,
  ) {
    this.key = webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }

  /** POST /auth/token: key and secret for a member of a Pro-or-above account. */
  async issue(accountHeader: unknown, body: unknown, address: ClientAddress): Promise<{ token: string; expiresIn: number }> {
    const accountId = requireUuidHeader(accountHeader, 'x-account-id');
    const { key, secret } = (body ?? {}) as { key?: unknown; secret?: unknown };
    if (typeof key !== 'string' || typeof secret !== 'string' || !key || !secret) {
      throw badRequest('The body must be JSON with string fields "key" and "secret".');
    }
    this.failures.enter(address);
    const row = this.db
      .prepare(
        `SELECT k.secret_hash, k.user_id, u.is_active FROM api_keys k JOIN users u ON u.id = k.user_id
         WHERE k.key = ? AND k.revoked_at IS NULL`,
      )
      .get(key) as { secret_hash: string; user_id: string; is_active: number } | undefined;
    if (!row || !sameSecret(secret, row.secret_hash) || !row.is_active) {
      throw unauthorized('The API key or secret key is wrong or revoked.');
    }
    this.failures.forgive(address);
    this.checkAccount(row.user_id, accountId);
    const claims: Claims = { sub: row.user_id, acct: accountId, jti: newId(), exp: Math.floor(Date.now() / 1000) + this.ttlSeconds };
    const token = await new SignJWT({ acct: accountId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setJti(claims.jti)
      .setIssuedAt()
      .setExpirationTime(claims.exp)
      .sign(await this.key);
    // Known from the start: its first use needs no signature check, even from a blocked address.
    this.remember(token, claims);
    return { token, expiresIn: this.ttlSeconds };
  }

  /** Checks the headers a route needs, in the reference's order: 400, then 401, then 403/404. */
  async authenticate(headers: Record<string, string | string[] | undefined>, level: AuthLevel, address: ClientAddress): Promise<AuthContext | undefined> {
    if (level === 'none') return undefined;
    const authorization = headers.authorization;
    if (authorization === undefined) throw unauthorized('The Authorization header with a bearer token is missing.');
    const match = typeof authorization === 'string' ? /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(authorization) : null;
    if (!match?.[1]) throw badRequest('The Authorization header must be "Bearer <token>".');
    const accountId = level === 'user' ? undefined : requireUuidHeader(headers['x-account-id'], 'x-account-id');
    const workspaceId = level === 'workspace' ? requireUuidHeader(headers['x-workspace-id'], 'x-workspace-id') : undefined;

    const claims = await this.verify(match[1], address);
    // Every row the checks below read, in one statement: a statement per check cost more than the checks.
    const rows = this.db
      .prepare(
        `SELECT (SELECT is_active FROM users WHERE id = :user) AS user_active,
           (SELECT t.level FROM accounts a JOIN tiers t ON t.id = a.tier_id WHERE a.id = :account AND a.deleted_at IS NULL) AS tier_level,
           (SELECT roles FROM account_members WHERE account_id = :account AND user_id = :user) AS account_roles,
           (SELECT account_id FROM workspaces WHERE id = :workspace AND deleted_at IS NULL) AS workspace_account,
           (SELECT roles FROM workspace_members WHERE workspace_id = :workspace AND user_id = :user) AS workspace_roles`,
      )
      .get({ user: claims.sub, account: accountId ?? null, workspace: workspaceId ?? null }) as AuthRows;
    if (!rows.user_active) throw unauthorized('The token belongs to a user that no longer exists.');
    const ctx: AuthContext = { userId: claims.sub, tokenId: claims.jti };
    if (accountId !== undefined) {
      if (accountId !== claims.acct) throw forbidden('The token was issued for another account than x-account-id.');
      accountAccess(rows.tier_level, rows.account_roles !== null);
      ctx.accountId = accountId;
      ctx.accountRoles = JSON.parse(rows.account_roles ?? '[]') as string[];
    }
    if (workspaceId !== undefined) {
      if (rows.workspace_account === null) throw notFound('workspace');
      if (rows.workspace_account !== accountId) throw forbidden('The workspace does not belong to this account.');
      if (rows.workspace_roles === null) throw forbidden('You are not a member of this workspace.');
      ctx.workspaceId = workspaceId;
      ctx.workspaceRoles = JSON.parse(rows.workspace_roles) as string[];
    }
    return ctx;
  }

  private async verify(token: string, address: ClientAddress): Promise<Claims> {
    const known = this.verified.get(token);
    if (known) {
      // Kept once expired: answering its next use needs no signature check either.
      if (known.exp * 1000 > Date.now()) return known;
      throw new ApiError(401, 'token_expired', 'The token has expired; request a new one.');
    }
    this.failures.enter(address);
    try {
      // Only HS256: a token with `alg: none` or any other algorithm is refused.
      const { payload } = await jwtVerify(token, await this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.acct !== 'string' || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') {
        throw unauthorized('The token lacks its claims.');
      }
      const claims = { sub: payload.sub, acct: payload.acct, jti: payload.jti, exp: payload.exp };
      this.failures.forgive(address);
      this.remember(token, claims);
      return claims;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (error instanceof joseErrors.JWTExpired) {
        // Signed by us: an honest client that kept its token too long, not a guess.
        this.failures.forgive(address);
        throw new ApiError(401, 'token_expired', 'The token has expired; request a new one.');
      }
      throw unauthorized('The token is invalid.');
    }
  }

  private remember(token: string, claims: Claims): void {
    if (this.verified.size >= 10_000) this.verified.clear();
    this.verified.set(token, claims);
  }

  private checkAccount(userId: string, accountId: string): void {
    const account = this.db
      .prepare(
        `SELECT t.level, (SELECT 1 FROM account_members m WHERE m.account_id = a.id AND m.user_id = ?) AS member
         FROM accounts a JOIN tiers t ON t.id = a.tier_id WHERE a.id = ? AND a.deleted_at IS NULL`,
      )
      .get(userId, accountId) as { level: number; member: number | null } | undefined;
    accountAccess(account?.level ?? null, account?.member === 1);
  }
}

interface AuthRows {
  user_active: number | null;
  /** Null when the account does not exist or was deleted. */
  tier_level: number | null;
  /** The roles (JSON) of a member of the account; null for anyone else. */
  account_roles: string | null;
  /** Null when the workspace does not exist or was deleted. */
  workspace_account: string | null;
  /** The roles (JSON) of a member of the workspace; null for anyone else. */
  workspace_roles: string | null;
}

/** A member of an existing account whose plan includes the API: 403 otherwise. */
function accountAccess(tierLevel: number | null, member: boolean): void {
  if (tierLevel === null) throw forbidden('The account does not exist or you are not a member of it.');
  if (!member) throw forbidden('You are not a member of this account.');
  if (tierLevel < API_MIN_TIER_LEVEL) {
    throw new ApiError(403, 'plan_required', 'API access needs the Pro or Enterprise plan.');
  }
}

function requireUuidHeader(value: unknown, name: string): string {
  if (value === undefined) throw badRequest(`The ${name} header is missing.`);
  if (!isUuid(value)) throw badRequest(`The ${name} header must be a UUID.`);
  return value.toLowerCase();
}
