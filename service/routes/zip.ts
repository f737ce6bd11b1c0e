import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parse, workspaceCaller, type ServiceContext } from '../context.js';
import { zipEntries, zipStream } from '../domain/zip.js';
import { getWorkspaceRow } from '../domain/workspaces.js';

const ZipQuery = z.object({ include_attachments: z.enum(['true', 'false']).default('false') });

/** POST /workspaces/download/assets: the whole workspace as one streamed zip. */
export function zipRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post('/workspaces/download/assets', async (request, reply) => {
    const { workspaceId } = workspaceCaller(request);
    const query = parse(ZipQuery, request.query, 'query');
    const entries = zipEntries(ctx, workspaceId, query.include_attachments === 'true');
    const stopped = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) stopped.abort();
    });
    const fileName = getWorkspaceRow(ctx.db, workspaceId).name.replace(/[^\w .-]+/g, '_') || 'workspace';
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${fileName}.zip"`)
      .send(zipStream(ctx, entries, stopped.signal));
  });
}
