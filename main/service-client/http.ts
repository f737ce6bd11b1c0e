/**
 * One HTTP exchange and what to make of its answer: keep-alive pools, bounded body reads,
 * validation with the shared zod schemas, and mapping of every failure to a ServiceError.
 * Retries, tokens and endpoints live above this layer.
 */
import type { Readable } from 'node:stream';
import { Agent, Pool, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { normalizeErrorBody } from '../../shared/api/index.js';
import { ServiceError, kindForStatus, redact, redactDetails } from './service-error.js';
import { abortedError, parseRetryAfter } from './retry.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The subset of pino the client uses; pino loggers fit it as they are. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export const KiB = 1024;
export const MiB = 1024 * KiB;
/** Enough for any error body worth reading; a bigger one is replaced by the status alone. */
export const ERROR_BODY_LIMIT = 64 * KiB;

export interface TransportOptions {
  baseUrl: string;
  userAgent: string;
  timeoutMs: number;
  /** Connections kept to the API origin. */
  connections: number;
  /** Everything that must never appear in a message: token, key, secret. */
  secrets: () => readonly string[];
  logger?: Logger | undefined;
}

export interface SendOptions {
  method: HttpMethod;
  headers: Record<string, string>;
  body?: string | Buffer | Readable | null | undefined;
  signal?: AbortSignal | undefined;
  /** Bytes the response body buffers before the socket is paused (undici's default: 64 KiB). */
  highWaterMark?: number | undefined;
}

export interface RawResponse {
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  body: Dispatcher.ResponseData['body'];
  /** `METHOD /path`, never the query (signed URLs carry their signature there). */
  request: string;
}

export function requestLabel(method: string, url: URL): string {
  return `${method} ${url.pathname}`;
}

export function headerValue(headers: RawResponse['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export class Transport {
  readonly baseUrl: URL;
  /** Path prefix of the base URL without its trailing slash (`''` for a bare origin). */
  private readonly basePath: string;
  private readonly pool: Pool;
  /** Signed URLs name hosts we do not know in advance: one agent pools them all. */
  private readonly blobAgent: Agent;

  /** What requests made outside undici (blob-socket.ts) send and wait for. */
  get settings(): { userAgent: string; timeoutMs: number } {
    return { userAgent: this.options.userAgent, timeoutMs: this.options.timeoutMs };
  }

  constructor(private readonly options: TransportOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new TypeError(`service URL must be http(s): ${base.protocol}`);
    }
    base.search = '';
    // Stryker disable next-line StringLiteral: a fragment is never sent, requests carry path and query only
    base.hash = '';
    this.baseUrl = base;
    this.basePath = base.pathname.replace(/\/+$/, '');
    // Stryker disable next-line ObjectLiteral: connection tuning, which only timing would tell
    const common = { keepAliveTimeout: 30_000, connect: { timeout: options.timeoutMs } };
    // Stryker disable next-line ObjectLiteral: connection tuning, which only timing would tell
    this.pool = new Pool(base.origin, { ...common, connections: options.connections });
    this.blobAgent = new Agent(common);
  }

  /** A URL on the API origin for a path like `/workspaces/assets`. */
  apiUrl(path: string, query?: Record<string, string | number | boolean | undefined>): URL {
    const url = new URL(this.baseUrl.href);
    url.pathname = `${this.basePath}${path}`;
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url;
  }

  /** A request to the API origin (the only place a bearer token may go). */
  api(url: URL, options: SendOptions): Promise<RawResponse> {
    if (url.origin !== this.baseUrl.origin) throw new TypeError('api() is for the service origin only');
    return this.send(this.pool, url, options);
  }

  /** A request to a signed URL: never with the bearer token, whatever the caller passed. */
  blob(url: URL, options: SendOptions): Promise<RawResponse> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ServiceError({
        kind: 'malformed',
        code: 'bad_signed_url',
        message: `signed URL must be http(s), got ${url.protocol}`,
      });
    }
    const headers = Object.fromEntries(
      Object.entries(options.headers).filter(([name]) => name.toLowerCase() !== 'authorization'),
    );
    return this.send(this.blobAgent, url, { ...options, headers });
  }

  /**
   * Closes every connection; the requests still running were aborted by the client's close. The
   * sockets are destroyed with an error that has no stack: Node reads the stack of the error a
   * socket is destroyed with, and with source maps enabled the first stack formatted parses the
   * bundle's source map, about 0.3 s of CPU at the end of every command.
   */
  async close(): Promise<void> {
    await Promise.all([this.pool.destroy(closedError()), this.blobAgent.destroy(closedError())]);
  }

  private async send(dispatcher: Dispatcher, url: URL, options: SendOptions): Promise<RawResponse> {
    const request = requestLabel(options.method, url);
    const started = Date.now();
    if (options.signal?.aborted) throw abortedError(options.signal, request);
    try {
      const res = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: options.method,
        headers: { 'user-agent': this.options.userAgent, ...options.headers },
        body: options.body ?? null,
        signal: options.signal ?? null,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        ...(options.highWaterMark !== undefined ? { highWaterMark: options.highWaterMark } : {}),
      });
      this.options.logger?.debug({ request, status: res.statusCode, ms: Date.now() - started }, 'service response');
      return { status: res.statusCode, headers: res.headers, body: res.body, request };
    } catch (err) {
      throw transportError(err, request, options.signal, this.options.secrets());
    }
  }
}

/** The error closed connections end with, without the stack nobody reads (see `close`). */
function closedError(): Error {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new Error('the service client is closed');
  } finally {
    Error.stackTraceLimit = limit;
  }
}

const CLIENT_SIDE_CODES = new Set([
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
  'ERR_INVALID_ARG_TYPE',
  'ENOENT',
  'EACCES',
  'EISDIR',
]);

/** A failure without a usable HTTP answer: aborted by us, a local mistake, or the network. */
export function transportError(
  err: unknown,
  request: string,
  signal: AbortSignal | undefined,
  secrets: readonly string[],
): ServiceError {
  if (err instanceof ServiceError) return err;
  if (signal?.aborted) return abortedError(signal, request);
  const code = typeof (err as { code?: unknown })?.code === 'string' ? (err as { code: string }).code : undefined;
  const text = err instanceof Error ? err.message : String(err);
  return new ServiceError({
    kind: code !== undefined && CLIENT_SIDE_CODES.has(code) ? 'client' : 'network',
    code: code ?? 'network_error',
    message: redact(`${request}: ${code ?? 'network error'}: ${text}`, secrets),
    request,
    cause: err,
  });
}

/**
 * Reads a body up to `maxBytes`; a bigger one is abandoned (and its connection with it) so a
 * hostile server cannot make us buffer without end.
 */
export async function readBody(res: RawResponse, maxBytes: number, secrets: readonly string[]): Promise<Buffer> {
  const tooLarge = (): ServiceError =>
    new ServiceError({
      kind: 'malformed',
      status: res.status,
      code: 'body_too_large',
      message: `${res.request}: response body larger than ${maxBytes} bytes`,
      request: res.request,
    });
  const declared = Number(headerValue(res.headers, 'content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) {
        res.body.destroy();
        throw tooLarge();
      }
      chunks.push(chunk);
    }
  } catch (err) {
    throw transportError(err, res.request, undefined, secrets);
  }
  return Buffer.concat(chunks, total);
}

function malformed(res: RawResponse, why: string, secrets: readonly string[]): ServiceError {
  return new ServiceError({
    kind: 'malformed',
    status: res.status,
    code: 'malformed_response',
    message: redact(`${res.request}: malformed response (${res.status}): ${why}`, secrets).slice(0, 2000),
    request: res.request,
  });
}

/** Parses and validates a successful answer; anything unexpected is a 'malformed' error. */
export async function readJson<S extends z.ZodType>(
  res: RawResponse,
  schema: S,
  maxBytes: number,
  secrets: readonly string[],
): Promise<z.output<S>> {
  const raw = await readBody(res, maxBytes, secrets);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw malformed(res, raw.length === 0 ? 'empty body' : 'body is not JSON', secrets);
  }
  let result: z.ZodSafeParseResult<z.output<S>>;
  try {
    result = schema.safeParse(parsed);
  } catch {
    // A recursive schema meeting JSON nested thousands deep runs out of stack.
    throw malformed(res, 'nested too deeply', secrets);
  }
  if (!result.success) {
    const issues = result.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw malformed(res, issues, secrets);
  }
  return result.data;
}

function nonNegative(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Seconds to wait from a 429/503: the longer of the header and the body's `retry_after`. */
function retryAfterOf(res: RawResponse, fromBody: number | undefined): number | undefined {
  const fromHeader = parseRetryAfter(res.headers['retry-after']);
  if (fromHeader === undefined) return fromBody;
  if (fromBody === undefined) return fromHeader;
  return Math.max(fromHeader, fromBody);
}

/** The ServiceError for a non-success answer, whichever error shape (if any) the body has. */
export async function errorFromResponse(res: RawResponse, secrets: readonly string[]): Promise<ServiceError> {
  let body: unknown;
  try {
    const raw = await readBody(res, ERROR_BODY_LIMIT, secrets);
    body = raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined;
  } catch {
    // An unreadable error body still leaves the status to act on.
    body = undefined;
  }
  const normalized = normalizeErrorBody(body);
  const code = normalized?.code ?? `http_${res.status}`;
  const bodyRetryAfter = nonNegative(normalized?.retryAfter) ?? nonNegative((body as { retry_after?: unknown } | undefined)?.retry_after);
  const message = normalized?.message ?? `HTTP ${res.status}`;
  return new ServiceError({
    kind: kindForStatus(res.status, code),
    status: res.status,
    code,
    message: redact(`${res.request}: ${res.status} ${code}: ${message}`, secrets).slice(0, 2000),
    details: redactDetails(normalized?.details, secrets),
    retryAfter: retryAfterOf(res, bodyRetryAfter),
    request: res.request,
  });
}
