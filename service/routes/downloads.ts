import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.js';

/**
 * Downloads answer with a redirect to a signed GET URL on the blob origin (so the bearer token
 * never travels there), or with the URL as JSON when asked with `redirect=false`.
 */
export function redirectToBlob(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  blob: { key: string; checksum?: string | undefined; size?: number | undefined },
) {
  const { url, expiresAt } = ctx.signer.sign('get', blob.key);
  if ((request.query as Record<string, string>).redirect === 'false') {
    return reply.send({ url, expires_at: expiresAt.toISOString(), checksum: blob.checksum, size: blob.size });
  }
  return reply.code(302).header('location', url).send();
}
