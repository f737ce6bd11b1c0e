import type { FastifyInstance } from 'fastify';
import { openApiText } from '../../shared/api/openapi.js';
import type { ServiceContext } from '../context.js';

/** The protocol as one OpenAPI document (the one docs/openapi.json holds), for anyone who asks. */
export function openApiRoutes(app: FastifyInstance, _ctx: ServiceContext): void {
  let text: string | undefined;
  app.get('/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send((text ??= openApiText())));
}
