import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parse, type ServiceContext } from '../context.js';
import { storeBlob } from '../domain/blobs.js';
import { ApiError, badRequest } from './errors.js';
import { checkJsonDepth } from './json-depth.js';

export interface StoredFile {
  key: string;
  checksum: string;
  size: number;
  fileName: string;
  contentType: string;
}

/**
 * Reads the reference's multipart form: part `body` (a JSON string) and an optional part `file`
 * (stored as a blob). [ours] A plain JSON body is accepted too, for changes without a file.
 * When the body turns out invalid, a file already stored is removed again.
 */
export async function readForm<T extends z.ZodType>(
  ctx: ServiceContext,
  request: FastifyRequest,
  schema: T,
  owner: { userId: string; accountId?: string | null; workspaceId?: string | null },
): Promise<{ body: z.infer<T>; file?: StoredFile }> {
  if (!request.isMultipart()) return { body: parse(schema, request.body ?? {}) };
  let raw: unknown = {};
  let file: StoredFile | undefined;
  let problem: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          part.file.resume();
          problem ??= `Unexpected file part "${part.fieldname}"; send one part named "file".`;
          continue;
        }
        const stored = await storeBlob(ctx, part.file, { fileName: part.filename || 'file', contentType: part.mimetype, ...owner });
        file = { ...stored, fileName: part.filename || 'file', contentType: part.mimetype };
      } else if (part.fieldname === 'body') {
        try {
          if (typeof part.value === 'string' && part.value.length > 0) {
            checkJsonDepth(part.value, 'The "body" part');
            raw = JSON.parse(part.value) as unknown;
          }
        } catch (error) {
          problem ??= error instanceof ApiError ? error.message : 'The "body" part must be a JSON string.';
        }
      }
    }
    if (problem) throw badRequest(problem);
    return { body: parse(schema, raw), ...(file ? { file } : {}) };
  } catch (error) {
    if (file) await discardFile(ctx, file.key);
    throw asClientError(error);
  }
}

/** Errors of the form parser (a truncated or malformed body) are the client's: 400, not 500. Disk errors stay 500. */
function asClientError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const { statusCode, syscall } = error as { statusCode?: unknown; syscall?: unknown };
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) return error;
  if (syscall !== undefined) return error;
  return badRequest(`The multipart form is malformed: ${error instanceof Error ? error.message : String(error)}.`);
}

export async function discardFile(ctx: ServiceContext, key: string): Promise<void> {
  ctx.db.prepare('DELETE FROM uploads WHERE key = ?').run(key);
  await ctx.blobs.remove(key);
}
