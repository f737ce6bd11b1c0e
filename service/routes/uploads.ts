import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Checksum } from '../../shared/api/index.js';
import { parse, workspaceCaller, type ServiceContext } from '../context.js';
import { ItemName } from '../domain/names.js';
import { ApiError } from '../http/errors.js';
import { newBlobKey, now } from '../http/ids.js';

const UploadQuery = z.object({
  file_name: ItemName,
  content_type: z.string().min(1).max(255).default('application/octet-stream'),
  checksum: Checksum,
  size: z.coerce.number().int().nonnegative().optional(),
});

export function uploadRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post('/workspaces/upload', async (request) => {
    const caller = workspaceCaller(request);
    const query = parse(UploadQuery, request.query, 'query');
    const max = ctx.options.maxUploadBytes;
    if (query.size !== undefined && query.size > max) {
      throw new ApiError(413, 'payload_too_large', `The declared size is above the ${max} bytes one upload may hold.`, { max_bytes: max });
    }
    const key = newBlobKey();
    ctx.db
      .prepare(
        `INSERT INTO uploads (key, workspace_id, account_id, user_id, file_name, content_type, checksum, size, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(key, caller.workspaceId, caller.accountId, caller.userId, query.file_name, query.content_type, query.checksum, query.size ?? null, now());
    return { key, signed_url: ctx.signer.sign('put', key, query.checksum, query.size).url };
  });
}
