/** Error bodies of the reference (part 7): both shapes it shows, plus the rate-limit body. */
import { z } from 'zod';

export const ErrorCode = z.enum([
  'invalid_request',
  'payload_too_large',
  'unauthorized',
  'token_expired',
  'forbidden',
  'plan_required',
  'asset_locked',
  'not_found',
  'version_conflict',
  'name_conflict',
  'folder_not_empty',
  'not_deleted',
  'invalid_state',
  'cycle',
  'checksum_mismatch',
  'upload_missing',
  'cursor_expired',
  'rate_limited',
  'unavailable',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** `{ error: { code, message } }`: the service's default shape. */
export const NestedErrorBody = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
/** `{ error, message }`: the flat shape (`--error-shape flat`). */
export const FlatErrorBody = z.looseObject({
  error: z.string(),
  message: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
/** `{ error, retry_after }` with a `Retry-After` header on 429. */
export const RateLimitBody = z.looseObject({ error: z.string(), retry_after: z.number() });

export const ErrorBody = z.union([NestedErrorBody, FlatErrorBody]);
export type ErrorBody = z.infer<typeof ErrorBody>;

export interface NormalizedError {
  code: string;
  message: string;
  details?: Record<string, unknown> | undefined;
  retryAfter?: number | undefined;
}

/** Reads either error shape (or anything else) into one form. */
export function normalizeErrorBody(body: unknown): NormalizedError | undefined {
  const nested = NestedErrorBody.safeParse(body);
  if (nested.success) return { ...nested.data.error };
  const flat = FlatErrorBody.safeParse(body);
  if (flat.success) {
    const retry = RateLimitBody.safeParse(body);
    return {
      code: flat.data.error,
      message: flat.data.message ?? flat.data.error,
      details: flat.data.details,
      retryAfter: retry.success ? retry.data.retry_after : undefined,
    };
  }
  return undefined;
}
