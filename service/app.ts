import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { ServiceContext } from './context.js';
import { ApiError, errorBody, rateLimited } from './http/errors.js';
import { routeFaultCode } from './http/faults.js';
import { checkJsonDepth } from './http/json-depth.js';
import { authLevel, authorize, checkRoutesCovered } from './http/permissions.js';
import { createRateLimiter } from './http/rate-limit.js';
import { varyAnswer, variesAnswers } from './http/variants.js';
import { withAnsweredChecksums } from './http/checksums.js';
import { registerRoutes } from './routes/index.js';

const JSON_BODY_LIMIT = 1024 * 1024;

/** The API origin: a Fastify app with the reference's auth, error and rate-limit rules. */
export async function createApiServer(ctx: ServiceContext): Promise<FastifyInstance> {
  const app = Fastify({
    logger: ctx.options.logger ? { level: 'info', redact: ['req.headers.authorization'] } : false,
    bodyLimit: JSON_BODY_LIMIT,
    keepAliveTimeout: 30_000,
    // Huge JSON is refused by the body limit, deep JSON by the parser below; prototype keys are stripped.
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    return503OnClosing: true,
  });
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    try {
      checkJsonDepth(body as string);
    } catch (error) {
      return done(error as Error, undefined);
    }
    parseJson(request, body as string, done);
  });
  await app.register(multipart, { limits: { fileSize: 50 * 1024 * 1024, files: 1, fields: 10 } });

  const shape = ctx.options.errorShape;
  const faults = ctx.faults;
  const limiter = ctx.options.rateLimitPerSecond ? createRateLimiter(ctx.options.rateLimitPerSecond) : undefined;

  app.addHook('onRequest', async (request, reply) => {
    if (!faults) return;
    if (faults.options.latencyMs > 0) await new Promise((r) => setTimeout(r, faults.options.latencyMs));
    const rule = faults.routeFault(request.method, request.url);
    if (rule?.before) await rule.before();
    if (rule?.answer === 'pass') return;
    if (rule?.answer === 'drop') {
      reply.hijack();
      reply.raw.destroy();
      return reply;
    }
    // Valid JSON cut off: the answer a proxy that truncated the body, or a broken service, gives.
    if (rule?.answer === 'malformed') return reply.code(200).type('application/json; charset=utf-8').send('{"sequence": 17, "has_more": fal');
    if (rule) return reply.code(rule.answer).send(errorBody(shape, routeFaultCode(rule.answer), `Injected fault: ${rule.method} ${rule.path} answers ${rule.answer}.`));
    if (faults.roll('error5xx')) {
      return reply.code(503).header('retry-after', '0').send(errorBody(shape, 'unavailable', 'Injected fault: service unavailable.'));
    }
  });

  app.addHook('preHandler', async (request) => {
    const level = authLevel(request.method, request.routeOptions.url);
    let auth;
    try {
      auth = await ctx.tokens.authenticate(request.headers, level, request.ip);
    } catch (error) {
      // A request refused at authentication still counts against its address: else invalid
      // tokens would never be limited.
      const wait = limiter && !(error instanceof ApiError && error.code === 'rate_limited') ? limiter.take(`ip:${request.ip}`) : 0;
      throw wait > 0 ? rateLimited(wait) : error;
    }
    if (auth) request.auth = auth;
    const wait = limiter ? limiter.take(auth?.tokenId ?? `ip:${request.ip}`) : 0;
    if (wait > 0) throw rateLimited(wait);
    authorize(request, auth);
  });

  if (variesAnswers(ctx.options)) {
    app.addHook('preSerialization', async (request, reply, payload) =>
      reply.statusCode < 300 ? varyAnswer(payload, request.url.split('?')[0] ?? '', ctx.options) : payload,
    );
  }

  if (ctx.options.checksumAlgorithm === 'opaque') {
    // Every answer, errors too: a conflict's details name the checksum of the item in the way.
    app.addHook('preSerialization', async (_request, _reply, payload) => withAnsweredChecksums(ctx.options.checksumAlgorithm, payload));
  }

  app.addHook('onSend', async (_request, reply, payload) => {
    if (!faults || reply.statusCode >= 300 || !faults.roll('drop')) return payload;
    // Promise the whole body, send half, then cut the connection.
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString() : '';
    const raw = reply.raw;
    reply.hijack();
    raw.writeHead(reply.statusCode, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    // Cut once the half is out, or the client would see a refused request instead of a short body.
    raw.write(text.slice(0, Math.floor(text.length / 2)), () => raw.destroy());
    return payload;
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError && error.code === 'rate_limited') {
      // The reference's rate-limit body, whichever error shape is chosen.
      const wait = Number(error.details?.retry_after ?? 1);
      return reply.code(429).header('retry-after', String(wait)).send({ error: 'rate_limited', retry_after: wait });
    }
    if (error instanceof ApiError) return reply.code(error.status).send(errorBody(shape, error.code, error.message, error.details));
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status === 413) return reply.code(413).send(errorBody(shape, 'payload_too_large', 'The request body is too large.'));
    if (status >= 400 && status < 500) {
      return reply.code(status).send(errorBody(shape, 'invalid_request', error.message || 'The request is invalid.'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(errorBody(shape, 'internal', 'The service failed; the request may be retried.'));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(shape, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`));
  });

  const routes: Array<{ method: string; url: string }> = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  registerRoutes(app, ctx);
  checkRoutesCovered(routes);
  return app;
}
