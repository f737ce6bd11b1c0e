import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';

export function authRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post('/auth/token', async (request) => {
    const { token, expiresIn } = await ctx.tokens.issue(request.headers['x-account-id'], request.body, request.ip);
    // The reference shows a bare JSON string; its guidance names `token` and `expires_in`.
    return ctx.options.tokenShape === 'object' ? { token, expires_in: expiresIn } : JSON.stringify(token);
  });
}
