import type { ErrorCode } from '../../shared/api/errors.js';

/** An error meant for the client: a status, a code from docs/protocol.md and a message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) => new ApiError(400, 'invalid_request', message, details);
export const unauthorized = (message = 'Authentication failed: the bearer token is missing, invalid or expired.') =>
  new ApiError(401, 'unauthorized', message);
export const forbidden = (message = 'You do not have permission for this resource.') => new ApiError(403, 'forbidden', message);
export const notFound = (what = 'resource') => new ApiError(404, 'not_found', `The ${what} does not exist.`);
/** 429 with the seconds to wait: answered as the reference's rate-limit body and a Retry-After header. */
export const rateLimited = (seconds: number, message = 'Too many requests; wait before trying again.') =>
  new ApiError(429, 'rate_limited', message, { retry_after: seconds });
export const conflict = (code: ErrorCode, message: string, details?: Record<string, unknown>) => new ApiError(409, code, message, details);

export function errorBody(shape: 'object' | 'flat', code: string, message: string, details?: Record<string, unknown>): unknown {
  if (shape === 'flat') return details ? { error: code, message, details } : { error: code, message };
  return { error: details ? { code, message, details } : { code, message } };
}
