/**
 * An authenticated call to the service API: headers, bearer token (renewed once on a 401),
 * retries when the call is safe to repeat, and validation of the answer.
 */
import type { z } from 'zod';
import type { TokenRequest } from '../../shared/api/index.js';
import { TokenAnswer } from './records.js';
import { ServiceError } from './service-error.js';
import { KiB, MiB, errorFromResponse, headerValue, readJson, requestLabel, type HttpMethod } from './http.js';
import { withRetry } from './retry.js';
import { callSignal, type ClientContext } from './context.js';
import { TokenManager, grantFromResponse, type Credentials, type CredentialsProvider } from './token.js';

export const DEFAULT_JSON_LIMIT = 8 * MiB;
const TOKEN_LIMIT = 64 * KiB;

/** Which identity headers a call carries: none (`/users…`), the account, or account and workspace. */
export type Scope = { user: true } | { account: true } | { workspaceId: string };

export type Query = Record<string, string | number | boolean | undefined>;

export interface ApiCall<S extends z.ZodType> {
  method: HttpMethod;
  path: string;
  query?: Query;
  body?: unknown;
  schema: S;
  /** Safe to send twice: decided per endpoint from the protocol, never from the method alone. */
  /** Whether a failure may be tried again; a function decides per error (e.g. 501 means "never"). */
  retriable: boolean | ((err: ServiceError) => boolean);
  scope: Scope;
  /** False only for POST /auth/token. */
  auth?: boolean;
  maxBytes?: number;
  signal?: AbortSignal | undefined;
  /** For endpoints that answer 302: what to return for the Location (never followed here). */
  onRedirect?: (location: URL) => z.output<S>;
}

/** Marks a failure of the token's own (already retried) call so the outer call does not retry it again. */
async function noRetry<T>(marked: Set<unknown>, pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (err) {
    marked.add(err);
    throw err;
  }
}

function resolveLocation(location: string, base: URL, request: string): URL {
  try {
    return new URL(location, base);
  } catch {
    throw new ServiceError({ kind: 'malformed', code: 'bad_location', message: `${request}: redirect to an invalid URL`, request });
  }
}

export class ApiSession {
  readonly tokens: TokenManager;
  private credentials: Credentials | undefined;

  constructor(
    private readonly context: ClientContext,
    private readonly accountId: string,
    private readonly credentialSource: Credentials | CredentialsProvider,
    now: () => number,
  ) {
    if (typeof credentialSource !== 'function') this.credentials = credentialSource;
    this.tokens = new TokenManager({
      now,
      obtain: async () => grantFromResponse(await this.requestToken(), now()),
      isTransient: (err) => err instanceof ServiceError && err.transient,
    });
  }

  /** Strings to keep out of every message: the credentials and the token in use. */
  secrets(): string[] {
    // redact() passes over strings too short to be secrets, the empty one among them.
    return [this.credentials?.key, this.credentials?.secret, this.tokens.currentToken].filter((value): value is string => typeof value === 'string');
  }

  async call<S extends z.ZodType>(spec: ApiCall<S>): Promise<z.output<S>> {
    const url = this.context.transport.apiUrl(spec.path, spec.query);
    const request = requestLabel(spec.method, url);
    const signal = callSignal(this.context, spec.signal);
    // A token that could not be had was already retried by its own call.
    const tokenFailures = new Set<unknown>();
    let renewed = false;
    return withRetry(
      async () => {
        for (;;) {
          const headers = this.headers(spec);
          let token: string | undefined;
          if (spec.auth !== false) {
            token = await noRetry(tokenFailures, this.tokens.token(signal));
            headers.authorization = `Bearer ${token}`;
          }
          // JSON.stringify(undefined) is undefined: a call without a body sends none.
          const body: string | undefined = JSON.stringify(spec.body);
          const res = await this.context.transport.api(url, { method: spec.method, headers, body, signal });
          if (res.status === 401 && token !== undefined && !renewed) {
            // The token may have been revoked or expired early: renew once (shared with every
            // other request rejected with the same token) and repeat; a 401 means nothing was done.
            renewed = true;
            await res.body.dump().catch(() => undefined);
            await noRetry(tokenFailures, this.tokens.renewAfterRejection(token, signal));
            continue;
          }
          // undici answers informational (1xx) responses itself: anything below 300 is a success.
          if (res.status < 300) {
            return readJson(res, spec.schema, spec.maxBytes ?? DEFAULT_JSON_LIMIT, this.secrets());
          }
          const location = headerValue(res.headers, 'location');
          if (res.status < 400 && spec.onRedirect && location !== undefined) {
            await res.body.dump().catch(() => undefined);
            return spec.onRedirect(resolveLocation(location, url, request));
          }
          throw await errorFromResponse(res, this.secrets());
        }
      },
      {
        policy: this.context.policy,
        retriable: (err) => (typeof spec.retriable === 'function' ? spec.retriable(err) : spec.retriable) && !tokenFailures.has(err),
        request,
        signal,
        onRetry: this.context.onRetry,
      },
    );
  }

  private headers(spec: ApiCall<z.ZodType>): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    if (!('user' in spec.scope)) headers['x-account-id'] = this.accountId;
    if ('workspaceId' in spec.scope) headers['x-workspace-id'] = spec.scope.workspaceId;
    return headers;
  }

  private async requestToken(): Promise<TokenAnswer> {
    const source = this.credentialSource;
    let credentials: Credentials;
    try {
      credentials = typeof source === 'function' ? await source() : source;
    } catch (err) {
      throw new ServiceError({
        kind: 'auth',
        code: 'credentials_unavailable',
        message: 'the API key and secret could not be read',
        cause: err,
      });
    }
    this.credentials = credentials;
    return this.call({
      method: 'POST',
      path: '/auth/token',
      body: { key: credentials.key, secret: credentials.secret } satisfies TokenRequest,
      schema: TokenAnswer,
      retriable: true,
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: any scope without `user` or `workspaceId` is the account's
      scope: { account: true },
      auth: false,
      maxBytes: TOKEN_LIMIT,
    });
  }
}
