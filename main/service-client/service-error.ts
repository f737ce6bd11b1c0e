/**
 * The one error type the service client throws. Callers branch on `kind` (what to do about it)
 * and read `code`/`details` (what the service said); they never see undici or zod errors.
 */

export type ServiceErrorKind =
  | 'auth'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'locked'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'malformed'
  | 'client'
  | 'aborted';

export interface ServiceErrorInit {
  kind: ServiceErrorKind;
  message: string;
  status?: number | undefined;
  code?: string | undefined;
  details?: Record<string, unknown> | undefined;
  /** Seconds the service asked us to wait (429 `Retry-After` header or body `retry_after`). */
  retryAfter?: number | undefined;
  /** `METHOD /path` without query string (signed URLs carry their signature in the query). */
  request?: string | undefined;
  cause?: unknown;
}

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly kind: ServiceErrorKind;
  /** HTTP status, or undefined when no response arrived (network, aborted). */
  readonly status: number | undefined;
  /** The service's error code (`version_conflict`, …) or a client-side one (`malformed_body`, …). */
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfter: number | undefined;
  readonly request: string | undefined;

  constructor(init: ServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code ?? init.kind;
    this.details = init.details;
    this.retryAfter = init.retryAfter;
    this.request = init.request;
  }

  /** Worth repeating the same request (if the request itself is safe to repeat). */
  get transient(): boolean {
    return this.kind === 'network' || this.kind === 'server' || this.kind === 'rate_limited';
  }
}

export function isServiceError(err: unknown): err is ServiceError {
  return err instanceof ServiceError;
}

import { readConflictDetails, type ConflictDetails } from './ours.js';

/** What a caller should do about an HTTP error status, refined by the service's code. */
export function kindForStatus(status: number, code?: string): ServiceErrorKind {
  if (status === 401) return 'auth';
  if (status === 403) return code === 'asset_locked' ? 'locked' : 'forbidden';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 423) return 'locked';
  if (status === 429) return 'rate_limited';
  if (status === 408) return 'network';
  // The API never redirects except where a call expects it (downloads), and those are handled.
  if (status >= 300 && status < 400) return 'malformed';
  if (status >= 500) return 'server';
  return 'client';
}

/**
 * Replaces every occurrence of the given secrets in a text. A hostile or careless server may
 * echo what it was sent; nothing we surface (messages, details, logs) may carry a credential.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out;
}

export function redactDetails(
  details: Record<string, unknown> | undefined,
  secrets: readonly string[],
): Record<string, unknown> | undefined {
  if (details === undefined) return undefined;
  let text: string;
  try {
    text = JSON.stringify(details);
  } catch {
    // Nested too deeply to serialise: nothing a caller could use, and nothing we could redact.
    return undefined;
  }
  const cleaned = redact(text, secrets);
  return cleaned === text ? details : (JSON.parse(cleaned) as Record<string, unknown>);
}

/**
 * Reads the adoptable facts out of a 409: a create whose answer was lost and repeated comes
 * back as `name_conflict` naming the existing item, so the caller can adopt it. What the details
 * hold is ours (main/service-client/ours.ts reads them).
 */
export function conflictDetails(err: unknown): ConflictDetails | undefined {
  if (!isServiceError(err) || err.kind !== 'conflict' || err.details === undefined) return undefined;
  return readConflictDetails(err.details);
}
